import { defineCheck } from '../../src/check/check.js';
import { messageStream } from '../../src/protocols/messages/index.js';
import { notStreamed, timedWithMargin } from './common.js';
import { DELIVERY_WORDS } from '../../src/core/oracle.js';

/** Gap between scripted events: far above loopback lag and the burst window, so a buffer shows as events arriving together. */
export const GAP_MS = 300;

export default defineCheck({
  id: 'streaming.delivery.incremental',
  title: 'A stream of 12 events sent 300 ms apart (text deltas of 1.4 KiB) reaches the client event by event: no buffering, no event later than the coarse bound',
  requirements: ['SSE-INC-1'],
  level: 'MUST',
  untranslatable: 'the upstream\'s events one for one',
  timing: true,
  protocol: 'messages',
  requirement:
    'Stream events reach the client incrementally: the stream is not held until its end or until a buffer fills, events sent apart are not delivered together, and no event arrives later than a coarse bound (default 1 s) after the upstream sent it. A small constant delay per event is SSE-LAT-1 (streaming.delivery.latency), not this.',
  fix: 'Turn response buffering off for streams. nginx: `proxy_buffering off;` (and `proxy_cache off;`, no gzip of `text/event-stream`); other proxies: flush each chunk as it arrives. The evidence shows the bursts and the lag of each event.',
  async run(ctx) {
    // 1.4 KiB events: a 4 KiB proxy buffer releases every third event, which shows as bursts.
    // Near a bound, 22 events instead of 12.
    const make = (more: boolean) => messageStream({ full: false, textDeltas: more ? 17 : 7, deltaChars: 1400 });
    const { decide, remeasured } = await timedWithMargin(ctx, make, GAP_MS, (t) => t.judged!.result.nearBound, (t) => t.judged!.result.summary);
    if (!decide.judged) return notStreamed(decide.x);
    const { result, evidence } = decide.judged;
    return {
      ok: result.delivery === 'incremental',
      message: result.summary + (remeasured ? ' (measured twice: the first measurement was within 25% of a bound)' : ''),
      expected: `no burst of events sent apart, every event within ${ctx.settings.sse.maxLagMs} ms of its sending`,
      actual: DELIVERY_WORDS[result.delivery],
      evidence: { ...evidence, ...(remeasured ? { remeasured } : {}) },
    };
  },
});
