import { defineCheck, fail } from '../../src/check/check.js';
import { judgeDelivery, oracleEvidence, withMargin, type OracleResult } from '../../src/core/oracle.js';
import { chatStreamExchange, chunkName, pairEvents } from './common.js';
import { streamEvidenceOf, type StreamExchange } from '../shared/exchange.js';

/** Gap between scripted chunks: far above loopback lag and the burst window, so a buffer shows as chunks arriving together. */
export const GAP_MS = 300;
const PIECES = ['Hel', 'lo', ', wor', 'ld é😀', ' done.'];

interface Timed {
  x: StreamExchange;
  pairs: Array<{ sent: number; got: number }>;
  result: OracleResult | null;
}

export default defineCheck({
  id: 'chat.stream.incremental',
  title: 'A streamed completion of 9 chunks sent 300 ms apart reaches the client chunk by chunk',
  requirements: ['CHAT-SSE-1'],
  level: 'MUST',
  area: 'chat',
  profile: 'default',
  untranslatable: 'the upstream\'s chunks one for one',
  timing: true,
  protocol: 'chat',
  requirement:
    'Chat-completions chunks reach the client incrementally: the stream is not held back until its end or until a buffer fills, chunks sent apart are not delivered together, and no chunk arrives later than a coarse bound (default 1 s) after the upstream sent it.',
  async run(ctx) {
    const measure = async (more: boolean): Promise<Timed> => {
      const x = await chatStreamExchange(ctx, { pieces: more ? [...PIECES, ...PIECES, ...PIECES] : PIECES, gapMs: GAP_MS });
      if (x.res.status !== 200 || !x.seen) return { x, pairs: [], result: null };
      // Timing is judged on the chunks that arrived; a lost chunk is chat.stream.complete's finding.
      const pairs = pairEvents(x.sent, x.res.events.map((e) => e.data)).filter((p) => p.sent < x.seen!.sentAt.length);
      const result = judgeDelivery(
        pairs.map((p) => x.seen!.sentAt[p.sent]),
        pairs.map((p) => x.res.events[p.got].arrivedAt),
        x.res.startedAt,
        pairs.map((p) => chunkName(x.sent[p.sent])),
        ctx.settings.sse,
      );
      return { x, pairs, result };
    };
    // Near a bound, 19 chunks instead of 9.
    const { decide, remeasured } = await withMargin(await measure(false), (t) => (t.result && t.pairs.length >= 2 ? t.result.nearBound : []), () => measure(true), (t) => t.result?.summary ?? 'no stream');
    const { x, pairs, result } = decide;
    if (!result)
      return fail(x.seen ? `the client got status ${x.res.status}${x.res.error ? ` (${x.res.error})` : ''} instead of a stream` : `the request never reached the upstream (the gateway answered ${x.res.status})`, { evidence: streamEvidenceOf(x) });
    const evidence = { ...oracleEvidence(result, ctx.settings.sse), paired: `${pairs.length} of ${x.sent.length} chunks`, ...(remeasured ? { remeasured } : {}), ...streamEvidenceOf(x, 300) };
    if (pairs.length < 2) return fail(`only ${pairs.length} of ${x.sent.length} chunks arrived as sent: nothing to time`, { expected: 'the chunks, one by one', actual: `${x.res.events.length} events`, evidence });
    return {
      ok: result.delivery === 'incremental',
      message: result.summary + (remeasured ? ' (measured twice: the first measurement was within 25% of a bound)' : ''),
      expected: `no burst of chunks sent apart, every chunk within ${ctx.settings.sse.maxLagMs} ms of its sending`,
      actual: result.delivery,
      evidence,
    };
  },
});
