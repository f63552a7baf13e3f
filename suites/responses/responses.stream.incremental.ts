// RESP-SSE-2: a Responses API stream reaches the client event by event, as the upstream sends it
// (the stream timing oracle, src/core/oracle.ts).
import { defineCheck, fail } from '../../src/check/check.js';
import { judgeDelivery, oracleEvidence, withMargin, type OracleResult } from '../../src/core/oracle.js';
import { eventName, noStream, pairEvents, responsesStreamExchange, unnumbered, type ResponsesStreamExchange } from './common.js';
import { streamEvidenceOf } from '../shared/exchange.js';

/** Gap between scripted events: far above loopback lag and the burst window, so a buffer shows as events arriving together. */
export const GAP_MS = 300;
const PIECES = ['Hel', 'lo', ', wor', 'ld é😀', ' done.'];

interface Timed {
  x: ResponsesStreamExchange;
  pairs: Array<{ sent: number; got: number }>;
  result: OracleResult | null;
}

export default defineCheck({
  id: 'responses.stream.incremental',
  title: 'A streamed response whose events are sent 300 ms apart reaches the client event by event',
  requirements: ['RESP-SSE-2'],
  level: 'MUST',
  area: 'responses',
  profile: 'default',
  untranslatable: 'the upstream\'s events one for one',
  timing: true,
  protocol: 'responses',
  requirement:
    'Responses API events reach the client incrementally: the stream is not held back until response.completed or until a buffer fills, events sent apart are not delivered together, and no event arrives later than a coarse bound (default 1 s) after the upstream sent it.',
  async run(ctx) {
    const measure = async (more: boolean): Promise<Timed> => {
      const x = await responsesStreamExchange(ctx, { pieces: more ? [...PIECES, ...PIECES] : PIECES }, GAP_MS);
      if (x.res.status !== 200 || !x.seen) return { x, pairs: [], result: null };
      // Timing is judged on the events that arrived; a lost or renumbered one is responses.stream.events' finding.
      const pairs = pairEvents(x.sent.map(unnumbered), x.res.events.map((e) => unnumbered(e.data))).filter((p) => p.sent < x.seen!.sentAt.length);
      const result = judgeDelivery(
        pairs.map((p) => x.seen!.sentAt[p.sent]),
        pairs.map((p) => x.res.events[p.got].arrivedAt),
        x.res.startedAt,
        pairs.map((p) => eventName(x.sent[p.sent])),
        ctx.settings.sse,
      );
      return { x, pairs, result };
    };
    const { decide, remeasured } = await withMargin(await measure(false), (t) => (t.result && t.pairs.length >= 2 ? t.result.nearBound : []), () => measure(true), (t) => t.result?.summary ?? 'no stream');
    const { x, pairs, result } = decide;
    if (!result) return fail(noStream(x), { evidence: streamEvidenceOf(x) });
    const evidence = { ...oracleEvidence(result, ctx.settings.sse), paired: `${pairs.length} of ${x.sent.length} events`, ...(remeasured ? { remeasured } : {}), ...streamEvidenceOf(x, 300) };
    if (pairs.length < 2) return fail(`only ${pairs.length} of ${x.sent.length} events arrived as sent: nothing to time`, { expected: 'the events, one by one', actual: `${x.res.events.length} events`, evidence });
    return {
      ok: result.delivery === 'incremental',
      message: result.summary + (remeasured ? ' (measured twice: the first measurement was within 25% of a bound)' : ''),
      expected: `no burst of events sent apart, every event within ${ctx.settings.sse.maxLagMs} ms of its sending`,
      actual: result.delivery,
      evidence,
    };
  },
});
