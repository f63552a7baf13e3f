import { defineCheck } from '../../src/check/check.js';
import { messageStream } from '../../src/protocols/messages/index.js';
import { judgeIncremental } from '../shared/incremental.js';
import { dataOf, pairEvents, vertexStream } from './common.js';

/** Gap between scripted events: far above loopback lag and the burst window, so a buffer shows as events arriving together. */
export const GAP_MS = 300;

export default defineCheck({
  id: 'vertex.stream.incremental',
  title: 'A streamRawPredict answer of 12 events sent 300 ms apart (text deltas of 1.4 KiB) reaches the client event by event',
  requirements: ['VTX-SSE-1'],
  level: 'MUST',
  untranslatable: "the upstream's events one for one",
  timing: true,
  protocol: 'vertex',
  requirement:
    'The events of a streamRawPredict answer reach the client incrementally: the stream is not held until its end or until a buffer fills, events sent apart are not delivered together, and no event arrives later than a coarse bound (default 1 s) after the upstream sent it.',
  fix: 'Turn response buffering off for `:streamRawPredict` (nginx: `proxy_buffering off;` in the location that serves it), as for streaming.delivery.incremental.',
  run: (ctx) =>
    // Near a bound, 22 events instead of 12. A lost one is vertex.stream.complete's finding.
    judgeIncremental(ctx, {
      unit: 'event',
      // 1.4 KiB events: a 4 KiB proxy buffer releases every third event, which shows as bursts.
      exchange: (more) => vertexStream(ctx, messageStream({ full: false, textDeltas: more ? 17 : 7, deltaChars: 1400 }), { gapMs: GAP_MS }),
      pair: (x) => pairEvents(x.sent.map(dataOf), x.res.events.map((e) => e.data)),
      name: (sent) => /^event: (.*)$/m.exec(sent)?.[1] ?? 'event',
    }),
});
