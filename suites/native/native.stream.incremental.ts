import { defineCheck } from '../../src/check/check.js';
import { judgeIncremental } from '../shared/incremental.js';
import { nativeStreamExchange, noStream, PIECES, pairPayloads, payloadName } from './common.js';
import { plural } from '../../src/core/words.js';

/** Gap between scripted events: far above loopback lag and the burst window, so a buffer shows as events arriving together. */
const GAP_MS = 300;

export default defineCheck({
  id: 'native.stream.incremental',
  title: 'A native stream of 4 events sent 300 ms apart reaches the client event by event',
  requirements: ['NAT-STREAM-2'],
  level: 'MUST',
  untranslatable: "the upstream's events one for one",
  timing: true,
  protocol: 'native',
  requirement:
    'The events of a native stream reach the client incrementally: the stream is not held back until its end or until a buffer fills, events sent apart are not delivered together, and no event arrives later than a coarse bound (default 1 s) after the upstream sent it.',
  fix: 'Turn response buffering off for native streams too (nginx: `proxy_buffering off;`), and write each event to the client as it arrives, as for streaming.delivery.incremental.',
  run: (ctx) =>
    // Near a bound, 12 events instead of 4. A lost or merged event is native.stream.events' finding.
    judgeIncremental(ctx, {
      unit: 'event',
      exchange: (more) => nativeStreamExchange(ctx, { pieces: more ? [...PIECES, ...PIECES, ...PIECES] : PIECES, gapMs: GAP_MS }),
      pair: (x) => pairPayloads(x.sent, x.res.events.map((e) => e.data)),
      name: payloadName,
      noStream,
      tooFew: { arrived: "as server-sent events carrying the upstream's payloads", actual: (x) => `${plural(x.res.events.length, 'event')}, content-type ${x.res.header('content-type') ?? '(none)'}` },
    }),
});
