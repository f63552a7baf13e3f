import { defineCheck } from '../../src/check/check.js';
import { plural } from '../../src/core/words.js';
import { judgeIncremental } from '../shared/incremental.js';
import { pairInOrder } from '../shared/pairing.js';
import { CHUNKS, eventName, streamTask } from './common.js';

export default defineCheck({
  id: 'a2a.stream.incremental',
  title: 'A task streamed by message/stream (8 events sent 300 ms apart) reaches the client event by event',
  requirements: ['AGENT-STREAM-1'],
  level: 'MUST',
  timing: true,
  protocol: 'a2a',
  undeclared: 'info',
  requirement:
    "The event stream answering an A2A message/stream (the task's events: submitted, working, its artifact's chunks, the final status) reaches the client incrementally: not held until the task ends or a buffer fills, events sent apart not delivered together, none later than a coarse bound (default 1 s) after the agent sent it.",
  fix: 'Turn response buffering off for the A2A endpoint (nginx: `proxy_buffering off;` in its location), as for streaming.delivery.incremental; a client shows a task\'s progress and artifact by these events.',
  // Near a bound, 13 artifact chunks instead of 5. A lost or changed event is a2a.stream.whole's finding.
  run: (ctx) =>
    judgeIncremental(ctx, {
      unit: 'event',
      exchange: (more) => streamTask(ctx, more ? [...CHUNKS, ...CHUNKS, ...CHUNKS.slice(0, 3)] : CHUNKS),
      pair: (x) => pairInOrder(x.sent, x.res.events.map((e) => e.data)),
      name: eventName,
      tooFew: { actual: (x) => plural(x.res.events.length, 'event') },
    }),
});
