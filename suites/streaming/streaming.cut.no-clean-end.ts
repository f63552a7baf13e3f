// SSE-CUT-1: an upstream stream broken off before its terminal event must not reach the client
// as a complete answer: the client's stream is broken off too (or ends with an error event), no
// message_stop is made up, and the request is not sent upstream again behind the client's back.
import { defineCheck, fail, pass, type CheckContext, type Evidence, type Verdict } from '../../src/check/check.js';
import { frames, messageStream } from '../../src/protocols/messages/index.js';
import { isStop, notStreamed, streamEvidence, streamExchange } from './common.js';
import { plural } from '../../src/core/words.js';

/** Events the upstream sends before it breaks off: message_start, the text block's start, two deltas. */
const BEFORE_CUT = 4;

/** How many times the cut is probed: its outcome may hang on the gateway's timing. */
const PROBES = 3;

type Kind = 'held' | 'retried' | 'fake-stop' | 'open' | 'clean-end' | 'not-streamed';
interface Probe {
  kind: Kind;
  verdict: Verdict;
}

/** What the probes that failed so did, in words. */
const KIND: Record<Kind, string> = {
  held: 'were broken off or ended in an error',
  retried: 'were sent upstream again',
  'fake-stop': 'reached the client with a made-up message_stop',
  open: 'left the client\'s stream open',
  'clean-end': 'reached the client as a clean end',
  'not-streamed': 'were not streamed',
};

const failed = (kind: Kind, message: string, detail: Parameters<typeof fail>[1]): Probe => ({ kind, verdict: fail(message, detail) });
const passed = (message: string, evidence: Evidence): Probe => ({ kind: 'held', verdict: pass(message, evidence) });

/** One cut: the upstream breaks its stream off after BEFORE_CUT events; what reached the client. */
async function probe(ctx: CheckContext): Promise<Probe> {
    const events = messageStream({ full: false, textDeltas: 4 }).slice(0, BEFORE_CUT);
    const x = await streamExchange(ctx, frames(events), { cut: true });
    await ctx.upstream.sync();
    const requests = x.expectation.hits.length;
    const ev = { upstreamRequests: requests, sentEvents: events.length, clientError: x.res.error ?? null, ...streamEvidence(x) };
    if (!x.seen) return { kind: 'not-streamed', verdict: notStreamed(x) };
    if (requests > 1)
      return failed('retried', `the gateway sent the request upstream ${requests} times: it retried a stream that had already reached the client`, { expected: 'one upstream request', actual: `${requests} upstream requests`, evidence: ev });
    // An error status before any byte of the stream is an honest answer (a gateway that buffers the stream, then reports the failure).
    if (x.res.status >= 500) return passed(`the gateway answered ${x.res.status} for the broken-off stream`, ev);
    if (x.res.status !== 200) return { kind: 'not-streamed', verdict: notStreamed(x) };
    const stop = x.res.events.find((e) => isStop(e));
    if (stop) return failed('fake-stop', 'the client received a message_stop the upstream never sent', { expected: `${events.length} events, then an aborted stream or an error event`, actual: `${stop.event}: ${stop.data}`, evidence: ev });
    const errorEvent = x.res.events.find((e) => e.event === 'error');
    if (errorEvent) return passed(`the client got ${plural(x.res.events.length, 'event')} and an error event: ${errorEvent.data}`, ev);
    if (x.res.timedOut)
      return failed('open', `the client's stream stayed open after the upstream broke off: neither ended nor broken off until the client gave up (${x.res.error})`, { expected: 'an aborted stream (reset, incomplete chunked body) or an error event', actual: `${plural(x.res.events.length, 'event')}, then silence`, evidence: ev });
    if (x.res.error) return passed(`the client's stream was broken off after ${plural(x.res.events.length, 'event')} (${x.res.error})`, ev);
    return failed('clean-end', `the client's stream ended cleanly after ${plural(x.res.events.length, 'event')}: the upstream broke off before message_stop, and the client cannot tell a cut answer from a whole one`, {
      expected: 'an aborted stream (reset, incomplete chunked body) or an error event',
      actual: `a clean end after ${plural(x.res.events.length, 'event')}, no error`,
      evidence: ev,
    });
}

export default defineCheck({
  id: 'streaming.cut.no-clean-end',
  title: 'A stream the upstream breaks off before message_stop is not ended cleanly, completed or retried',
  requirements: ['SSE-CUT-1'],
  level: 'MUST',
  untranslatable: 'the upstream\'s broken-off stream',
  protocol: 'messages',
  requirement:
    "When the upstream closes its stream before the terminal event, the client's stream is aborted or ends with an error event: never a clean end, never a message_stop the upstream did not send, and the request is sent upstream once.",
  fix: 'When the upstream\'s stream breaks off before its end, break the client\'s stream off too (close or reset the connection without the last chunk), or end it with the protocol\'s `event: error`; never write the last chunk as if the answer were complete, never add a `message_stop` of your own, and never retry a request once bytes of its answer reached the client. nginx 1.22 ends the client\'s chunked body without its last chunk on a broken upstream (it logs "upstream prematurely closed connection").',
  async run(ctx) {
    // Whether a cut reaches the client cleanly can hang on the gateway's own timing (a proxy's
    // race between the upstream's close and its last write): the probe is made PROBES times, one
    // after another, and the worst outcome is reported with how many probes gave it.
    const probes: Probe[] = [];
    for (let i = 0; i < PROBES; i++) probes.push(await probe(ctx));
    const broken = probes.filter((p) => !p.verdict.ok);
    if (!broken.length) return { ...probes[0].verdict, message: `${PROBES} of ${PROBES} cuts: ${probes[0].verdict.message}` };
    const worst = broken.find((p) => p.kind === 'retried') ?? broken[0];
    const same = broken.filter((p) => p.kind === worst.kind).length;
    return { ...worst.verdict, message: `${same} of ${PROBES} cuts ${KIND[worst.kind]}: ${worst.verdict.message}`, evidence: { ...worst.verdict.evidence, probes: probes.map((p) => `${p.kind}: ${p.verdict.message}`) } };
  },
});
