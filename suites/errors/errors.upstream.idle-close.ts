// CONN-IDLE-1: the upstream closes the kept-alive connection of this check's first request once
// it has been idle a second (a server's keep-alive time-out, scoped to this case); the check
// waits for that close as an event the upstream reports, then sends more requests and judges
// each answer. The check runs alone (exclusive): the next request the gateway forwards is this
// check's, so a pool that hands out the closed connection hands it to this check.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { messageBody } from '../../src/upstream/replies/messages.js';
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

/** Why the upstream closed no idle connection, by how the first request's connection ended its idle spell. */
const NOT_IDLE = {
  gateway: 'the gateway closed its upstream connection itself after the answer (it keeps none idle)',
  reused: `the gateway sent another request on the connection within ${IDLE_CLOSE_MS / 1000} s`,
  http2: 'the gateway spoke HTTP/2 to the upstream (this probe closes HTTP/1.1 connections; a reset HTTP/2 stream is not probed)',
};

export default defineCheck({
  id: 'errors.upstream.idle-close',
  title: 'After the upstream closes an idle kept-alive connection, the next messages requests still succeed',
  requirements: ['CONN-IDLE-1'],
  level: 'SHOULD',
  area: 'errors',
  profile: 'default',
  protocol: 'messages',
  exclusive: true,
  // The first answer, the upstream's idle second, then each follow-up within the run's limit.
  timeLimitMs: (s) => IDLE_CLOSE_MS + s.timeoutMs * 2 + FOLLOW_UPS * FOLLOW_UP_MS * 2,
  requirement: `The upstream closes the kept-alive connection of a request once it has been idle ${IDLE_CLOSE_MS / 1000} s; after that close, ${FOLLOW_UPS} requests sent one after another through the gateway (the first ${CLIENT_PAUSE_MS} ms after it) are each answered 200 with a body, having reached the upstream, within ${FOLLOW_UP_MS / 1000} s: no hang, no 502, no empty answer (CONN-IDLE-1). The HTTP/2 half of the requirement (a reset stream) is not probed.`,
  async run(ctx) {
    const first = await exchange(ctx, messagesBody({}), { reply: (c) => c.upstream.next().json(messageBody(), { closeIdleMs: IDLE_CLOSE_MS }) });
    if (first.res.status !== 200 || !first.seen) return fail(`the first request was not answered with the upstream's 200 (the gateway answered ${first.res.status}${first.seen ? '' : ', nothing reached the upstream'})`, { expected: '200 from the upstream', actual: String(first.res.status), evidence: exchangeEvidence(first, 600) });
    const boundMs = IDLE_CLOSE_MS + ctx.settings.timeoutMs;
    const idle = await first.expectation.idleClosed(boundMs);
    if (idle === null) throw new Error(`harness: the recording upstream reported no end of the first request's idle connection within ${boundMs} ms`);
    if (idle.by !== 'upstream') return pass(`nothing to judge: ${NOT_IDLE[idle.by]}, so the upstream closed no idle connection of the gateway's`, { idleConnection: idle.by });
    await pause(CLIENT_PAUSE_MS, undefined, { signal: ctx.signal });
    const answers: string[] = [];
    for (let i = 1; i <= FOLLOW_UPS; i++) {
      const r = await attempt(() => withBound(ctx.signal, FOLLOW_UP_MS, (signal) => exchange({ ...ctx, signal }, messagesBody({}))));
      const what = `request ${i} of ${FOLLOW_UPS} after the upstream closed the idle connection`;
      if (!r.ok) return fail(`${what} ${r.kind === 'timeout' ? 'hung' : 'got no answer'}: ${r.error}`, { expected: '200 with a body, from the upstream', actual: r.error, evidence: { before: answers } });
      const x = r.value;
      // Judged as a connection's result (status, a body, the upstream reached): what the gateway does to the content is other checks'.
      const wrong = x.res.status !== 200 ? `was answered ${x.res.status}${x.seen ? '' : ' without reaching the upstream'}` : !x.seen ? 'was answered 200 without reaching the upstream' : x.res.wireBytes === 0 ? 'got a 200 with an empty body' : null;
      if (wrong) return fail(`${what} ${wrong}`, { expected: '200 with a body, from the upstream', actual: `${x.res.status}`, evidence: { before: answers, ...exchangeEvidence(x, 600) } });
      answers.push(`${x.res.status} in ${Math.round(x.res.endedAt - x.res.startedAt)} ms`);
    }
    return pass(`after the upstream closed the idle connection, ${FOLLOW_UPS} requests were each answered 200 (${answers.join(', ')})`, { answers });
  },
});
