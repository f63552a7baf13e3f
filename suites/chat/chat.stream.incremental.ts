import { defineCheck, fail } from '../../src/core/check.js';
import { judgeDelivery, oracleEvidence } from '../../src/core/oracle.js';
import { chatStreamExchange, chunkName, pairEvents } from './common.js';
import { streamEvidenceOf } from '../shared/exchange.js';

/** Gap between scripted chunks: far above loopback lag, so a buffer shows as a lag of whole gaps. */
export const GAP_MS = 300;
const PIECES = ['Hel', 'lo', ', wor', 'ld é😀', ' done.'];

export default defineCheck({
  id: 'chat.stream.incremental',
  title: 'A streamed completion of 9 chunks sent 300 ms apart reaches the client chunk by chunk',
  requirements: ['CHAT-SSE-1'],
  level: 'MUST',
  area: 'chat',
  profile: 'default',
  timing: true,
  protocol: 'chat',
  requirement: 'Chat-completions chunks reach the client incrementally: each within a small bound of the moment the upstream sent it, the stream not held back until its end or until a buffer fills (spec 2.4, 4 rule 4, 6.2).',
  async run(ctx) {
    const x = await chatStreamExchange(ctx, { pieces: PIECES, gapMs: GAP_MS });
    if (x.res.status !== 200 || !x.seen)
      return fail(x.seen ? `the client got status ${x.res.status}${x.res.error ? ` (${x.res.error})` : ''} instead of a stream` : `the request never reached the upstream (the gateway answered ${x.res.status})`, { evidence: streamEvidenceOf(x) });
    const got = x.res.events.map((e) => e.data);
    // Timing is judged on the chunks that arrived; a lost chunk is chat.stream.complete's finding.
    const pairs = pairEvents(x.sent, got).filter((p) => p.sent < x.seen!.sentAt.length);
    const result = judgeDelivery(
      pairs.map((p) => x.seen!.sentAt[p.sent]),
      pairs.map((p) => x.res.events[p.got].arrivedAt),
      x.res.startedAt,
      pairs.map((p) => chunkName(x.sent[p.sent])),
      ctx.settings.sse,
    );
    const evidence = { ...oracleEvidence(result, ctx.settings.sse), paired: `${pairs.length} of ${x.sent.length} chunks`, ...streamEvidenceOf(x, 300) };
    if (pairs.length < 2) return fail(`only ${pairs.length} of ${x.sent.length} chunks arrived as sent: nothing to time`, { expected: 'the chunks, one by one', actual: `${got.length} events`, evidence });
    return { ok: result.delivery === 'incremental', message: result.summary, expected: `every chunk within ${ctx.settings.sse.maxLagMs} ms of its sending`, actual: result.delivery, evidence };
  },
});
