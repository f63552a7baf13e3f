// merge-reports: the JSON reports of a sharded run (or of runs meant to add up) as one
// RunReport. Runs of different harness versions, seeds, targets, profiles or declared features,
// and a sharded run with a shard missing, are refused unless forced: their verdicts do not add up
// to one run. One report given twice is refused even so.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HarnessError } from '../../core/errors.js';
import { exitCodeOf } from '../shared/policy.js';
import { SCHEMA_VERSION, summarize, type CheckResult, type RunReport } from '../shared/types.js';
import { assertValidReport } from '../shared/validate.js';
import { areLoadShards, combineShardResults, isLoadShard } from './load-merge.js';
import { loadConflicts, mergedLoad } from './load-shards.js';

/** The major and minor of a schema version ("1.6.0" -> [1, 6]), or null. */
const majorMinor = (v: unknown): [number, number] | null => (typeof v === 'string' && /^\d+\.\d+\.\d+$/.test(v) ? (v.split('.').slice(0, 2).map(Number) as [number, number]) : null);

/**
 * Reads DIR/report.json (or a .json file given directly) and checks it against the schema. With
 * `older`, a report of an earlier minor version of the same major schema (written by an earlier
 * harness: later minors only add fields) is read too, its shape checked only where a reader of
 * runs needs it (compare, matrix): results with an id, an outcome and requirement IDs.
 */
export function readReport(where: string, opts: { older?: boolean } = {}): RunReport {
  const file = reportFile(where);
  let data: RunReport;
  try {
    data = JSON.parse(readFileSync(file, 'utf8')) as RunReport;
  } catch (e) {
    throw new HarnessError('BAD_REPORT', `${file}: not a readable JSON report (${(e as NodeJS.ErrnoException).code ?? (e as Error).message.split('\n')[0]})`);
  }
  if (data?.schemaVersion !== SCHEMA_VERSION) {
    const [have, read] = [majorMinor(data?.schemaVersion), majorMinor(SCHEMA_VERSION)!];
    const earlier = opts.older && have !== null && have[0] === read[0] && have[1] < read[1];
    if (!earlier) throw new HarnessError('BAD_REPORT', `${file}: report schema ${JSON.stringify(data?.schemaVersion)}, this harness reads ${SCHEMA_VERSION}${opts.older ? ` and earlier ${read[0]}.x` : ''}`);
    const results = (data as { results?: unknown }).results;
    const ok = Array.isArray(results) && results.every((r: { id?: unknown; outcome?: unknown; requirements?: unknown }) => typeof r?.id === 'string' && typeof r.outcome === 'string' && Array.isArray(r.requirements));
    if (!ok) throw new HarnessError('BAD_REPORT', `${file}: report schema ${data.schemaVersion}: its results are not a list of checks with an id, an outcome and requirement IDs`);
    return data;
  }
  try {
    assertValidReport(data);
  } catch (e) {
    throw new HarnessError('BAD_REPORT', `${file}: ${(e as Error).message.replace(/^harness bug: /, '')}`);
  }
  return data;
}

/** The report file of a folder, or the .json file given. */
const reportFile = (where: string) => (where.endsWith('.json') ? where : join(where, 'report.json'));

/**
 * Refuses one report given twice, however it was spelt (`a`, `./a/`, `a/report.json`, a link):
 * merged with itself, its checks would be in both or its load counted twice. Not even --force.
 */
export function assertDistinct(wheres: readonly string[]): void {
  const seen = new Map<string, string>();
  for (const w of wheres) {
    const file = reportFile(w);
    const key = existsSync(file) ? realpathSync(file) : resolve(file);
    const first = seen.get(key);
    if (first !== undefined) throw new HarnessError('MERGE_REFUSED', `merge-reports: ${first === w ? `${w} is given twice` : `${first} and ${w} are the same report (${key})`}; name each report once`);
    seen.set(key, w);
  }
}

/** The shards a sharded run is missing: `shard 2/3 is missing (given: 1/3 in a, 3/3 in b)`, or nothing when each of 1..n is there. */
function missingShards(named: Array<{ name: string; report: RunReport }>): string[] {
  const shards = named.map((n) => n.report.shard);
  if (shards.some((s) => !s) || new Set(shards.map((s) => s!.count)).size > 1) return [];
  const count = shards[0]!.count;
  const have = new Set(shards.map((s) => s!.index));
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !have.has(i));
  if (!missing.length) return [];
  const given = named.map((n) => `${n.report.shard!.index}/${count} in ${n.name}`).join(', ');
  return [`${missing.length === 1 ? 'shard' : 'shards'} ${missing.map((i) => `${i}/${count}`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing (given: ${given})`];
}

/** Why the reports do not add up to one run (empty when they do). */
export function mergeConflicts(named: Array<{ name: string; report: RunReport }>): string[] {
  const out: string[] = [];
  const differ = (what: string, of: (r: RunReport) => unknown) => {
    const values = new Map<string, string[]>();
    for (const n of named) {
      const v = JSON.stringify(of(n.report));
      values.set(v, [...(values.get(v) ?? []), n.name]);
    }
    if (values.size > 1) out.push(`different ${what}: ${[...values].map(([v, names]) => `${v} in ${names.join(', ')}`).join('; ')}`);
  };
  differ('harness versions', (r) => r.harness.version);
  differ('seeds', (r) => r.seed);
  differ('targets', (r) => r.target);
  differ('profiles', (r) => r.profile);
  differ('declared features', (r) => r.declared.protocols);
  // A sharded run is whole only with every shard: one of two merged alone passes on half the checks.
  if (named.some((n) => n.report.shard)) {
    differ('shard counts', (r) => r.shard?.count ?? 'not sharded');
    out.push(...missingShards(named));
  }
  // Load shards each run every load check: their results combine (src/report/run/load-merge.ts).
  if (named.every((n) => isLoadShard(n.report))) {
    // Other builds or settings, and a shard given twice, said shard by shard.
    if (named.length > 1) out.push(...loadConflicts(named));
    return out;
  }
  const seen = new Map<string, string>();
  for (const n of named)
    for (const r of n.report.results) {
      const first = seen.get(r.id);
      if (first !== undefined && first !== n.name) out.push(`check ${r.id} is in both ${first} and ${n.name}`);
      else seen.set(r.id, n.name);
    }
  return out;
}

/**
 * One report from several. `order` (check ids) orders the results as an unsharded run would;
 * with `force`, conflicts are merged anyway (the first report's values win; a check in two
 * reports keeps its first result) and returned as notes.
 */
export function mergeReports(named: Array<{ name: string; report: RunReport }>, opts: { force?: boolean; order?: string[] } = {}): { report: RunReport; notes: string[] } {
  if (!named.length) throw new HarnessError('BAD_FLAG', 'merge-reports: no report to merge');
  const conflicts = mergeConflicts(named);
  if (conflicts.length && !opts.force) throw new HarnessError('MERGE_REFUSED', `merge-reports: refusing to merge: ${conflicts.join('; ')} (--force merges anyway)`);
  const first = named[0].report;
  const byId = new Map<string, CheckResult>();
  if (areLoadShards(named.map((n) => n.report))) {
    const shards = [...named].sort((a, b) => a.report.shard!.index - b.report.shard!.index);
    const ids = new Set(shards.flatMap((n) => n.report.results.map((r) => r.id)));
    for (const id of ids) {
      const from = shards.filter((n) => n.report.results.some((r) => r.id === id));
      byId.set(id, combineShardResults(from.map((n) => n.report.results.find((r) => r.id === id)!), from.map((n) => n.report.shard!.index)));
    }
  } else for (const n of named) for (const r of n.report.results) if (!byId.has(r.id)) byId.set(r.id, r);
  const rank = new Map((opts.order ?? []).map((id, i) => [id, i]));
  const results = [...byId.values()].sort((a, b) => (rank.get(a.id) ?? Infinity) - (rank.get(b.id) ?? Infinity) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const starts = named.map((n) => n.report.startedAt).sort();
  const ends = named.map((n) => n.report.finishedAt).sort();
  const waivers = named.map((n) => n.report.waivers).filter((w) => w !== undefined);
  const strict = named.some((n) => n.report.strict);
  const interrupted = named.some((n) => n.report.interrupted);
  const allowFlaky = named.every((n) => n.report.allowFlaky === true);
  const upstreams = new Set(named.map((n) => n.report.upstream));
  const report: RunReport = {
    schemaVersion: SCHEMA_VERSION,
    harness: first.harness,
    target: first.target,
    upstream: upstreams.size === 1 ? first.upstream : null,
    profile: first.profile,
    declared: first.declared,
    seed: first.seed,
    strict,
    allowFlaky,
    ...(first.repeat ? { repeat: first.repeat } : {}),
    ...(waivers.length
      ? {
          waivers: {
            source: [...new Set(waivers.map((w) => w.source))].join(', '),
            // A waiver applied in one shard is applied; unused only if no shard used it.
            applied: mergeWaiverLists(waivers.flatMap((w) => w.applied)),
            expired: mergeWaiverLists(waivers.flatMap((w) => w.expired)),
            unused: waivers[0].unused.filter((u) => waivers.every((w) => w.unused.some((x) => JSON.stringify(x) === JSON.stringify(u)))),
          },
        }
      : {}),
    // One shard stopped by Ctrl-C leaves the whole run without a verdict.
    ...(interrupted ? { interrupted: true } : {}),
    startedAt: starts[0],
    finishedAt: ends[ends.length - 1],
    durationMs: Math.max(0, Date.parse(ends[ends.length - 1]) - Date.parse(starts[0])),
    summary: summarize(results),
    exitCode: exitCodeOf(results, { strict, allowFlaky }, interrupted),
    results,
    unmatchedRequests: named.flatMap((n) => n.report.unmatchedRequests),
  };
  // Load shards: each one's calibration and start side by side, a shard far from the others flagged.
  const load = areLoadShards(named.map((n) => n.report)) ? mergedLoad(named) : undefined;
  if (load) report.load = load;
  assertValidReport(report);
  return { report, notes: conflicts };
}

function mergeWaiverLists<T extends { check?: string; requirement?: string; expires: string; reason: string; checks: string[] }>(list: T[]): T[] {
  const out = new Map<string, T>();
  for (const w of list) {
    const key = JSON.stringify([w.check, w.requirement, w.expires, w.reason]);
    const had = out.get(key);
    out.set(key, had ? { ...had, checks: [...new Set([...had.checks, ...w.checks])] } : w);
  }
  return [...out.values()];
}
