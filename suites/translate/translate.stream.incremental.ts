import { defineCheck, fail } from '../../src/check/check.js';
import { DELIVERY_WORDS, judgeDelivery, oracleEvidence, withMargin, type OracleResult } from '../../src/core/oracle.js';
import { stallMeter } from '../../src/core/stall.js';
import { RECORDS, type StreamStep } from '../../src/protocols/index.js';
import { SSE_HEADERS } from '../../src/upstream/scenario.js';
import { frames, messageStream } from '../../src/protocols/messages/index.js';
import { streamEvidenceOf, streamThrough, type StreamExchange } from '../shared/exchange.js';
import { notTranslated, translation } from '../shared/route.js';
import { MESSAGES_PATH } from '../shared/protocols.js';
import { richBody, ON_TRANSLATED_ROUTE } from './common.js';
import { cut } from '../shared/evidence.js';

/** Far above loopback lag and the burst window: a buffer shows as pieces arriving together. */
const GAP_MS = 300;

interface Timed {
  x: StreamExchange;
  texts: string[];
  got: string[];
  result: OracleResult | null;
}

/** The text of each scripted frame (by its index) and of each event the client got, as steps of one reader per side. */
function textsOf(data: string[], read: (d: string) => StreamStep[] | null): string[] {
  return data.map((d) => (read(d) ?? []).map((s) => (s.t === 'text' ? s.text : '')).join(''));
}

export default defineCheck({
  id: 'translate.stream.incremental',
  title: 'A stream translated from another protocol reaches the client piece by piece, complete, in the client protocol',
  requirements: ['XLATE-STREAM-1'],
  ...ON_TRANSLATED_ROUTE,
  timing: true,
  requirement:
    "On a translated route a streamed answer reaches the client in the client protocol incrementally: each upstream event is translated and passed on when it arrives (no piece later than the oracle's bound, none sent apart delivered together), the text complete and in order, ending with the client protocol's own end of stream.",
  fix: 'Translate the upstream\'s stream event by event and write each translated event as soon as its upstream event arrives; never collect the upstream stream first. End with the client protocol\'s own end (`message_stop`).',
  async run(ctx) {
    const measure = async (deltas: number): Promise<Timed> => {
      const reply = { kind: 'sse' as const, protocol: 'messages' as const, status: 200, headers: SSE_HEADERS, frames: frames(messageStream({ full: false, textDeltas: deltas }), { gapMs: GAP_MS }) };
      const meter = stallMeter();
      const x = await streamThrough(ctx, reply, { path: MESSAGES_PATH, body: richBody({ stream: true }), headers: [['anthropic-version', '2023-06-01']] }).finally(() => meter.stop());
      const texts = textsOf(reply.frames.map((f) => f.data), RECORDS.messages.replies.streamReader().read);
      const client = RECORDS.messages.replies.streamReader();
      const got = textsOf(x.res.events.map((e) => `data: ${e.data}`), (d) => client.read(d));
      if (x.res.status !== 200 || !x.seen?.framesFrom) return { x, texts, got, result: null };
      // Each scripted piece: when the upstream wrote the first frame made from it, and when the client got the event carrying it.
      const pieces = texts.map((t, j) => ({ t, j })).filter((p) => p.t);
      const paired = pieces.map((p) => ({ ...p, sent: x.seen!.framesFrom!.indexOf(p.j), got: got.indexOf(p.t) })).filter((p) => p.sent >= 0 && p.got >= 0);
      const result = judgeDelivery(paired.map((p) => x.seen!.sentAt[p.sent]), paired.map((p) => x.res.events[p.got].arrivedAt), x.res.startedAt, paired.map((p) => `piece ${p.j}`), ctx.settings.sse, meter.read());
      return { x, texts, got, result };
    };
    const first = await measure(6);
    if (first.x.seen && !translation('messages', first.x.seen)) return notTranslated('messages', first.x.seen);
    const { decide, remeasured } = await withMargin(first, (t) => t.result?.nearBound ?? [], () => measure(14), (t) => t.result?.summary ?? 'no stream');
    const { x, texts, got, result } = decide;
    const to = x.seen?.protocol ?? 'no protocol';
    if (!result) return fail(x.seen ? `the client got status ${x.res.status}${x.res.error ? ` (${x.res.error})` : ''} instead of a stream (the upstream streamed in ${to})` : `the request never reached the upstream (the gateway answered ${x.res.status})`, { evidence: streamEvidenceOf(x) });
    const evidence = { route: `messages → ${to}`, ...oracleEvidence(result, ctx.settings.sse), ...(remeasured ? { remeasured } : {}), ...streamEvidenceOf(x, 300) };
    const want = texts.join('');
    const have = got.join('');
    const last = x.res.events.at(-1);
    if (have !== want || !last || !/"type"\s*:\s*"message_stop"/.test(last.data))
      return fail(have !== want ? `the translated stream's text is not the upstream's (${have.length} of ${want.length} characters, ${got.filter(Boolean).length} pieces)` : 'the translated stream does not end with message_stop', {
        expected: `${JSON.stringify(want)}, then message_stop`,
        actual: `${JSON.stringify(have)}, last event ${JSON.stringify(last ? cut(last.data, 120) : null)}`,
        evidence,
      });
    return {
      ok: result.delivery === 'incremental',
      message: `messages → ${to}: ${result.summary}${remeasured ? ' (measured twice: the first measurement was within 25% of a bound)' : ''}`,
      expected: `no burst of pieces sent apart, every piece within ${ctx.settings.sse.maxLagMs} ms of the upstream writing it`,
      actual: DELIVERY_WORDS[result.delivery],
      evidence,
    };
  },
});
