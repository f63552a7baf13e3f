// CONN-IDLE-1: the upstream closes the kept-alive connection of this check's first request once
// it has been idle a second (a server's keep-alive time-out, scoped to this case); the check
// waits for that close as an event the upstream reports, then sends more requests and judges
// each answer. When the gateway speaks HTTP/2 to the upstream there is no idle connection to
// close (the upstream reports so): the upstream resets the stream of one request instead, and
// the same follow-ups are judged. The check runs alone (exclusive): the next request the gateway
// forwards is this check's, so a pool that hands out the closed connection (or the session it
// gave up after the reset) hands it to this check.
import { defineCheck, fail, pass, type CheckContext, type Verdict } from '../../src/check/check.js';
import { messageBody } from '../../src/protocols/messages/index.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { attempt, withBound } from '../shared/shape.js';
import { setTimeout as pause } from 'node:timers/promises';

/** The upstream's keep-alive time-out for this case's connection. */
const IDLE_CLOSE_MS = 1000;
/** Requests sent after the close, one after another. */
const FOLLOW_UPS = 3;
/**
 * Normal latency for a follow-up: the upstream answers at once, so a gateway answers in
 * milliseconds; one that waits out a read time-out on the closed connection (commonly 10 to 60 s)
 * before trying again is past it by seconds. The bound is the gateway's silence, not this
 * process's holds (withBound).
 */
const FOLLOW_UP_MS = 5000;
/**
 * The client's pause between the close and its next request: part of the scenario (a client
 * comes back some time later), not a wait for the gateway. A pool that watches its idle
 * connections reads the close within it and drops the connection (Caddy's did not, once, when
 * the request came within a millisecond of the close: a race the probe would judge by luck); one
 * that never notices the close sends on the dead connection whatever the pause.
 */
const CLIENT_PAUSE_MS = 250;

/** Why there is nothing to judge, by how the first request's connection ended its idle spell. */
const NOT_IDLE = {
  gateway: 'the gateway closed its upstream connection itself after the answer (it keeps none idle)',
  reused: `the gateway sent another request on the connection within ${IDLE_CLOSE_MS / 1000} s`,
};

/** What happened to the gateway's upstream connection before the follow-ups: the request's wording, and what the failure adds. */
interface Disruption {
  after: string;
  /** A follow-up that did not reach the upstream: what that says of the gateway. */
  unreached: string;
  evidence: Record<string, unknown>;
}

export default defineCheck({
  id: 'errors.upstream.idle-close',
  title: 'After the upstream closes an idle kept-alive connection or resets an HTTP/2 stream, the next messages requests still succeed',
  requirements: ['CONN-IDLE-1'],
  level: 'SHOULD',
  protocol: 'messages',
  exclusive: true,
  // The first answer, the upstream's idle second, then the reset request (over HTTP/2) and each follow-up within the run's limit.
  timeLimitMs: (s) => IDLE_CLOSE_MS + s.timeoutMs * 2 + (FOLLOW_UPS + 1) * FOLLOW_UP_MS * 2,
  requirement: `Over HTTP/1.1, the upstream closes the kept-alive connection of a request once it has been idle ${IDLE_CLOSE_MS / 1000} s; over HTTP/2 (the gateway's upstream connection speaks it), the upstream resets the stream of the next request instead (its answer is only bounded, ${FOLLOW_UP_MS / 1000} s). After that close or reset, ${FOLLOW_UPS} requests sent one after another through the gateway (after a close, the first ${CLIENT_PAUSE_MS} ms after it) are each answered 200 with a body, having reached the upstream, within ${FOLLOW_UP_MS / 1000} s: no hang, no 502, no empty answer (CONN-IDLE-1).`,
  fix: 'Expect the upstream to close idle kept-alive connections at any time: send a request that failed on a reused connection before any byte of its answer (ECONNRESET, EPIPE, "socket hang up") once more on a fresh connection, and keep the pool\'s idle time-out below the upstream\'s keep-alive time-out (Node: check `request.reusedSocket`; Go\'s http.Transport retries such requests itself; nginx: `keepalive_timeout` in the `upstream` block below the upstream\'s). Over HTTP/2 to the upstream, a reset stream (RST_STREAM) ends that request only: answer it with an error and keep using the session, and drop a session from the pool as soon as it is closed, sent GOAWAY or errored, never hand it out again.',
  async run(ctx) {
    const first = await exchange(ctx, messagesBody({}), { reply: (c) => c.upstream.next().json(messageBody(), { closeIdleMs: IDLE_CLOSE_MS }) });
    if (first.res.status !== 200 || !first.seen) return fail(`the first request was not answered with the upstream's 200 (the gateway answered ${first.res.status}${first.seen ? '' : ', nothing reached the upstream'})`, { expected: '200 from the upstream', actual: String(first.res.status), evidence: exchangeEvidence(first, 600) });
    const boundMs = IDLE_CLOSE_MS + ctx.settings.timeoutMs;
    const idle = await first.expectation.idleClosed(boundMs);
    if (idle === null) throw new Error(`harness: the recording upstream reported no end of the first request's idle connection within ${boundMs} ms`);
    if (idle.by === 'http2') {
      const reset = await resetStream(ctx);
      if (typeof reset !== 'string') return reset;
      // No pause: a reset leaves no close for the gateway to read; the reset request's answer is the event.
      return followUps(ctx, { after: 'the upstream reset an HTTP/2 stream', unreached: ' (a reset ends one stream, not the connection: a gateway that gives up its HTTP/2 session after one reset stream, yet goes on handing the session out, answers so)', evidence: { idleConnection: 'http2', reset } });
    }
    if (idle.by !== 'upstream') return pass(`nothing to judge: ${NOT_IDLE[idle.by]}, so the upstream closed no idle connection of the gateway's`, { idleConnection: idle.by });
    await pause(CLIENT_PAUSE_MS, undefined, { signal: ctx.signal });
    return followUps(ctx, { after: 'the upstream closed the idle connection', unreached: '', evidence: {} });
  },
});

/** Over HTTP/2: one request whose stream the upstream resets; its answer (only bounded) as text, or the failure when it hung. */
async function resetStream(ctx: CheckContext): Promise<string | Verdict> {
  const r = await attempt(() => withBound(ctx.signal, FOLLOW_UP_MS, (signal) => exchange({ ...ctx, signal }, messagesBody({}), { reply: (c) => c.upstream.next().reset() })));
  if (r.ok) return `${r.value.res.status} in ${Math.round(r.value.res.endedAt - r.value.res.startedAt)} ms`;
  if (r.kind === 'timeout') return fail(`the request whose HTTP/2 stream the upstream reset hung: ${r.error}`, { expected: `an answer (any status) within ${FOLLOW_UP_MS / 1000} s`, actual: r.error });
  return `no answer: ${r.error}`;
}

/** The follow-ups, one after another, each judged as a connection's result (status, a body, the upstream reached). */
async function followUps(ctx: CheckContext, e: Disruption): Promise<Verdict> {
  const answers: string[] = [];
  for (let i = 1; i <= FOLLOW_UPS; i++) {
    const r = await attempt(() => withBound(ctx.signal, FOLLOW_UP_MS, (signal) => exchange({ ...ctx, signal }, messagesBody({}))));
    const what = `request ${i} of ${FOLLOW_UPS} after ${e.after}`;
    if (!r.ok) return fail(`${what} ${r.kind === 'timeout' ? 'hung' : 'got no answer'}: ${r.error}`, { expected: '200 with a body, from the upstream', actual: r.error, evidence: { ...e.evidence, before: answers } });
    const x = r.value;
    // What the gateway does to the content is other checks'.
    const wrong = x.res.status !== 200 ? `was answered ${x.res.status}${x.seen ? '' : ` without reaching the upstream${e.unreached}`}` : !x.seen ? `was answered 200 without reaching the upstream${e.unreached}` : x.res.wireBytes === 0 ? 'got a 200 with an empty body' : null;
    if (wrong) return fail(`${what} ${wrong}`, { expected: '200 with a body, from the upstream', actual: `${x.res.status}`, evidence: { ...e.evidence, before: answers, ...exchangeEvidence(x, 600) } });
    answers.push(`${x.res.status} in ${Math.round(x.res.endedAt - x.res.startedAt)} ms`);
  }
  return pass(`after ${e.after}, ${FOLLOW_UPS} requests were each answered 200 (${answers.join(', ')})`, { ...e.evidence, answers });
}
