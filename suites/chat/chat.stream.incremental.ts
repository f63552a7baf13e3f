import { defineCheck } from '../../src/check/check.js';
import { chatStreamExchange, chunkName, pairEvents } from './common.js';
import { judgeIncremental } from '../shared/incremental.js';
import { plural } from '../../src/core/words.js';

/** Gap between scripted chunks: far above loopback lag and the burst window, so a buffer shows as chunks arriving together. */
export const GAP_MS = 300;
const PIECES = ['Hel', 'lo', ', wor', 'ld é😀', ' done.'];

export default defineCheck({
  id: 'chat.stream.incremental',
  title: 'A streamed completion of 9 chunks sent 300 ms apart reaches the client chunk by chunk',
  requirements: ['CHAT-SSE-1'],
  level: 'MUST',
  untranslatable: 'the upstream\'s chunks one for one',
  timing: true,
  protocol: 'chat',
  requirement:
    'Chat-completions chunks reach the client incrementally: the stream is not held back until its end or until a buffer fills, chunks sent apart are not delivered together, and no chunk arrives later than a coarse bound (default 1 s) after the upstream sent it.',
  fix: 'Turn response buffering off for streams (nginx: `proxy_buffering off;`), as for streaming.delivery.incremental.',
  run: (ctx) =>
    // Near a bound, 19 chunks instead of 9. A lost chunk is chat.stream.complete's finding.
    judgeIncremental(ctx, {
      unit: 'chunk',
      exchange: (more) => chatStreamExchange(ctx, { pieces: more ? [...PIECES, ...PIECES, ...PIECES] : PIECES, gapMs: GAP_MS }),
      pair: (x) => pairEvents(x.sent, x.res.events.map((e) => e.data)),
      name: chunkName,
      tooFew: { actual: (x) => `${plural(x.res.events.length, 'event')}` },
    }),
});
