import { defineCheck, fail, pass } from '../../src/check/check.js';
import { A2A_PATH, A2A_SEND, a2aHeaders, a2aRequest, a2aResult, agentMessage } from '../../src/protocols/a2a/index.js';
import { CASE_PLACEHOLDER, withToken } from '../../src/upstream/contract.js';
import { excerpt, exchangeEvidence } from '../shared/evidence.js';
import { changedFrom } from './common.js';

export default defineCheck({
  id: 'a2a.path.forwarded',
  title: 'POST /a2a (message/send) reaches the agent at /a2a and its answer reaches the client unchanged',
  requirements: ['AGENT-PATH-1'],
  level: 'MUST',
  protocol: 'a2a',
  undeclared: 'info',
  requirement: "An A2A client's message/send to the gateway's A2A endpoint reaches the agent's endpoint, and the agent's JSON-RPC answer (its message) reaches the client unchanged by meaning.",
  fix: 'Route the A2A endpoint (`/a2a`, POST) to the agent without rewriting the path, and pass its JSON answers back; a gateway that serves A2A under another path declares that path (`--base-path a2a=/prefix`).',
  async run(ctx) {
    const answer = a2aResult(1, agentMessage('The agent answers once.'));
    const e = ctx.upstream.next().json(answer);
    const res = await ctx.gateway.send({ method: 'POST', path: A2A_PATH, auth: 'bearer', headers: a2aHeaders(false), body: withToken(a2aRequest(A2A_SEND, `${CASE_PLACEHOLDER} send a message`), e.token), caseToken: e.token, signal: ctx.signal });
    const seen = await e.received(1000);
    const ev = exchangeEvidence({ res, seen });
    if (!seen) return fail(`message/send never reached the upstream (the gateway answered ${res.status}: ${excerpt(res.text())})`, { evidence: ev });
    if (seen.url.split('?')[0] !== A2A_PATH) return fail(`message/send reached the upstream at ${seen.url}, not ${A2A_PATH}`, { expected: A2A_PATH, actual: seen.url, evidence: ev });
    if (res.status !== 200) return fail(`the client got ${res.status} for the agent's 200 answer: ${excerpt(res.text())}`, { expected: '200', actual: String(res.status), evidence: ev });
    const changed = changedFrom(answer, res.text());
    if (changed) return fail(`the agent's answer arrived changed: ${changed}`, { expected: answer, actual: excerpt(res.text(), 1500), evidence: ev });
    return pass(`message/send reached ${A2A_PATH} and the agent's message came back unchanged`, ev);
  },
});
