import { defineCheck, fail } from '../../src/check/check.js';
import { judgeDelivery, oracleEvidence, withMargin, type OracleResult } from '../../src/core/oracle.js';
import { bedrockStream } from '../../src/upstream/replies/bedrock.js';
import { streamEvidenceOf, type StreamExchange } from '../shared/exchange.js';
import { bedrockStreamExchange, eventName } from './common.js';

/** Gap between scripted messages: far above loopback lag and the burst window, so a buffer shows as messages arriving together. */
export const GAP_MS = 300;

interface Timed {
  x: StreamExchange;
  /** Scripted and received messages paired by position where they carry the same event. */
  pairs: Array<{ sent: number; got: number }>;
  result: OracleResult | null;
}

export default defineCheck({
  id: 'bedrock.stream.incremental',
  title: 'A Bedrock stream of 8 messages sent 300 ms apart reaches the client message by message',
  requirements: ['BR-STREAM-2'],
  level: 'MUST',
  area: 'bedrock',
  profile: 'default',
  untranslatable: "the upstream's event-stream messages one for one",
  timing: true,
  protocol: 'bedrock',
  requirement:
    'The messages of an InvokeModelWithResponseStream answer reach the client incrementally: the stream is not held back until its end or until a buffer fills, messages sent apart are not delivered together, and none arrives later than a coarse bound (default 1 s) after the upstream sent it.',
  async run(ctx) {
    const measure = async (more: boolean): Promise<Timed> => {
      const x = await bedrockStreamExchange(ctx, { texts: bedrockStream({ textDeltas: more ? 15 : 3 }), gapMs: GAP_MS });
      if (x.res.status !== 200 || !x.seen) return { x, pairs: [], result: null };
      // Timing is judged on the messages that arrived whole; their content is bedrock.stream.frames's finding.
      const pairs = x.res.events.flatMap((e, got) => (e.frame?.ok && x.sent[got] === e.data && got < x.seen!.sentAt.length ? [{ sent: got, got }] : []));
      const result = judgeDelivery(
        pairs.map((p) => x.seen!.sentAt[p.sent]),
        pairs.map((p) => x.res.events[p.got].arrivedAt),
        x.res.startedAt,
        pairs.map((p) => eventName(x.sent[p.sent])),
        ctx.settings.sse,
      );
      return { x, pairs, result };
    };
    // Near a bound, 20 messages instead of 8.
    const { decide, remeasured } = await withMargin(await measure(false), (t) => (t.result && t.pairs.length >= 2 ? t.result.nearBound : []), () => measure(true), (t) => t.result?.summary ?? 'no stream');
    const { x, pairs, result } = decide;
    if (!result)
      return fail(x.seen ? `the client got status ${x.res.status}${x.res.error ? ` (${x.res.error})` : ''} instead of a stream` : `the request never reached the upstream (the gateway answered ${x.res.status})`, { evidence: streamEvidenceOf(x) });
    const evidence = { ...oracleEvidence(result, ctx.settings.sse), paired: `${pairs.length} of ${x.sent.length} messages`, ...(remeasured ? { remeasured } : {}), ...streamEvidenceOf(x, 300) };
    if (pairs.length < 2) return fail(`only ${pairs.length} of ${x.sent.length} messages arrived as sent: nothing to time`, { expected: 'the messages, one by one', actual: `${x.res.events.length} messages`, evidence });
    return {
      ok: result.delivery === 'incremental',
      message: result.summary + (remeasured ? ' (measured twice: the first measurement was within 25% of a bound)' : ''),
      expected: `no burst of messages sent apart, every message within ${ctx.settings.sse.maxLagMs} ms of its sending`,
      actual: result.delivery,
      evidence,
    };
  },
});
