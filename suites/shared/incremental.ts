// The body of every "a stream reaches the client piece by piece" check (chat, native, Responses,
// Vertex, Bedrock): measure the scripted stream with the timing oracle (src/core/oracle.ts),
// measure again with a longer stream when the first measurement was near a bound, and judge.
// Each check brings only its exchange and how it pairs what was sent with what arrived.
import { fail, type CheckContext, type Verdict } from '../../src/check/check.js';
import { DELIVERY_WORDS, judgeDelivery, oracleEvidence, withMargin, type OracleResult } from '../../src/core/oracle.js';
import { plural } from '../../src/core/words.js';
import { stallMeter } from '../../src/core/stall.js';
import { streamEvidenceOf, type StreamExchange } from './exchange.js';
import type { Pair } from './pairing.js';

export interface IncrementalStream {
  /** What one piece of the stream is called in messages: chunk, message, event. */
  unit: string;
  /** One exchange with the scripted stream; `more` asks for the longer one measured when the first was near a bound. */
  exchange(more: boolean): Promise<StreamExchange>;
  /** The scripted pieces paired with the received events that carry them as sent (pieces the upstream did not send are left out here). */
  pair(x: StreamExchange): Pair[];
  /** A scripted piece's name in the timelines. */
  name(sent: string): string;
  /** The failure when no stream came back (null when one did); by default the client's status, or that nothing reached the upstream. */
  noStream?(x: StreamExchange): Verdict | null;
  /** When fewer than two pieces paired: how the message says they should have arrived ('as sent'), and the `actual` it shows (the count of received pieces). */
  tooFew?: { arrived?: string; actual?(x: StreamExchange): string };
}

interface Timed {
  x: StreamExchange;
  pairs: Pair[];
  result: OracleResult | null;
}

/** The client got no stream: its status, or that the request never reached the upstream. */
function notStreamed(x: StreamExchange): Verdict | null {
  if (x.res.status === 200 && x.seen) return null;
  return fail(x.seen ? `the client got status ${x.res.status}${x.res.error ? ` (${x.res.error})` : ''} instead of a stream` : `the request never reached the upstream (the gateway answered ${x.res.status})`, { evidence: streamEvidenceOf(x) });
}

/** Measures the stream's delivery (twice when the first measurement was within 25% of a bound) and judges it. */
export async function judgeIncremental(ctx: CheckContext, s: IncrementalStream): Promise<Verdict> {
  const noStream = (x: StreamExchange) => (s.noStream ?? notStreamed)(x);
  const measure = async (more: boolean): Promise<Timed> => {
    const meter = stallMeter();
    const x = await s.exchange(more).finally(() => meter.stop());
    if (noStream(x)) return { x, pairs: [], result: null };
    // Timing is judged on the pieces that arrived; a lost or changed one is another check's finding.
    const pairs = s.pair(x).filter((p) => p.sent < x.seen!.sentAt.length);
    const result = judgeDelivery(
      pairs.map((p) => x.seen!.sentAt[p.sent]),
      pairs.map((p) => x.res.events[p.got].arrivedAt),
      x.res.startedAt,
      pairs.map((p) => s.name(x.sent[p.sent])),
      ctx.settings.sse,
      meter.read(),
    );
    return { x, pairs, result };
  };
  const { decide, remeasured } = await withMargin(await measure(false), (t) => (t.result && t.pairs.length >= 2 ? t.result.nearBound : []), () => measure(true), (t) => t.result?.summary ?? 'no stream');
  const { x, pairs, result } = decide;
  const none = noStream(x);
  if (none) return none;
  if (!result) throw new Error('harness bug: a stream without a timing result');
  const unit = s.unit;
  // Timed against the first upstream request of the case: a second one (a request sent again) is named, not judged.
  const requests = x.expectation.hits.length;
  const evidence = { ...oracleEvidence(result, ctx.settings.sse), paired: `${pairs.length} of ${x.sent.length} ${unit}s`, ...(requests > 1 ? { upstreamRequests: requests } : {}), ...(remeasured ? { remeasured } : {}), ...streamEvidenceOf(x, 300) };
  if (pairs.length < 2)
    return fail(`only ${pairs.length} of ${x.sent.length} ${unit}s arrived ${s.tooFew?.arrived ?? 'as sent'}${x.res.timedOut ? `, then the client stopped reading (${x.res.error})` : ''}${requests > 1 ? ` (the upstream got ${requests} requests for it; timed against the first)` : ''}: nothing to time`, { expected: `the ${unit}s, one by one`, actual: s.tooFew?.actual ? s.tooFew.actual(x) : plural(x.res.events.length, unit), evidence });
  return {
    ok: result.delivery === 'incremental',
    message: result.summary + (remeasured ? ' (measured twice: the first measurement was within 25% of a bound)' : ''),
    expected: `no burst of ${unit}s sent apart, every ${unit} within ${ctx.settings.sse.maxLagMs} ms of its sending`,
    actual: DELIVERY_WORDS[result.delivery],
    evidence,
  };
}
