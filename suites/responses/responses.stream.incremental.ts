// RESP-SSE-2: a Responses API stream reaches the client event by event, as the upstream sends it
// (the stream timing oracle, src/core/oracle.ts).
import { defineCheck } from '../../src/check/check.js';
import { eventName, pairEvents, responsesStreamExchange, unnumbered } from './common.js';
import { judgeIncremental } from '../shared/incremental.js';

/** Gap between scripted events: far above loopback lag and the burst window, so a buffer shows as events arriving together. */
export const GAP_MS = 300;
const PIECES = ['Hel', 'lo', ', wor', 'ld é😀', ' done.'];

export default defineCheck({
  id: 'responses.stream.incremental',
  title: 'A streamed response whose events are sent 300 ms apart reaches the client event by event',
  requirements: ['RESP-SSE-2'],
  level: 'MUST',
  untranslatable: 'the upstream\'s events one for one',
  timing: true,
  protocol: 'responses',
  requirement:
    'Responses API events reach the client incrementally: the stream is not held back until response.completed or until a buffer fills, events sent apart are not delivered together, and no event arrives later than a coarse bound (default 1 s) after the upstream sent it.',
  fix: 'Stream Responses API events as they arrive: no response buffering on `text/event-stream` (in nginx, `proxy_buffering off;` or the upstream\'s `X-Accel-Buffering: no`), no compression of the stream, no collecting until `response.completed`.',
  run: (ctx) =>
    // A lost or renumbered event is responses.stream.events' finding.
    judgeIncremental(ctx, {
      unit: 'event',
      exchange: (more) => responsesStreamExchange(ctx, { pieces: more ? [...PIECES, ...PIECES] : PIECES }, GAP_MS),
      pair: (x) => pairEvents(x.sent.map(unnumbered), x.res.events.map((e) => unnumbered(e.data))),
      name: eventName,
    }),
});
