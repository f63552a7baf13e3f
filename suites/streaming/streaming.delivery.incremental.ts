import { defineCheck } from '../../src/core/check.js';
import { frames, messageStream } from '../../src/upstream/replies/streams.js';
import { notStreamed, oracle, streamExchange } from './common.js';

/** Gap between scripted events: far above loopback lag, so a buffer shows as a lag of whole gaps. */
export const GAP_MS = 300;

export default defineCheck({
  id: 'streaming.delivery.incremental',
  title: 'A stream of 10 events sent 300 ms apart (1.4 KiB each) reaches the client event by event',
  requirements: ['SSE-INC-1'],
  level: 'MUST',
  area: 'streaming',
  profile: 'default',
  timing: true,
  protocol: 'messages',
  requirement: 'Each stream event reaches the client within a small bound of the moment the upstream sent it; the stream is not held until its end or until a buffer fills (spec 4 rule 4, 6.1).',
  async run(ctx) {
    // 1.4 KiB events: a 4 KiB proxy buffer releases every third event, which shows as bursts.
    const events = messageStream({ full: false, textDeltas: 7, deltaChars: 1400 });
    const x = await streamExchange(ctx, frames(events, { gapMs: GAP_MS }));
    if (x.res.status !== 200 || !x.seen) return notStreamed(x);
    const { result, evidence } = oracle(ctx, x, events.map((e) => e.event));
    return { ok: result.delivery === 'incremental', message: result.summary, expected: `every event within ${ctx.settings.sse.maxLagMs} ms of its sending`, actual: result.delivery, evidence };
  },
});
