// --shard i/n: a stable slice of the selected checks. Without durations a check's slice is fixed
// by a hash of its id (the same check lands in the same slice whatever else is selected); with
// the durations of an earlier run the slices are balanced: longest first, each to the slice with
// the least time so far.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { HarnessError } from '../core/errors.js';

/** 0-based slice of an id among `count`, from the first 32 bits of its SHA-256. */
export function hashSlice(id: string, count: number): number {
  return createHash('sha256').update(id).digest().readUInt32BE(0) % count;
}

/** The ids in slice `index` (1-based) of `count`; `durations` (ms by id) balances the slices. */
export function shardIds(ids: string[], index: number, count: number, durations?: Record<string, number>): Set<string> {
  if (!durations) return new Set(ids.filter((id) => hashSlice(id, count) === index - 1));
  const known = Object.values(durations).filter((d) => Number.isFinite(d)).sort((a, b) => a - b);
  // A check the earlier run did not have weighs the median.
  const fallback = known.length ? known[Math.floor(known.length / 2)] : 1;
  const weight = (id: string) => durations[id] ?? fallback;
  const order = [...ids].sort((a, b) => weight(b) - weight(a) || (a < b ? -1 : a > b ? 1 : 0));
  const load = Array.from({ length: count }, () => 0);
  const mine = new Set<string>();
  for (const id of order) {
    let s = 0;
    for (let k = 1; k < count; k++) if (load[k] < load[s]) s = k;
    load[s] += weight(id);
    if (s === index - 1) mine.add(id);
  }
  return mine;
}

/** Check durations (ms by id) from an earlier JSON report. */
export function durationsFrom(path: string): Record<string, number> {
  let data: { results?: Array<{ id?: unknown; durationMs?: unknown }> };
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new HarnessError('BAD_FLAG', `--shard-durations: ${path} is not a readable JSON report (${(e as NodeJS.ErrnoException).code ?? (e as Error).message.split('\n')[0]})`);
  }
  if (!Array.isArray(data?.results)) throw new HarnessError('BAD_FLAG', `--shard-durations: ${path} has no "results" list (expected a report.json of an earlier run)`);
  const out: Record<string, number> = {};
  for (const r of data.results) if (typeof r.id === 'string' && typeof r.durationMs === 'number') out[r.id] = r.durationMs;
  return out;
}
