import { defineCheck, fail, pass } from '../../src/check/check.js';
import { newHistogram, percentiles, recordMs } from '../../src/core/histogram.js';
import { loadSettings, sendMix, type Kind, type Planned, unlessLimited } from './common.js';
import type { LoadOutcome } from '../../src/load/engine.js';

/** Every tenth request is held by the upstream this long before its first event. */
const SLOW_EVERY = 10;
const HOLD_MS = 1000;
/** Requests not answered this long after the phase started count as failed. */
const DEADLINE_MS = 4000;
/**
 * A fast request is queued when it reached the upstream this long after the harness offered it:
 * half a hold. Queued behind a held request (the load-tiny-pool fault, two upstream sockets), it
 * waits for that request's hold to end, up to HOLD_MS (load-tiny-pool: 54 of 63 waited, the longest
 * 2,541 ms); a gateway that forwards at once took 5 ms at the longest on a quiet machine and 22-31 ms
 * with two CPU hogs beside it on a shared 2-core machine, a sixteenth of this bound. Judged by these events,
 * each request's own offer and arrival, not by percentiles: a clean gateway's fast p99 grew by
 * 481 ms under the hogs, which a bound on the p99 cannot tell from a queue.
 */
const QUEUED_MS = HOLD_MS / 2;
/**
 * The share of fast requests that may be queued beyond those queued without any held request (the
 * same machine, the same gateway, the phase before): one in ten. load-tiny-pool queues 54 of 90.
 */
const QUEUED_SHARE = 1 / 10;

/** How many of the fast requests reached the upstream QUEUED_MS or more after they were offered, and the longest wait. */
function queued(outcomes: LoadOutcome[], planned: Planned[], fast: (i: number) => boolean): { count: number; of: number; longestMs: number } {
  let count = 0;
  let of = 0;
  let longest = 0;
  for (const o of outcomes) {
    if (!fast(o.index)) continue;
    const hit = planned[o.index]?.expectation.hits[0];
    if (!hit || !o.sentAt) continue;
    of++;
    const wait = hit.receivedAt - o.sentAt;
    longest = Math.max(longest, wait);
    if (wait >= QUEUED_MS) count++;
  }
  return { count, of, longestMs: Math.round(longest) };
}

export default defineCheck({
  id: 'load.slow.isolation',
  title: `A slow upstream answer does not delay the others: with every ${SLOW_EVERY}th request held ${HOLD_MS} ms, at most one in ten of the fast requests waits ${QUEUED_MS} ms or more to reach the upstream (beyond those that wait so long with none held)`,
  requirements: ['LOAD-3'],
  level: 'SHOULD',
  profile: 'load',
  // Alone: it measures time, and another check's load would be in its figures.
  exclusive: true,
  requirement:
    'A slow upstream answer does not delay the others: with a share of requests held by a slow upstream (a long time to first token), the fast requests reach the upstream as soon as they would without them: none waits for a held request to end before it is forwarded (no head-of-line blocking, no exhausted connection pool).',
  fix: 'Do not bound the upstream connection pool below the concurrency you serve (a pool of a few sockets queues every request behind the slow ones), and do not serialise requests per client or per upstream. nginx: no `keepalive` cap used as a limit, no `max_conns` on the upstream server. The evidence shows how many fast requests waited to reach the upstream, alone and beside the held ones, and their percentiles.',
  run: unlessLimited(async (ctx) => {
    const s = loadSettings(ctx);
    const fastKind: Kind = { protocol: s.protocols[0], stream: false };
    const slow: Kind = { protocol: s.protocols[0], stream: true };
    const held = (i: number) => i % SLOW_EVERY === 0;
    const rate = Math.min(s.rate, 100);
    const count = Math.min(s.requests, rate);
    const alone = await sendMix(ctx, { route: 'gateway', kinds: () => fastKind, rate, count, deadlineMs: DEADLINE_MS });
    const mixed = await sendMix(ctx, { route: 'gateway', kinds: (i) => (held(i) ? slow : fastKind), rate, count, deadlineMs: DEADLINE_MS, plan: (i) => (held(i) ? { firstGapMs: HOLD_MS } : {}) });
    const fastMixed = newHistogram();
    let failed = 0;
    for (const o of mixed.result.outcomes) {
      if (held(o.index)) continue;
      if (o.error || o.status !== 200) failed++;
      else recordMs(fastMixed, o.totalMs);
    }
    const queuedAlone = queued(alone.result.outcomes, alone.planned, () => true);
    const queuedBeside = queued(mixed.result.outcomes, mixed.planned, (i) => !held(i));
    const before = percentiles(alone.result.latency);
    const beside = percentiles(fastMixed);
    const allowed = Math.floor(queuedBeside.of * QUEUED_SHARE) + queuedAlone.count;
    const evidence = { rate, requests: count, holdMs: HOLD_MS, queuedMs: QUEUED_MS, queuedAlone, queuedBesideSlow: queuedBeside, queuedAllowed: allowed, fastAlone: before, fastBesideSlow: beside, failedFast: failed };
    if (!queuedBeside.of) return { ok: true, skip: true, message: 'could not judge: no fast request beside the held ones reached the upstream, so no wait could be paired', evidence };
    if (failed || queuedBeside.count > allowed)
      return fail(`beside requests held ${HOLD_MS} ms by the upstream, ${queuedBeside.count} of ${queuedBeside.of} fast requests waited ${QUEUED_MS} ms or more to reach it (longest ${queuedBeside.longestMs} ms; ${queuedAlone.count} with none held)${failed ? `, and ${failed} failed` : ''}; their p99 went from ${before.p99} ms to ${beside.p99} ms`, {
        expected: `at most ${allowed} fast requests queued (one in ten, beyond the ${queuedAlone.count} queued with none held), none failed`,
        actual: `${queuedBeside.count} queued${failed ? `, ${failed} failed` : ''}`,
        evidence,
      });
    return pass(`${queuedBeside.count} of ${queuedBeside.of} fast requests waited ${QUEUED_MS} ms or more to reach the upstream beside requests held ${HOLD_MS} ms (longest ${queuedBeside.longestMs} ms); their p99 ${before.p99} ms alone, ${beside.p99} ms beside`, evidence);
  }),
});
