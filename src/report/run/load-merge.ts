// merge-reports for load shards (several load processes, `--profile load --shard i/n`): each
// shard ran every load check, so one check's results are combined into one. Histograms in the
// evidence are merged exactly (bucket by bucket, src/core/histogram.ts), the percentiles shown
// beside them are recomputed from the merged histograms, request counts and rates are summed,
// per-second throughput and failures are summed second by second, and the verdict is the worst of the shards'.
import { addedLatency, decodeHistogram, mergeEncoded, percentiles, percentilesText } from '../../core/histogram.js';
import type { Outcome } from '../../core/outcome.js';
import { factsOfNamed } from '../../core/features.js';
import type { CheckResult, RunReport } from '../shared/types.js';

/** Worse outcomes rank higher: a fail in any shard fails the merged check. */
const RANK: Record<Outcome, number> = { skip: 0, pass: 1, waived: 2, info: 3, warn: 4, flaky: 5, fail: 6, timeout: 7, error: 8 };
/** Evidence counts that add up across shards (requests sent, answers not their own; the rate offered and the clients, since the shards run at once). */
const SUMMED = ['requests', 'rate', 'clients', 'misattributed'];
/** Per-second series ({ direct, through }: answers, failures) that add up second by second. */
const PER_SECOND = ['throughput', 'failuresPerSecond'];
/** Added latencies recomputed from the merged histograms: [evidence key, through, direct]. */
const ADDED: Array<[string, string, string]> = [
  ['addedMs', 'through', 'direct'],
  ['addedTtfbMs', 'throughTtfb', 'directTtfb'],
];

/** A report of one of n load processes: its profile's shards are load processes (src/core/features.ts), and it was run as one. */
export const isLoadShard = (r: RunReport): boolean => factsOfNamed(r.profile)?.shards === 'load' && r.shard?.balancedBy === 'load';

/** True when every report is one load shard of the same count, each index once: their checks combine. */
export function areLoadShards(reports: RunReport[]): boolean {
  if (reports.length < 2 || !reports.every(isLoadShard)) return false;
  return new Set(reports.map((r) => r.shard!.count)).size === 1 && new Set(reports.map((r) => r.shard!.index)).size === reports.length;
}

/** One check's results from several load shards (in shard order) as one result. */
export function combineShardResults(results: CheckResult[], shards: number[]): CheckResult {
  if (results.length === 1) return results[0];
  const worst = results.reduce((a, b) => (RANK[b.outcome] > RANK[a.outcome] ? b : a));
  const evidence = mergeEvidence(results.map((r) => r.evidence));
  // What does not add up (a shard's step-up, its first wrong answers) stays with its shard.
  const own = (e: Record<string, unknown>) => Object.fromEntries(Object.entries(e).filter(([k]) => !(k in evidence)));
  const hist = evidence.histograms as Record<string, string> | undefined;
  const figures = hist ? Object.entries(hist).map(([k, v]) => `${k}: ${percentilesText(percentiles(decodeHistogram(v)))}`).join('; ') : '';
  const which = results.map((r, i) => `shard ${shards[i]} ${r.outcome}`).join(', ');
  // The merged figures when there are histograms; else (and for a problem) one shard's own words, named as such.
  const lead = RANK[worst.outcome] <= RANK.pass && figures ? figures : `shard ${shards[results.indexOf(worst)]}: ${worst.message}`;
  return {
    ...worst,
    message: `${results.length} load shards merged (${which}): ${lead}`,
    evidence: { ...evidence, shards: results.map((r, i) => ({ shard: shards[i], outcome: r.outcome, message: r.message, evidence: own(r.evidence) })) },
    durationMs: Math.max(...results.map((r) => r.durationMs)),
  };
}

/** What the shards' evidence adds up to: histograms merged, figures recomputed from them, counts summed. */
export function mergeEvidence(list: Array<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of SUMMED) if (list.every((e) => typeof e[k] === 'number')) out[k] = list.reduce((t, e) => t + (e[k] as number), 0);
  // A failure rate of the shards' requests together (each shard's rate weighed by its requests).
  if (list.every((e) => typeof e.failureRate === 'number' && typeof e.requests === 'number') && (out.requests as number) > 0)
    out.failureRate = Math.round((list.reduce((t, e) => t + (e.failureRate as number) * (e.requests as number), 0) / (out.requests as number)) * 1000) / 1000;
  const hists = list.map((e) => e.histograms).filter(isStringRecord);
  if (hists.length === list.length) {
    const merged: Record<string, string> = {};
    for (const key of Object.keys(hists[0])) if (hists.every((h) => typeof h[key] === 'string')) merged[key] = mergeEncoded(hists.map((h) => h[key]));
    out.histograms = merged;
    const p = Object.fromEntries(Object.entries(merged).map(([k, v]) => [k, percentiles(decodeHistogram(v))]));
    // A percentile summary beside a histogram of the same name shows the merged one.
    for (const k of Object.keys(p)) if (list.every((e) => isPercentiles(e[k]))) out[k] = p[k];
    for (const [key, through, direct] of ADDED) if (p[through] && p[direct] && list.every((e) => key in e)) out[key] = addedLatency(p[through], p[direct]);
  }
  for (const key of PER_SECOND) {
    const tp = list.map((e) => e[key]).filter(isSeriesRecord);
    if (tp.length === list.length) out[key] = Object.fromEntries(Object.keys(tp[0]).filter((k) => tp.every((t) => Array.isArray(t[k]))).map((k) => [k, sumSeries(tp.map((t) => t[k]))]));
  }
  return out;
}

/** Per-second counts summed second by second (a shorter series counts 0 after its end). */
export function sumSeries(series: number[][]): number[] {
  const n = Math.max(0, ...series.map((s) => s.length));
  return Array.from({ length: n }, (_, i) => series.reduce((t, s) => t + (s[i] ?? 0), 0));
}

function isStringRecord(v: unknown): v is Record<string, string> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
}

function isSeriesRecord(v: unknown): v is Record<string, number[]> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => Array.isArray(x) && x.every((n) => typeof n === 'number'));
}

function isPercentiles(v: unknown): boolean {
  return typeof v === 'object' && v !== null && 'count' in v && 'p50' in v && 'p99' in v;
}
