import { defineCheck, fail, pass } from '../../src/check/check.js';
import { headerOf, MCP_SESSION_HEADER, McpClient, stepEvidence } from './common.js';

export default defineCheck({
  id: 'mcp.session.delete',
  title: 'DELETE /mcp with the session id ends the session at the server',
  requirements: ['MCP-DEL-1'],
  level: 'MUST',
  protocol: 'mcp',
  requirement: "An MCP client's DELETE on the endpoint, carrying its session id, reaches the server and ends that session there: the server's answer reaches the client, and a later request of that session gets the server's 404.",
  fix: 'Forward `DELETE /mcp` with its `Mcp-Session-Id` (a gateway that routes only POST and GET leaves sessions open at the server until they expire).',
  async run(ctx) {
    const c = new McpClient(ctx);
    const { failed } = await c.open();
    if (failed) return failed;
    const del = await c.delete();
    if (!del.seen) return fail(`the DELETE never reached the upstream (the gateway answered ${del.res.status})`, { evidence: stepEvidence(del) });
    if (headerOf(del.seen, MCP_SESSION_HEADER) !== c.session) return fail(`the DELETE reached the server without the session id ${c.session}`, { evidence: stepEvidence(del) });
    if (del.res.status !== del.seen.mcp?.status) return fail(`the server answered the DELETE ${del.seen.mcp?.status}, the client got ${del.res.status}`, { evidence: stepEvidence(del) });
    const after = await c.call('quick');
    if (after.res.status !== 404) return fail(`after the DELETE, a request of the session was answered ${after.res.status}, not 404: the session was not ended`, { expected: '404', actual: String(after.res.status), evidence: stepEvidence(after) });
    return pass(`the DELETE reached the server with the session id (answered ${del.res.status}), and the session's next request got 404`, stepEvidence(del));
  },
});
