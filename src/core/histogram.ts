// Latency histograms of the load profile: HDR histograms (hdr-histogram-js) in microseconds,
// which merge exactly, so shard reports of several load processes combine into the same
// percentiles one process would have measured. Encoded as compressed base64 in reports.
// The library is loaded when the first histogram is made or read, not with this module: every
// run loads the load profile's checks and reporters, and loading it cost a process 16 MB of
// resident memory (it carries a WebAssembly build) that a run without load checks never uses.
import { createRequire } from 'node:module';
import type * as Hdr from 'hdr-histogram-js';
import { plural } from './words.js';

let lib: typeof Hdr | undefined;
const hdrLib = (): typeof Hdr => (lib ??= createRequire(import.meta.url)('hdr-histogram-js') as typeof Hdr);

/** Largest latency a histogram holds: 10 minutes, in microseconds; larger values are clamped. */
const HIGHEST_US = 600_000_000;

export type LatencyHistogram = Hdr.Histogram;

/** The most seconds a load phase's per-second counts hold: 10 minutes, as the histograms (later ends count in the last). */
export const PER_SECOND_MAX = 600;

export function newHistogram(): LatencyHistogram {
  return hdrLib().build({ bitBucketSize: 32, lowestDiscernibleValue: 1, highestTrackableValue: HIGHEST_US, numberOfSignificantValueDigits: 3, useWebAssembly: false });
}

/** Records a latency given in milliseconds (performance.now() differences). */
export function recordMs(h: LatencyHistogram, ms: number): void {
  h.recordValue(Math.min(HIGHEST_US, Math.max(1, Math.round(ms * 1000))));
}

export function encodeHistogram(h: LatencyHistogram): string {
  return hdrLib().encodeIntoCompressedBase64(h);
}

export function decodeHistogram(text: string): LatencyHistogram {
  const out = newHistogram();
  out.add(hdrLib().decodeFromCompressedBase64(text, 32, false));
  return out;
}

/** The exact sum of encoded histograms (counts added bucket by bucket, never averaged). */
export function mergeEncoded(texts: string[]): string {
  const out = newHistogram();
  for (const t of texts) out.add(hdrLib().decodeFromCompressedBase64(t, 32, false));
  return encodeHistogram(out);
}

/** The percentiles a load report shows, in milliseconds (three decimals). */
export interface Percentiles {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  p999: number;
  max: number;
}

export function percentiles(h: LatencyHistogram): Percentiles {
  const ms = (us: number) => Math.round(us) / 1000;
  return {
    count: h.totalCount,
    p50: ms(h.getValueAtPercentile(50)),
    p95: ms(h.getValueAtPercentile(95)),
    p99: ms(h.getValueAtPercentile(99)),
    p999: ms(h.getValueAtPercentile(99.9)),
    // The bucket's value, as after a merge (the exact maximum does not survive encoding).
    max: ms(h.getValueAtPercentile(100)),
  };
}

/** What a route adds: `through` minus `direct`, per percentile, in ms to the microsecond (load.perf.cost, and merged load shards). */
export function addedLatency(through: Percentiles, direct: Percentiles): Pick<Percentiles, 'p50' | 'p95' | 'p99' | 'p999'> {
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  return { p50: r3(through.p50 - direct.p50), p95: r3(through.p95 - direct.p95), p99: r3(through.p99 - direct.p99), p999: r3(through.p999 - direct.p999) };
}

/**
 * What to say of added-latency figures below zero (named in `figures`), or null when none is: the
 * straight run was the slower one, which no gateway causes, so figures of that size are noise.
 */
export function belowZeroNote(figures: Record<string, number>): string | null {
  const names = Object.entries(figures)
    .filter(([, v]) => v < 0)
    .map(([k]) => k);
  return names.length ? `${names.join(', ')} below zero: the straight run was the slower one here, which no gateway causes; differences of that size are this machine's noise` : null;
}

export function percentilesText(p: Percentiles): string {
  return `p50 ${p.p50} ms, p95 ${p.p95} ms, p99 ${p.p99} ms, p99.9 ${p.p999} ms (${plural(p.count, 'request')})`;
}
