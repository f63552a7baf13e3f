import { defineCheck, fail, pass } from '../../src/check/check.js';
import { headerOf, MCP_SESSION_HEADER, McpClient, noSession, stepEvidence } from './common.js';

/** Requests each client sends in its session, the two clients' interleaved. */
const CALLS = 3;

export default defineCheck({
  id: 'mcp.session.isolated',
  title: "Two MCP clients at once: each gets only its own session id, and each one's requests reach the server with it",
  requirements: ['MCP-SESS-2'],
  level: 'MUST',
  protocol: 'mcp',
  requirement: "A session id the MCP server issued to one client never reaches another client: with two clients in sessions at the same time, each gets the id of its own initialize, and each one's requests reach the server under its own session only.",
  fix: "Never cache or pool MCP answers across clients: `Mcp-Session-Id` belongs to the connection that sent initialize. A gateway that keeps one upstream session per user, or issues its own ids, must keep one mapping per client session.",
  async run(ctx) {
    const a = new McpClient(ctx);
    const b = new McpClient(ctx);
    const [ia, ib] = await Promise.all([a.initialize(), b.initialize()]);
    for (const [c, init] of [[a, ia], [b, ib]] as const) {
      const issued = init.seen?.mcp?.session;
      if (!c.session || !issued) return noSession(init);
      if (c.session !== issued) {
        const other = c === a ? ib.seen?.mcp?.session : ia.seen?.mcp?.session;
        return fail(`a client got session ${c.session}, not the ${issued} its initialize opened${c.session === other ? ': the other client\'s session' : ''}`, { expected: issued, actual: c.session, evidence: stepEvidence(init) });
      }
    }
    for (let i = 0; i < CALLS; i++) {
      const [sa, sb] = await Promise.all([a.call('quick'), b.call('quick')]);
      for (const [c, s] of [[a, sa], [b, sb]] as const) {
        if (!s.seen) return fail(`a tools/call never reached the upstream under its client's session (the gateway answered ${s.res.status})`, { evidence: stepEvidence(s) });
        const got = headerOf(s.seen, MCP_SESSION_HEADER);
        if (got !== c.session) return fail(`a client's tools/call reached the server under session ${got ?? '(none)'}, not its own ${c.session}`, { expected: c.session, actual: got ?? 'no session header', evidence: stepEvidence(s) });
      }
    }
    await Promise.all([a.delete(), b.delete()]);
    return pass(`each of the two clients got its own session and its ${CALLS} calls, interleaved with the other's, reached the server under it`, stepEvidence(ia));
  },
});
