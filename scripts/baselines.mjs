// The recorded baselines and their update mode: the verdicts of the real gateways
// (examples/nginx/expected-*.json, examples/haproxy/expected*.json) and the detection matrix's rows
// (test/detection/*.json) are written from an observed run, never typed. The pure part lives
// here so that the tests that compare a run with its baseline (test/helpers/baselines.ts) and
// `node scripts/detection.mjs --write FAULT...` share one writer, one diff and one wording.
// Only what a run observes is rewritten; everything else in a file (its hand-written `note` or
// `description`, a row's `flags`, the other faults' rows) is kept as it was.
import { readFileSync, writeFileSync } from 'node:fs';

/** The environment switch of the update mode; CI never sets it (test/project/ci.test.ts). */
export const UPDATE_ENV = 'GWC_UPDATE_BASELINES';

/** The command that rewrites every real gateway's baseline from a run (package.json). */
export const UPDATE_COMMAND = 'npm run baselines:update';

/** Whether the update mode is on in `env`. */
export const updating = (env) => env[UPDATE_ENV] === '1';

/**
 * What differs between two outcome maps (check id -> outcome), one line each, sorted by id:
 * `+ id: pass` (new), `- id: fail` (gone), `~ id: fail -> pass` (changed).
 */
export function outcomeChanges(before, after) {
  const ids = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return ids.flatMap((id) => {
    if (!(id in before)) return [`+ ${id}: ${after[id]}`];
    if (!(id in after)) return [`- ${id}: ${before[id]}`];
    return before[id] === after[id] ? [] : [`~ ${id}: ${before[id]} -> ${after[id]}`];
  });
}

/** The outcomes of `observed`, in the order `kept` had them, the new ones after them in observed order. */
function ordered(kept, observed) {
  const out = {};
  for (const id of Object.keys(kept)) if (id in observed) out[id] = observed[id];
  for (const [id, v] of Object.entries(observed)) if (!(id in out)) out[id] = v;
  return out;
}

/**
 * The outcomes of a real gateway's run that its baseline holds: every check's, except one skipped
 * because a protocol it needs was not declared (`undeclared(id)`: the run's `--protocols` were the
 * baseline's `protocols`, so such a row says only that the protocol was not recorded there).
 */
export function comparableOutcomes(results, undeclared) {
  return Object.fromEntries(results.filter((r) => !(r.outcome === 'skip' && undeclared(r.id))).map((r) => [r.id, r.outcome]));
}

/**
 * The changes between a real gateway's baseline `{ note, protocols, exitCode, outcomes }` and an
 * observed run `{ protocols, exitCode, outcomes }` (`protocols`: the run's `--protocols`).
 */
export function baselineChanges(baseline, observed) {
  const was = (baseline.protocols ?? []).join(',');
  const now = (observed.protocols ?? baseline.protocols ?? []).join(',');
  const protocols = was === now ? [] : [`~ protocols: ${was || '(none)'} -> ${now}`];
  const exit = baseline.exitCode === observed.exitCode ? [] : [`~ exit code: ${baseline.exitCode} -> ${observed.exitCode}`];
  return [...protocols, ...exit, ...outcomeChanges(baseline.outcomes ?? {}, observed.outcomes)];
}

/** The baseline rewritten from an observed run: its other fields (the note) kept, protocols, exit code and outcomes replaced. */
export function withObserved(baseline, observed) {
  const { note, protocols, exitCode, outcomes, ...other } = baseline;
  return { note, protocols: observed.protocols ?? protocols, ...other, exitCode: observed.exitCode, outcomes: ordered(outcomes ?? {}, observed.outcomes) };
}

/**
 * A detection file with the row of `fault` replaced by `row` (appended when it had none): the
 * ids it kept stay in their order, new ones follow sorted by id.
 */
export function withRow(file, fault, row) {
  const sorted = Object.fromEntries(Object.entries(row).sort(([a], [b]) => a.localeCompare(b)));
  return { ...file, faults: { ...file.faults, [fault]: ordered(file.faults?.[fault] ?? {}, sorted) } };
}

/** A JSON file as the repository writes it: two spaces, a final newline. */
export const jsonText = (value) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * Writes `next` to `file` when its changes are not empty; returns the lines that say what changed,
 * each prefixed with the file's name (`label`). An unchanged baseline is not rewritten at all.
 */
export function rewrite(file, label, changes, next) {
  if (!changes.length) return [];
  writeFileSync(file, jsonText(next));
  return changes.map((c) => `${label}: ${c}`);
}

/** Reads a JSON file. */
export const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
