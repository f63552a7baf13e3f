import { defineCheck, fail } from '../../src/check/check.js';
import { judgeDelivery, oracleEvidence, withMargin, type OracleResult } from '../../src/core/oracle.js';
import { messageStream } from '../../src/upstream/replies/streams.js';
import { streamEvidenceOf, type StreamExchange } from '../shared/exchange.js';
import { dataOf, pairEvents, vertexStream } from './common.js';

/** Gap between scripted events: far above loopback lag and the burst window, so a buffer shows as events arriving together. */
export const GAP_MS = 300;

interface Timed {
  x: StreamExchange;
  pairs: Array<{ sent: number; got: number }>;
  result: OracleResult | null;
}

export default defineCheck({
  id: 'vertex.stream.incremental',
  title: 'A streamRawPredict answer of 12 events sent 300 ms apart (text deltas of 1.4 KiB) reaches the client event by event',
  requirements: ['VTX-SSE-1'],
  level: 'MUST',
  area: 'vertex',
  profile: 'default',
  untranslatable: "the upstream's events one for one",
  timing: true,
  protocol: 'vertex',
  requirement:
    'The events of a streamRawPredict answer reach the client incrementally: the stream is not held until its end or until a buffer fills, events sent apart are not delivered together, and no event arrives later than a coarse bound (default 1 s) after the upstream sent it.',
  async run(ctx) {
    const measure = async (more: boolean): Promise<Timed> => {
      // 1.4 KiB events: a 4 KiB proxy buffer releases every third event, which shows as bursts.
      const x = await vertexStream(ctx, messageStream({ full: false, textDeltas: more ? 17 : 7, deltaChars: 1400 }), { gapMs: GAP_MS });
      if (x.res.status !== 200 || !x.seen) return { x, pairs: [], result: null };
      // Timing is judged on the events that arrived; a lost one is vertex.stream.complete's finding.
      const sent = x.sent.map(dataOf);
      const pairs = pairEvents(sent, x.res.events.map((e) => e.data)).filter((p) => p.sent < x.seen!.sentAt.length);
      const names = pairs.map((p) => /^event: (.*)$/m.exec(x.sent[p.sent])?.[1] ?? 'event');
      const result = judgeDelivery(pairs.map((p) => x.seen!.sentAt[p.sent]), pairs.map((p) => x.res.events[p.got].arrivedAt), x.res.startedAt, names, ctx.settings.sse);
      return { x, pairs, result };
    };
    // Near a bound, 22 events instead of 12.
    const { decide, remeasured } = await withMargin(await measure(false), (t) => (t.result && t.pairs.length >= 2 ? t.result.nearBound : []), () => measure(true), (t) => t.result?.summary ?? 'no stream');
    const { x, pairs, result } = decide;
    if (!result)
      return fail(x.seen ? `the client got status ${x.res.status}${x.res.error ? ` (${x.res.error})` : ''} instead of a stream` : `the request never reached the upstream (the gateway answered ${x.res.status})`, { evidence: streamEvidenceOf(x) });
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
