// The calibration of one load process: before its checks measure anything, the process sends the
// workload's plain requests straight to the recording upstream at the declared rate (what
// load.perf.cost measures as "direct") and times a fixed piece of CPU work. Each shard records its
// own, so merge-reports can tell a shard whose machine was slow or busy from a slow gateway.
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { encodeHistogram, percentiles } from '../core/histogram.js';
import { DEFAULT_MODEL, jsonReply, minimalRequest, RECORDS } from '../protocols/index.js';
import type { Upstream } from '../upstream/upstream.js';
import { runLoad } from './engine.js';

export interface LoadCalibration {
  /** The requests sent straight to the recording upstream, and at what rate. */
  rate: number;
  requests: number;
  achieved: number;
  failures: number;
  latencyMs: { p50: number; p99: number };
  histogram: string;
  /** Wall time of a fixed piece of CPU work (SHA-256 of CPU_WORK_BYTES, the least of CPU_WORK_TIMES tries): a slow or busy core shows here. */
  cpuMs: number;
}

/** The CPU work: 8 MiB hashed, five times; about 15 ms each on an idle core of a current machine. */
export const CPU_WORK_BYTES = 8 * 1024 * 1024;
export const CPU_WORK_TIMES = 5;

/**
 * Wall time (ms) of hashing CPU_WORK_BYTES in 1 MiB pieces, the least of CPU_WORK_TIMES tries:
 * a pause that hits one try (another program's moment on the core) is not the machine's speed,
 * while a program that keeps the core busy slows every try.
 */
export function cpuWorkMs(): number {
  const piece = Buffer.alloc(1024 * 1024, 7);
  let best = Infinity;
  for (let t = 0; t < CPU_WORK_TIMES; t++) {
    const t0 = performance.now();
    const h = createHash('sha256');
    for (let i = 0; i < CPU_WORK_BYTES / piece.length; i++) h.update(piece);
    h.digest();
    best = Math.min(best, performance.now() - t0);
  }
  return Math.round(best * 10) / 10;
}

/** Sends up to a second of the declared rate (at least 50 requests, at most `requests`) straight to the upstream. */
export async function calibrate(upstream: Upstream, o: { rate: number; requests: number; clients: number; signal?: AbortSignal }): Promise<LoadCalibration> {
  const cpuMs = cpuWorkMs();
  const count = Math.max(1, Math.min(o.requests, Math.max(50, o.rate)));
  const r = RECORDS.messages.replies;
  const cases = Array.from({ length: count }, () => upstream.expect(() => jsonReply(r, r.answer({ model: DEFAULT_MODEL.messages, text: 'calibration', toolCalls: [], stop: 'end', usage: { input: 5, output: 1 } }))));
  const requests = cases.map((e) => minimalRequest('messages', { text: `${e.token} calibration`, stream: false, maxTokens: 16 }));
  await upstream.sync?.();
  try {
    const result = await runLoad({
      origin: upstream.url,
      rate: o.rate,
      requests: count,
      durationMs: Math.ceil((count * 1000) / o.rate) + 1,
      clients: o.clients,
      signal: o.signal,
      make: (i) => ({ path: requests[i].path, method: requests[i].method, headers: requests[i].headers.flat(), body: requests[i].body }),
    });
    const p = percentiles(result.latency);
    return { rate: o.rate, requests: result.sent, achieved: Math.round(result.achievedRate), failures: result.failures, latencyMs: { p50: p.p50, p99: p.p99 }, histogram: encodeHistogram(result.latency), cpuMs };
  } finally {
    await upstream.sync?.();
    for (const e of cases) upstream.release(e.token);
  }
}
