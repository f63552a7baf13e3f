// What a load process does before its checks, and records of itself: its harness build and
// settings, its calibration (the workload straight to the recording upstream and a fixed piece of
// CPU work, src/load/calibrate.ts), and with --start-together its wait at the mock's start barrier
// for the other shards. merge-reports compares these across shards (src/report/run/load-shards.ts).
import { createHash } from 'node:crypto';
import type { LoadSettings } from '../check/check.js';
import { buildId } from '../core/build.js';
import { calibrate, cpuText } from '../load/calibrate.js';
import type { LoadRunInfo } from '../report/shared/types.js';
import type { BarrierRequest } from '../upstream/attach-wire.js';
import type { Upstream } from '../upstream/upstream.js';

/** An upstream that holds a start barrier (a run attached to a `gw-conformance mock`). */
type WithBarrier = Upstream & { startTogether(r: BarrierRequest): Promise<{ waitedMs: number; registered: number; startAtWall: number }> };
const hasBarrier = (u: Upstream): u is WithBarrier => typeof (u as Partial<WithBarrier>).startTogether === 'function';

/** The settings that make shards comparable: those of the load itself. */
export function settingsOf(load: LoadSettings, profile: string, seed: number): LoadRunInfo['settings'] & { profile: string; seed: number } {
  return { rate: load.rate, requests: load.requests, durationS: load.durationS, clients: load.clients, protocols: [...load.protocols], ...(load.frontier ? { frontier: true } : {}), profile, seed };
}

/** What shards of one run must share at the barrier: the build and the settings, as one short key. */
export function barrierKey(build: string, settings: object): string {
  return `${build}/${createHash('sha256').update(JSON.stringify(settings)).digest('hex').slice(0, 12)}`;
}

/** Calibrates, then (with --start-together) waits for the other shards; returns what the report records. */
export async function beforeLoad(upstream: Upstream, load: LoadSettings, o: { profile: string; seed: number; shard: { index: number; count: number } | null; signal?: AbortSignal; print?: (s: string) => void }): Promise<LoadRunInfo> {
  const build = buildId();
  const { profile: _p, seed: _s, ...settings } = settingsOf(load, o.profile, o.seed);
  const calibration = await calibrate(upstream, { rate: load.rate, requests: load.requests, clients: load.clients, signal: o.signal });
  o.print?.(`calibration: straight to the recording upstream at ${calibration.rate}/s, p50 ${calibration.latencyMs.p50} ms, p99 ${calibration.latencyMs.p99} ms (${calibration.achieved}/s); CPU work ${cpuText(calibration)}`);
  const info: LoadRunInfo = { build, settings, calibration };
  if (load.startTogetherS > 0 && o.shard) {
    if (!hasBarrier(upstream)) throw new Error('harness bug: --start-together without an attached upstream passed the configuration');
    const key = barrierKey(build, settingsOf(load, o.profile, o.seed));
    o.print?.(`start together: shard ${o.shard.index}/${o.shard.count} waits up to ${load.startTogetherS} s for the others at the mock`);
    const met = await upstream.startTogether({ index: o.shard.index, count: o.shard.count, key, timeoutMs: load.startTogetherS * 1000 });
    info.start = { registered: met.registered, expected: o.shard.count, waitedMs: met.waitedMs, startAt: new Date(met.startAtWall).toISOString() };
  }
  return info;
}

/** The report's load part once the checks ran: the first load request's moment added. */
export function afterLoad(info: LoadRunInfo, load: LoadSettings): LoadRunInfo {
  const at = load.firstSend.at;
  return at === null ? info : { ...info, firstRequestAt: new Date(at).toISOString() };
}
