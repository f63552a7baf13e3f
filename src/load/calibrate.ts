// The calibration of one load process: before its checks measure anything, the process sends the
// workload's plain requests straight to the recording upstream at the declared rate (what
// load.perf.cost measures as "direct") and times repeated short pieces of CPU work (their least
// and their spread). Each shard records its own, so merge-reports can tell a shard whose machine
// was slow or busy from a slow gateway, and says when the figures are too noisy to tell.
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
  /** Wall time (ms) of the CPU work's cheapest try (cpu.minMs): kept for readers of older reports. */
  cpuMs: number;
  /** Every try of the CPU work, summed up: a busy core raises the least try, noise raises the spread. */
  cpu?: CpuWork;
}

/** The tries of the CPU work: how many, the least, the lower quartile (how well the least repeats), the median and the most (ms). */
export interface CpuWork {
  tries: number;
  minMs: number;
  lowerQuartileMs: number;
  medianMs: number;
  maxMs: number;
}

/**
 * The CPU work: 32 MiB hashed per try, twelve tries; about 18 ms a try on an idle core of a
 * current machine (SHA-256 in hardware), several times a scheduler's time slice (a few ms), so a
 * program that keeps the core busy takes its share of every try (the least try too), while a
 * pause of another program hits some tries only.
 */
export const CPU_WORK_BYTES = 32 * 1024 * 1024;
export const CPU_WORK_TIMES = 12;

const round = (x: number) => Math.round(x * 10) / 10;

/** The summary of tries (ms): their number, least, lower quartile, median and most. */
export function summarizeTries(ms: number[]): CpuWork {
  const s = [...ms].sort((a, b) => a - b);
  const mid = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  return { tries: s.length, minMs: round(s[0]), lowerQuartileMs: round(s[Math.floor((s.length - 1) / 4)]), medianMs: round(mid), maxMs: round(s[s.length - 1]) };
}

/** The CPU work in words: the least try, and the median and most of all of them. */
export function cpuText(c: Pick<LoadCalibration, 'cpuMs' | 'cpu'>): string {
  return c.cpu ? `least ${c.cpu.minMs} ms of ${c.cpu.tries} tries (lower quartile ${c.cpu.lowerQuartileMs}, median ${c.cpu.medianMs}, most ${c.cpu.maxMs} ms)` : `${c.cpuMs} ms`;
}

/** Times CPU_WORK_TIMES tries of hashing CPU_WORK_BYTES in 1 MiB pieces. */
export function cpuWork(): CpuWork {
  const piece = Buffer.alloc(1024 * 1024, 7);
  const tries: number[] = [];
  for (let t = 0; t < CPU_WORK_TIMES; t++) {
    const t0 = performance.now();
    const h = createHash('sha256');
    for (let i = 0; i < CPU_WORK_BYTES / piece.length; i++) h.update(piece);
    h.digest();
    tries.push(performance.now() - t0);
  }
  return summarizeTries(tries);
}

/** Sends up to a second of the declared rate (at least 50 requests, at most `requests`) straight to the upstream. */
export async function calibrate(upstream: Upstream, o: { rate: number; requests: number; clients: number; signal?: AbortSignal }): Promise<LoadCalibration> {
  const cpu = cpuWork();
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
    return { rate: o.rate, requests: result.sent, achieved: Math.round(result.achievedRate), failures: result.failures, latencyMs: { p50: p.p50, p99: p.p99 }, histogram: encodeHistogram(result.latency), cpuMs: cpu.minMs, cpu };
  } finally {
    await upstream.sync?.();
    for (const e of cases) upstream.release(e.token);
  }
}
