// `gw-conformance compare BASE NEW`: what changed between two runs' reports, per check and per
// capability cell (protocol, route, feature, JSON or streamed). Pure: two RunReports in, one
// Comparison out; the renderers are src/report/across-runs/compare-format.ts, the JSON form's schema
// src/report/across-runs/compare.schema.json. A regression is a check that passed (or only warned) and now
// fails, or a capability cell that passed and now fails; only regressions make exit 1. An
// interrupted run is refused (it is not a complete run) unless the caller allows a partial one,
// and then its unfinished checks count as skipped, never as passes.
import { compareResources, type ResourceComparison } from './resources-compare.js';
import { compareTransports, type TransportComparison } from './transports-compare.js';
import { cellsOf, type CellMode, type CellState } from '../../core/capabilities.js';
import { HarnessError } from '../../core/errors.js';
import type { Level } from '../../core/outcome.js';
import { isNotRun } from '../shared/policy.js';
import { fixLink } from '../../core/links.js';
import type { CheckResult, RunReport } from '../shared/types.js';

export const COMPARE_SCHEMA_VERSION = '1.0.0';

/** What a check's or a cell's row became from BASE to NEW, in the order the formats list them. */
export const CHANGES = ['regression', 'fixed', 'changed', 'new', 'gone', 'skipped', 'unskipped', 'unchanged'] as const;
export type Change = (typeof CHANGES)[number];

/** A check's status in one run: its outcome, or `not-run` for a check an interrupted run did not finish. */
export type Status = CheckResult['outcome'] | 'not-run';

export interface CheckRow {
  change: Change;
  id: string;
  /** The check's id in BASE when it differs (a check renamed between harness versions, matched by requirement ID). */
  baseId?: string;
  requirements: string[];
  level: Level;
  base: Status | null;
  now: Status | null;
  /** NEW's message when the check did not pass there (gateway text: rendered inert by every format). */
  message?: string;
  /** Where NEW's report says the fix is described. */
  fix?: string;
}

export interface CellRow {
  change: Change;
  /** The capability check that judged the cell (in NEW, or in BASE for a cell that is gone). */
  check: string;
  protocol: string;
  route: string;
  feature: string;
  mode: CellMode;
  base: CellState | null;
  now: CellState | null;
  /** NEW requires this feature (--require-capability). */
  required: boolean;
  /** NEW's evidence for a cell that did not pass there. */
  evidence?: string;
}

export interface RunSide {
  source: string;
  harness: string;
  target: string;
  profile: string;
  seed: number;
  startedAt: string;
  exitCode: number;
  checks: number;
  interrupted: boolean;
}

export type FailOn = 'fail' | 'warn';

export interface CompareOptions {
  /** Check ids left out of the comparison (either side's id). */
  ignore?: readonly string[];
  /** Levels left out (MUST, SHOULD, INFO). */
  ignoreLevels?: readonly Level[];
  /** `warn`: a check that passed and now warns is a regression too. */
  failOn?: FailOn;
}

export type Counts = Record<Change, number>;

export interface Comparison {
  schemaVersion: string;
  base: RunSide;
  new: RunSide;
  /** How checks were paired: by id, or (harness versions differ) by id then by requirement ID. */
  matchedBy: 'check-id' | 'requirement-id';
  /** Lines every format shows first: versions that differ, a partial run. */
  notes: string[];
  failOn: FailOn;
  ignored: string[];
  counts: { checks: Counts; cells: Counts };
  regressions: number;
  checks: CheckRow[];
  cells: CellRow[];
  /** The launched gateway's memory and cold start, BASE and NEW (src/report/across-runs/resources-compare.ts); absent when neither run launched it. */
  resources?: ResourceComparison;
  /** Each WebSocket check's outcome per socket route, where BASE and NEW differ (src/report/across-runs/transports-compare.ts); absent when neither run has a socket cell. */
  transports?: TransportComparison;
  exitCode: 0 | 1;
}

/** A run Ctrl-C stopped: its checks that did not finish are no verdict. */
export const isInterrupted = (r: RunReport): boolean => r.interrupted === true || r.exitCode === 130;

/** Refuses an interrupted run (one line, exit 2) unless a partial comparison was asked for. */
export function assertComplete(which: 'BASE' | 'NEW', source: string, r: RunReport, allowPartial: boolean): void {
  if (!isInterrupted(r) || allowPartial) return;
  const left = r.results.filter(isNotRun).length;
  throw new HarnessError('BAD_REPORT', `compare: the ${which} run ${source} was interrupted (Ctrl-C; ${left} of ${r.results.length} checks did not run): not a complete run (--allow-partial compares what finished, the rest as skipped)`);
}

export const statusOf = (r: CheckResult): Status => (isNotRun(r) ? 'not-run' : r.outcome);

/**
 * How bad a verdict is: 0 pass, 1 info, 2 warn (a SHOULD broken, a flaky check that does not fail
 * the run), 3 fail (a MUST broken, timed out or flaky). null: no verdict on the gateway (skipped,
 * not run, waived, the harness broke).
 */
function severity(r: CheckResult, allowFlaky: boolean): number | null {
  switch (statusOf(r)) {
    case 'pass':
      return 0;
    case 'info':
      return 1;
    case 'warn':
      return 2;
    case 'fail':
      return 3;
    case 'timeout':
      return r.level === 'INFO' ? 1 : 3;
    case 'flaky':
      return r.level === 'MUST' && !allowFlaky ? 3 : r.level === 'INFO' ? 1 : 2;
    default:
      return null;
  }
}

const NO_VERDICT_SKIP = new Set<Status>(['skip', 'not-run']);

/** The change of one paired check; `threshold` is the severity that counts as failing (3, or 2 with --fail-on warn). */
export function classify(b: CheckResult | undefined, n: CheckResult | undefined, threshold: number, allowFlaky = false): Change {
  if (!b) return 'new';
  if (!n) return 'gone';
  const [sb, sn] = [statusOf(b), statusOf(n)];
  const [vb, vn] = [severity(b, allowFlaky), severity(n, allowFlaky)];
  if (vb !== null && vn !== null) {
    if (vn > vb && vn >= threshold) return 'regression';
    if (vb >= threshold && vn < threshold) return 'fixed';
    return sb === sn ? 'unchanged' : 'changed';
  }
  if (sb === sn) return 'unchanged';
  if (vb !== null && NO_VERDICT_SKIP.has(sn)) return 'skipped';
  if (vn !== null && NO_VERDICT_SKIP.has(sb)) return 'unskipped';
  return 'changed';
}

const reqKey = (r: CheckResult) => [...r.requirements].sort().join(',');

/** Pairs of one unmatched check per side sharing `key`, when each side has exactly one with it. */
function pairUnique(bs: CheckResult[], ns: CheckResult[], keys: (r: CheckResult) => string[]): Array<[CheckResult, CheckResult]> {
  const index = (list: CheckResult[]) => {
    const m = new Map<string, CheckResult[]>();
    for (const r of list) for (const k of keys(r)) m.set(k, [...(m.get(k) ?? []), r]);
    return m;
  };
  const [bi, ni] = [index(bs), index(ns)];
  const out: Array<[CheckResult, CheckResult]> = [];
  const used = new Set<CheckResult>();
  for (const [k, nl] of ni) {
    const bl = bi.get(k);
    if (nl.length !== 1 || bl?.length !== 1 || used.has(nl[0]) || used.has(bl[0])) continue;
    used.add(nl[0]).add(bl[0]);
    out.push([bl[0], nl[0]]);
  }
  return out;
}

/**
 * BASE's and NEW's checks paired: by id; with `byRequirement`, the checks left over are paired by
 * their requirement IDs (the same set first, then one shared ID), when the pairing is unambiguous.
 * In NEW's order, the checks only BASE has after them.
 */
export function pairChecks(base: CheckResult[], now: CheckResult[], byRequirement: boolean): Array<[CheckResult | undefined, CheckResult | undefined]> {
  const byId = new Map(base.map((r) => [r.id, r]));
  const partner = new Map<CheckResult, CheckResult>();
  for (const n of now) if (byId.has(n.id)) partner.set(n, byId.get(n.id)!);
  if (byRequirement) {
    const taken = () => new Set(partner.values());
    for (const keys of [(r: CheckResult) => [reqKey(r)], (r: CheckResult) => r.requirements]) {
      const t = taken();
      for (const [b, n] of pairUnique(base.filter((r) => !t.has(r)), now.filter((r) => !partner.has(r)), keys)) partner.set(n, b);
    }
  }
  const paired = new Set(partner.values());
  return [...now.map((n): [CheckResult | undefined, CheckResult] => [partner.get(n), n]), ...base.filter((b) => !paired.has(b)).map((b): [CheckResult, undefined] => [b, undefined])];
}

const emptyCounts = (): Counts => Object.fromEntries(CHANGES.map((c) => [c, 0])) as Counts;

function side(source: string, r: RunReport): RunSide {
  return { source, harness: r.harness.version, target: r.target, profile: r.profile, seed: r.seed, startedAt: r.startedAt, exitCode: r.exitCode, checks: r.results.length, interrupted: isInterrupted(r) };
}

function checkRow(b: CheckResult | undefined, n: CheckResult | undefined, threshold: number, allowFlaky: boolean, nowVersion: string): CheckRow {
  const r = (n ?? b)!;
  const row: CheckRow = { change: classify(b, n, threshold, allowFlaky), id: r.id, requirements: r.requirements, level: r.level, base: b ? statusOf(b) : null, now: n ? statusOf(n) : null };
  if (b && n && b.id !== n.id) row.baseId = b.id;
  if (n && n.outcome !== 'pass') row.message = n.message;
  // The advice of NEW's harness version, as a URL (a report of an older harness may hold a path).
  if (n?.fix && n.outcome !== 'pass') row.fix = fixLink(n.id, nowVersion);
  return row;
}

type OwnedCell = ReturnType<typeof cellsOf>[number] & { check: string };
const cellKey = (c: OwnedCell) => JSON.stringify([c.protocol, c.route, c.feature, c.mode]);
const cellsWithCheck = (results: CheckResult[]): OwnedCell[] => results.flatMap((r) => cellsOf([r]).map((c) => ({ ...c, check: r.id })));
/** A cell that fails the run's promise: it failed, or a required feature was not offered. */
const badCell = (c: OwnedCell) => c.state === 'fail' || (c.state === 'not-offered' && c.required);

function cellChange(b: OwnedCell | undefined, n: OwnedCell | undefined): Change {
  if (!b) return 'new';
  if (!n) return 'gone';
  if (b.state === n.state) return 'unchanged';
  if (b.state === 'pass' && badCell(n)) return 'regression';
  if (badCell(b) && n.state === 'pass') return 'fixed';
  return 'changed';
}

/** The capability cells of both runs, paired by protocol, route, feature and mode. */
export function compareCells(base: CheckResult[], now: CheckResult[]): CellRow[] {
  const bs = new Map(cellsWithCheck(base).map((c) => [cellKey(c), c]));
  const ns = cellsWithCheck(now);
  const seen = new Set(ns.map(cellKey));
  const rows = [...ns.map((n): [OwnedCell | undefined, OwnedCell | undefined] => [bs.get(cellKey(n)), n]), ...[...bs].filter(([k]) => !seen.has(k)).map(([, b]): [OwnedCell, undefined] => [b, undefined])];
  return rows.map(([b, n]) => {
    const c = (n ?? b)!;
    const row: CellRow = { change: cellChange(b, n), check: c.check, protocol: c.protocol, route: c.route, feature: c.feature, mode: c.mode, base: b?.state ?? null, now: n?.state ?? null, required: n?.required ?? false };
    if (n && n.state !== 'pass' && n.evidence.length) row.evidence = n.evidence.join('; ');
    return row;
  });
}

const byChange = <T extends { change: Change }>(rows: T[]): T[] => rows.map((r, i) => ({ r, i })).sort((x, y) => CHANGES.indexOf(x.r.change) - CHANGES.indexOf(y.r.change) || x.i - y.i).map((x) => x.r);

function tally(rows: ReadonlyArray<{ change: Change }>): Counts {
  const c = emptyCounts();
  for (const r of rows) c[r.change]++;
  return c;
}

/** The comparison of two runs' reports (read and checked by the caller); `sources` name them as the user gave them. */
export function compareReports(base: RunReport, now: RunReport, sources: { base: string; new: string }, opts: CompareOptions = {}): Comparison {
  const failOn = opts.failOn ?? 'fail';
  const ignore = new Set(opts.ignore ?? []);
  const levels = new Set(opts.ignoreLevels ?? []);
  const ignored = new Set<string>();
  const keep = (r: CheckResult) => (ignore.has(r.id) || levels.has(r.level) ? (ignored.add(r.id), false) : true);
  const [bs, ns] = [base.results.filter(keep), now.results.filter(keep)];
  const crossVersion = base.harness.version !== now.harness.version;
  const threshold = failOn === 'warn' ? 2 : 3;
  const checks = byChange(pairChecks(bs, ns, crossVersion).map(([b, n]) => checkRow(b, n, threshold, now.allowFlaky === true, now.harness.version)));
  const cells = byChange(compareCells(bs, ns));
  const notes: string[] = [];
  if (crossVersion) notes.push(`different harness versions (BASE ${base.harness.version}, NEW ${now.harness.version}): checks are matched by id, then a renamed check by its requirement IDs`);
  for (const [which, r] of [['BASE', base], ['NEW', now]] as const)
    if (isInterrupted(r)) notes.push(`the ${which} run was interrupted (Ctrl-C): ${r.results.filter(isNotRun).length} of its checks did not run; they count as skipped, never as passes`);
  const counts = { checks: tally(checks), cells: tally(cells) };
  const resources = compareResources(base, now);
  const transports = compareTransports(base, now);
  const regressions = counts.checks.regression + counts.cells.regression + (resources?.regressions ?? 0);
  return {
    schemaVersion: COMPARE_SCHEMA_VERSION,
    base: side(sources.base, base),
    new: side(sources.new, now),
    matchedBy: crossVersion ? 'requirement-id' : 'check-id',
    notes,
    failOn,
    ignored: [...ignored].sort(),
    counts,
    regressions,
    checks,
    cells,
    ...(resources ? { resources } : {}),
    ...(transports ? { transports } : {}),
    exitCode: regressions > 0 ? 1 : 0,
  };
}
