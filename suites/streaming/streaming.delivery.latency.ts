import { defineCheck } from '../../src/check/check.js';
import { judgeLatency } from '../../src/core/oracle.js';
import { messageStream } from '../../src/protocols/messages/index.js';
import { notStreamed, timedWithMargin, type TimedStream } from './common.js';

/** Gap between scripted events: above the burst window, so buffering is told from latency. */
export const GAP_MS = 100;

export default defineCheck({
  id: 'streaming.delivery.latency',
  title: 'A stream of 20 small events sent 100 ms apart: the median lag the gateway adds per event is small, and its likely cause is named',
  requirements: ['SSE-LAT-1'],
  level: 'SHOULD',
  untranslatable: 'the upstream\'s events one for one',
  timing: true,
  protocol: 'messages',
  requirement:
    'The gateway adds little latency per stream event: the median lag (arrival at the client minus sending by the upstream) stays within the bound (default 50 ms); a constant offset of about 200 ms or 40 ms is TCP coalescing (MSG_MORE/TCP_CORK, Nagle with delayed ACK) and is named as such.',
  fix: 'Remove per-event delay: a constant offset of about 40 or 200 ms is TCP coalescing (set `TCP_NODELAY`, do not cork or use `MSG_MORE` on stream writes); a larger one is pacing or processing per event; bursts are buffering (see streaming.delivery.incremental).',
  async run(ctx) {
    // Near the bound, 60 events instead of 20.
    const make = (more: boolean) => messageStream({ full: false, textDeltas: more ? 55 : 15, deltaChars: 40 });
    const latency = (t: TimedStream) => judgeLatency(t.judged!.result.lags, t.judged!.result.bursts, ctx.settings.sse);
    const { decide, remeasured } = await timedWithMargin(
      ctx,
      make,
      GAP_MS,
      (t) => {
        const l = latency(t);
        return l.nearBound && !l.unpaired ? [`median lag ${l.p50Ms} ms (bound ${ctx.settings.sse.latP50Ms} ms)`] : [];
      },
      (t) => latency(t).summary,
    );
    if (!decide.judged) return notStreamed(decide.x);
    const l = latency(decide);
    const { result, evidence } = decide.judged;
    if (l.unpaired) return { ok: true, skip: true, message: l.summary, evidence: { latency: { p10Ms: l.p10Ms, p50Ms: l.p50Ms, unpaired: l.unpaired, events: l.events, delivery: result.delivery }, ...evidence } };
    return {
      ok: l.ok,
      message: l.summary + (evidence.pairedByContent ? ` (${String(evidence.pairedByContent)})` : '') + (remeasured ? ' (measured twice: the first median was within 25% of the bound)' : ''),
      expected: `median lag per event within ${ctx.settings.sse.latP50Ms} ms`,
      actual: `median ${l.p50Ms} ms${l.cause ? `: ${l.cause}` : ''}`,
      evidence: {
        latency: { p10Ms: l.p10Ms, p50Ms: l.p50Ms, p90Ms: l.p90Ms, maxMs: l.maxMs, events: l.events, cause: l.cause, delivery: result.delivery },
        ...evidence,
        ...(remeasured ? { remeasured } : {}),
      },
    };
  },
});
