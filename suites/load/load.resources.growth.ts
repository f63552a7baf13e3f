// LOAD-RES-1: a gateway's memory does not grow with the requests it has served. Rounds of
// requests with a large body go through the gateway the harness launched; its memory (the process
// group's or the container's, src/launch/resources.ts) is read after each. The first round is the
// warm-up (pools, caches, the heap's first growth); over the rounds after it the memory's slope
// per request is judged against the body's size.
import { defineCheck } from '../../src/check/check.js';
import { mb, type ResourceSample } from '../../src/core/resources.js';
import { unlessLimited, loadSettings, sendMix, type Kind } from './common.js';

/** The prompt's padding: each request's body is a little over this. */
export const PAD_CHARS = 128 * 1024;
/** A warm-up round, then the measured ones. */
const ROUNDS = 5;
/** Requests per round at most (the run's --load-requests caps it). */
const PER_ROUND = 250;
/**
 * A gateway that keeps each body keeps at least its bytes, so its memory grows by at least
 * PAD_CHARS (128 KiB) per request; half of that (64 KiB) is the bound. The clean reference
 * gateway's slope over the same rounds measured 12 KiB per request (its heap catching up with the
 * garbage), the body-keeping fault's 116 KiB (docs/performance.md).
 */
export const GROWTH_SHARE = 0.5;

const json: Kind = { protocol: 'messages', stream: false };

/** Least-squares slope of memory (bytes) over requests sent, and the points it came from. */
export function slopePerRequest(points: Array<{ sent: number; rss: number }>): number {
  const n = points.length;
  const mx = points.reduce((t, p) => t + p.sent, 0) / n;
  const my = points.reduce((t, p) => t + p.rss, 0) / n;
  const sxx = points.reduce((t, p) => t + (p.sent - mx) ** 2, 0);
  return sxx === 0 ? 0 : points.reduce((t, p) => t + (p.sent - mx) * (p.rss - my), 0) / sxx;
}

export default defineCheck({
  id: 'load.resources.growth',
  title: "The gateway's memory does not grow with the requests it serves (rounds of large bodies; the harness reads the memory of the gateway it launched)",
  requirements: ['LOAD-RES-1'],
  level: 'SHOULD',
  profile: 'load',
  // Alone: another check's load would be in its readings.
  exclusive: true,
  timeLimitMs: (s) => (ROUNDS * Math.ceil(PER_ROUND / Math.max(1, s.load?.rate ?? 200)) * 4 + 30) * 1000,
  requirement:
    "A gateway's memory stays bounded as it serves requests: after a warm-up, rounds of requests with large bodies do not make its memory grow by a share of what they carried. Judged when the harness launches the gateway (--gateway-cmd, --gateway-image) and can read its memory.",
  fix: 'Find what keeps each request: a log or audit buffer never emptied, a cache without a bound or an expiry, a map of requests whose entries are never removed, a body kept for a retry after its answer. The evidence has the memory after each round and its slope per request.',
  run: unlessLimited(async (ctx) => {
    const probe = ctx.gateway.resources;
    if (!probe) return { ok: true, skip: true, message: 'the harness did not launch the gateway (--gateway-cmd or --gateway-image), so it cannot read its memory: this check could not judge' };
    const s = loadSettings(ctx);
    const n = Math.max(1, Math.min(s.requests, PER_ROUND));
    const readings: Array<{ sent: number; rss: number; failures: number }> = [];
    let sent = 0;
    const before: ResourceSample | null = await probe.sample();
    for (let round = 0; round < ROUNDS; round++) {
      const r = (await sendMix(ctx, { route: 'gateway', kinds: () => json, rate: s.rate, count: n, keepBytes: 0, plan: () => ({ padChars: PAD_CHARS }) })).result;
      sent += r.sent;
      const after = await probe.sample();
      if (!after) return { ok: true, skip: true, message: `the gateway's processes could not be read after round ${round + 1} (${probe.source}): this check could not judge` };
      readings.push({ sent, rss: after.rssBytes, failures: r.failures });
    }
    const failures = readings.reduce((t, x) => t + x.failures, 0);
    // From the end of the warm-up on: its own growth (before it to after it) is not in the slope.
    const slope = slopePerRequest(readings.map(({ sent, rss }) => ({ sent, rss })));
    const bound = PAD_CHARS * GROWTH_SHARE;
    const evidence = { source: probe.source, bodyBytes: PAD_CHARS, perRound: n, idleBytes: before?.rssBytes ?? null, readings, slopeBytesPerRequest: Math.round(slope), boundBytesPerRequest: bound, growthPer10kBytes: Math.round(slope * 10_000) };
    const figures = `memory ${mb(before?.rssBytes)} before, ${readings.map((x) => mb(x.rss)).join(', ')} after each of ${ROUNDS} rounds of ${n} requests of ${Math.round(PAD_CHARS / 1024)} KiB (the first a warm-up): ${Math.round(slope / 1024)} KiB per request over the rounds after it, ${mb(slope * 10_000)} per 10,000 requests (${probe.source})`;
    if (failures > readings.length * n * 0.5) return { ok: true, skip: true, message: `${failures} of ${sent} requests failed: the gateway did not serve these bodies, so its memory for them could not be judged; ${figures}`, evidence };
    if (slope >= bound) return { ok: false, message: `the gateway's memory grows with the requests it serves: ${figures}`, expected: `under ${Math.round(bound / 1024)} KiB per request (half of each body)`, actual: `${Math.round(slope / 1024)} KiB per request`, evidence };
    return { ok: true, message: figures, evidence };
  }),
});
