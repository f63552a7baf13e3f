import { defineCheck, fail, pass } from '../../src/check/check.js';
import { AGENT_CARD_PATH, agentCard } from '../../src/protocols/a2a/index.js';
import { excerpt, exchangeEvidence } from '../shared/evidence.js';
import { changedFrom } from './common.js';

/** The url the scripted card names (the agent's own endpoint, which a gateway may point at itself). */
const CARD_URL = 'http://agent.invalid/a2a';

export default defineCheck({
  id: 'a2a.card.reachable',
  title: 'GET /.well-known/agent-card.json reaches the agent and its card reaches the client unchanged (its url may name the gateway)',
  requirements: ['AGENT-CARD-1'],
  level: 'MUST',
  protocol: 'a2a',
  undeclared: 'info',
  requirement:
    "The A2A agent card route (/.well-known/agent-card.json) is routed to the agent, and the card reaches the client as the agent wrote it, by meaning (name, capabilities, skills, modes); only its url may differ, where the gateway points clients at itself.",
  fix: 'Route `/.well-known/agent-card.json` to the agent beside its endpoint, without authentication pages or rewriting of the card (a gateway that serves the agent under its own address may set the card\'s `url` to it).',
  async run(ctx) {
    const card = agentCard(CARD_URL);
    const e = ctx.upstream.next().json(JSON.stringify(card));
    const res = await ctx.gateway.send({ method: 'GET', path: AGENT_CARD_PATH, auth: 'bearer', headers: [['accept', 'application/json']], caseToken: e.token, signal: ctx.signal });
    const seen = await e.received(1000);
    const ev = exchangeEvidence({ res, seen });
    if (!seen) return fail(`the agent card request never reached the upstream (the gateway answered ${res.status}: ${excerpt(res.text())})`, { evidence: ev });
    if (seen.url.split('?')[0] !== AGENT_CARD_PATH) return fail(`the agent card request reached the upstream at ${seen.url}, not ${AGENT_CARD_PATH}`, { expected: AGENT_CARD_PATH, actual: seen.url, evidence: ev });
    if (res.status !== 200) return fail(`the client got ${res.status} for the agent card the agent answered 200: ${excerpt(res.text())}`, { expected: '200', actual: String(res.status), evidence: ev });
    let got: Record<string, unknown>;
    try {
      got = JSON.parse(res.text()) as Record<string, unknown>;
    } catch {
      return fail(`the agent card reached the client as something other than JSON: ${excerpt(res.text())}`, { evidence: ev });
    }
    const url = got.url;
    const changed = changedFrom(JSON.stringify({ ...card, url: null }), JSON.stringify({ ...got, url: null }));
    if (changed) return fail(`the agent card arrived changed: ${changed}`, { expected: JSON.stringify(card), actual: excerpt(res.text(), 1500), evidence: ev });
    return pass(`the agent card arrived unchanged${url === CARD_URL ? '' : `, its url pointed at ${excerpt(String(url), 200)} instead of the agent's ${CARD_URL}`}`, ev);
  },
});
