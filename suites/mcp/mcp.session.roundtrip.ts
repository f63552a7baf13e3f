import { defineCheck, fail, pass } from '../../src/check/check.js';
import { headerOf, MCP_SESSION_HEADER, McpClient, noSession, stepEvidence, type McpStep } from './common.js';

export default defineCheck({
  id: 'mcp.session.roundtrip',
  title: 'The Mcp-Session-Id of the initialize answer reaches the client and comes back on every later request',
  requirements: ['MCP-SESS-1'],
  level: 'MUST',
  protocol: 'mcp',
  requirement: 'The session id the MCP server names in its answer to initialize (Mcp-Session-Id) reaches the client unchanged, and every later request of the client (notifications, requests, DELETE) reaches the server carrying that same id.',
  fix: 'Forward the `Mcp-Session-Id` response header to the client and the request header back to the server unchanged (nginx passes both by default; a gateway that keeps an allow-list of headers must list it). A gateway that issues session ids of its own must map each back to the server\'s.',
  async run(ctx) {
    const c = new McpClient(ctx);
    const init = await c.initialize();
    const issued = init.seen?.mcp?.session;
    if (!c.session || !issued) return noSession(init);
    if (c.session !== issued) return fail(`the client got session ${c.session}, not the ${issued} the server issued`, { expected: issued, actual: c.session, evidence: stepEvidence(init) });
    const steps: Array<[string, McpStep]> = [];
    steps.push(['notifications/initialized', await c.post(c.body('notifications/initialized', {}, null))]);
    steps.push(['tools/list', await c.post(c.body('tools/list'))]);
    steps.push(['tools/call quick', await c.call('quick')]);
    steps.push(['DELETE', await c.delete()]);
    for (const [what, s] of steps) {
      if (!s.seen) return fail(`${what} never reached the upstream for this session (the gateway answered ${s.res.status})`, { evidence: stepEvidence(s) });
      const got = headerOf(s.seen, MCP_SESSION_HEADER);
      if (got !== issued) return fail(`${what} reached the server ${got === undefined ? `without ${MCP_SESSION_HEADER}` : `with session ${got}`}, not ${issued}`, { expected: issued, actual: got ?? 'no session header', evidence: stepEvidence(s) });
    }
    return pass(`the session id reached the client and came back on all ${steps.length} later requests (${steps.map(([w]) => w).join(', ')})`, stepEvidence(steps[2][1]));
  },
});
