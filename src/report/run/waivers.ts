// Waivers: known failures a team lives with for a while. A waiver names a check or a
// requirement, a reason, an expiry date and a link. A problem it covers gets the outcome
// `waived` (it does not fail the run); past its date it no longer applies and the report says it
// expired; one that covers nothing in the run is reported unused.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import YAML, { LineCounter, isNode } from 'yaml';
import { HarnessError } from '../../core/errors.js';
import { yamlErrorLine } from '../../core/yaml-error.js';
import { readText } from '../../core/paths.js';
import type { Outcome } from '../../core/outcome.js';
import type { AppliedWaiver, CheckResult, Waiver, WaiverSummary } from '../shared/types.js';

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (a: Ajv) => Ajv;

/** Outcomes a waiver can cover: the gateway's problems, never a harness error, a pass or a skip. */
export const WAIVABLE = new Set<Outcome>(['fail', 'warn', 'info', 'timeout', 'flaky']);

let validate: ReturnType<Ajv['compile']> | undefined;

/**
 * Reads the `waivers:` list of a YAML file (a waivers file or gwc.yaml; a top-level list is
 * accepted too). A bad entry is a harness error naming the file, the line and the key.
 */
export function loadWaivers(path: string): Waiver[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new HarnessError('BAD_CONFIG', `waivers file ${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  return parseWaivers(text, path);
}

export function parseWaivers(text: string, path: string): Waiver[] {
  const lineCounter = new LineCounter();
  const doc = YAML.parseDocument(text, { lineCounter });
  if (doc.errors.length) {
    throw new HarnessError('BAD_CONFIG', yamlErrorLine(path, doc.errors[0]));
  }
  let data = doc.toJS() as unknown;
  const topList = Array.isArray(data);
  if (topList) data = { waivers: data };
  if (data === null || typeof data !== 'object') throw new HarnessError('BAD_CONFIG', `${path}: expected a \`waivers:\` list`);
  // gwc.yaml holds other keys: only its waivers are checked here.
  const mine = { waivers: (data as { waivers?: unknown }).waivers };
  if (!validate) {
    const ajv = new Ajv({ allErrors: true });
    addFormats(ajv);
    validate = ajv.compile(JSON.parse(readText('src', 'report', 'run', 'waivers.schema.json')));
  }
  if (!validate(mine)) {
    // The most precise error: the deepest path; oneOf's own message only when nothing deeper.
    const errors = [...validate.errors!].sort((a, b) => b.instancePath.length - a.instancePath.length || (a.keyword === 'oneOf' ? 1 : -1));
    const e = errors[0];
    const keys = e.instancePath.split('/').slice(1).map((k) => (/^\d+$/.test(k) ? Number(k) : k));
    if (topList) keys.shift();
    const extra = e.keyword === 'additionalProperties' ? (e.params as { additionalProperty: string }).additionalProperty : undefined;
    const node = doc.getIn(extra ? [...keys, extra] : keys, true);
    const key = extra && isNode(doc.getIn(keys, true)) ? findKey(doc.getIn(keys, true), extra) : undefined;
    const offset = (key ?? (isNode(node) ? node : undefined))?.range?.[0];
    const line = offset === undefined ? '?' : lineCounter.linePos(offset).line;
    const where = (topList ? keys : keys).join('.') || 'waivers';
    const what =
      e.keyword === 'additionalProperties'
        ? `unknown key "${extra}" (check, requirement, reason, expires, link)`
        : e.keyword === 'oneOf'
          ? 'name exactly one of `check` or `requirement`'
          : e.keyword === 'required'
            ? `missing \`${(e.params as { missingProperty: string }).missingProperty}\``
            : e.message;
    throw new HarnessError('BAD_CONFIG', `${path}:${line}: waiver ${where}: ${what}`);
  }
  return (mine.waivers as Waiver[]).map((w) => ({ ...w }));
}

function findKey(map: unknown, key: string): { range?: [number, number, number] | null } | undefined {
  const items = (map as { items?: Array<{ key: { value?: unknown; range?: [number, number, number] | null } }> }).items ?? [];
  return items.find((p) => p.key?.value === key)?.key;
}

const covers = (w: Waiver, r: CheckResult) => (w.check !== undefined ? w.check === r.id : r.requirements.includes(w.requirement!));

/** Whether the waiver is past its date on `today` (YYYY-MM-DD, UTC): it applies through its expiry day. */
export const isExpired = (w: Waiver, today: string) => w.expires < today;

/**
 * Applies the waivers to the results: a covered problem becomes `waived` (with the waiver and
 * the outcome it had); an expired waiver leaves the problem as it was, and says so in its message.
 */
export function applyWaivers(results: CheckResult[], waivers: Waiver[], today: string, source: string): { results: CheckResult[]; summary: WaiverSummary } {
  const hits = waivers.map(() => [] as string[]);
  const out = results.map((r) => {
    if (!WAIVABLE.has(r.outcome)) return r;
    const i = waivers.findIndex((w) => covers(w, r) && !isExpired(w, today));
    // Expired waivers that would have covered it: the report names what they no longer cover.
    const old = waivers.map((w, j) => [w, j] as const).filter(([w]) => covers(w, r) && isExpired(w, today));
    for (const [, j] of old) hits[j].push(r.id);
    if (i >= 0) {
      hits[i].push(r.id);
      const w = waivers[i];
      const waiver: AppliedWaiver = { ...w, waivedOutcome: r.outcome };
      return { ...r, outcome: 'waived' as const, waiver, message: `${r.message} [waived until ${w.expires}: ${w.reason}]` };
    }
    if (!old.length) return r;
    return { ...r, message: `${r.message} [waiver expired on ${old.map(([w]) => w.expires).join(', ')}: no longer applies]` };
  });
  const summary: WaiverSummary = { source, applied: [], expired: [], unused: [] };
  waivers.forEach((w, i) => {
    if (isExpired(w, today)) summary.expired.push({ ...w, checks: hits[i] });
    else if (hits[i].length) summary.applied.push({ ...w, checks: hits[i] });
    else summary.unused.push(w);
  });
  return { results: out, summary };
}

/** Console lines about the waivers (applied, expired, unused). */
export function waiverLines(s: WaiverSummary): string[] {
  const name = (w: Waiver) => w.check ?? `requirement ${w.requirement}`;
  return [
    ...s.applied.map((w) => `  waiver applied: ${name(w)} (until ${w.expires}; ${w.reason}${w.link ? `; ${w.link}` : ''}): ${w.checks.join(', ')}`),
    ...s.expired.map((w) => `  waiver EXPIRED on ${w.expires}, no longer applied: ${name(w)} (${w.reason})${w.checks.length ? `: it would have covered ${w.checks.join(', ')}` : ''}`),
    ...s.unused.map((w) => `  waiver unused (nothing in this run matched it): ${name(w)}`),
  ];
}
