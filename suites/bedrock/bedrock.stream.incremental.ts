import { defineCheck } from '../../src/check/check.js';
import { bedrockStream } from '../../src/protocols/bedrock/index.js';
import { judgeIncremental } from '../shared/incremental.js';
import { bedrockStreamExchange, eventName } from './common.js';

/** Gap between scripted messages: far above loopback lag and the burst window, so a buffer shows as messages arriving together. */
export const GAP_MS = 300;

export default defineCheck({
  id: 'bedrock.stream.incremental',
  title: 'A Bedrock stream of 8 messages sent 300 ms apart reaches the client message by message',
  requirements: ['BR-STREAM-2'],
  level: 'MUST',
  untranslatable: "the upstream's event-stream messages one for one",
  timing: true,
  protocol: 'bedrock',
  requirement:
    'The messages of an InvokeModelWithResponseStream answer reach the client incrementally: the stream is not held back until its end or until a buffer fills, messages sent apart are not delivered together, and none arrives later than a coarse bound (default 1 s) after the upstream sent it.',
  fix: 'Turn response buffering off for Bedrock streams too: they are `application/vnd.amazon.eventstream`, not `text/event-stream`, so a rule that streams only SSE buffers them (nginx: `proxy_buffering off;` on the `/model/` location).',
  run: (ctx) =>
    // Near a bound, 20 messages instead of 8. Timing is judged on the messages that arrived whole
    // (scripted and received paired by position where they carry the same event); their content
    // is bedrock.stream.frames's finding.
    judgeIncremental(ctx, {
      unit: 'message',
      exchange: (more) => bedrockStreamExchange(ctx, { texts: bedrockStream({ textDeltas: more ? 15 : 3 }), gapMs: GAP_MS }),
      pair: (x) => x.res.events.flatMap((e, got) => (e.frame?.ok && x.sent[got] === e.data ? [{ sent: got, got }] : [])),
      name: eventName,
    }),
});
