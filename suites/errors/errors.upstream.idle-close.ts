// CONN-IDLE-1: the upstream closes the kept-alive connection of this check's first request once
// it has been idle a second (a server's keep-alive time-out, scoped to this case); the check
// waits for that close as an event the upstream reports, then sends more requests and judges
// each answer. The check runs alone (exclusive): the next request the gateway forwards is this
// check's, so a pool that hands out the closed connection hands it to this check.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { messageBody } from '../../src/upstream/replies/messages.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange, responseDiffs } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { attempt } from '../shared/shape.js';

/** The upstream's keep-alive time-out for this case's connection. */
const IDLE_CLOSE_MS = 1000;
/** Requests sent after the close, one after another. */
const FOLLOW_UPS = 3;

export default defineCheck({
  id: 'errors.upstream.idle-close',
  title: 'After the upstream closes an idle kept-alive connection, the next messages requests still succeed',
  requirements: ['CONN-IDLE-1'],
  level: 'SHOULD',
  area: 'errors',
  profile: 'default',
  protocol: 'messages',
  exclusive: true,
  requirement: `The upstream closes the kept-alive connection of a request once it has been idle ${IDLE_CLOSE_MS / 1000} s; after that close, ${FOLLOW_UPS} requests sent one after another through the gateway are each answered with the upstream's 200 message within the run's time limit: no hang, no 502, no empty answer (CONN-IDLE-1). The HTTP/2 half of the requirement (a reset stream) is not probed.`,
  async run(ctx) {
    const first = await exchange(ctx, messagesBody({}), { reply: (c) => c.upstream.next().json(messageBody(), { closeIdleMs: IDLE_CLOSE_MS }) });
    if (first.res.status !== 200 || !first.seen) return fail(`the first request was not answered with the upstream's 200 (the gateway answered ${first.res.status}${first.seen ? '' : ', nothing reached the upstream'})`, { expected: '200 from the upstream', actual: String(first.res.status), evidence: exchangeEvidence(first, 600) });
    const boundMs = IDLE_CLOSE_MS + ctx.settings.timeoutMs;
    const closedAt = await first.expectation.idleClosed(boundMs);
    if (closedAt === null) return pass(`nothing to judge: the upstream connection of the first request was not left idle for ${IDLE_CLOSE_MS / 1000} s within ${boundMs} ms (the gateway closed it itself or used it again at once), so the upstream closed none`);
    const answers: string[] = [];
    for (let i = 1; i <= FOLLOW_UPS; i++) {
      const r = await attempt(() => exchange(ctx, messagesBody({})));
      const what = `request ${i} of ${FOLLOW_UPS} after the upstream closed the idle connection`;
      if (!r.ok) return fail(`${what} ${r.kind === 'timeout' ? 'hung' : 'got no answer'}: ${r.error}`, { expected: "the upstream's 200 message", actual: r.error, evidence: { before: answers } });
      const x = r.value;
      const d = x.res.status === 200 ? responseDiffs(x) : null;
      const wrong = x.res.status !== 200 ? `was answered ${x.res.status}${x.seen ? '' : ' without reaching the upstream'}` : d?.parseError ? `got an empty or broken answer (${d.parseError})` : d?.diffs.length ? `got an answer that differs from the upstream's at ${d.diffs[0].path}` : null;
      if (wrong) return fail(`${what} ${wrong}`, { expected: "the upstream's 200 message", actual: `${x.res.status}`, evidence: { before: answers, ...exchangeEvidence(x, 600) } });
      answers.push(`${x.res.status} in ${Math.round(x.res.endedAt - x.res.startedAt)} ms`);
    }
    return pass(`after the upstream closed the idle connection, ${FOLLOW_UPS} requests were each answered 200 (${answers.join(', ')})`, { answers });
  },
});
