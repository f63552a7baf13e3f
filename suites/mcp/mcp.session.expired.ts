import { defineCheck, fail, pass } from '../../src/check/check.js';
import { excerpt } from '../shared/evidence.js';
import { couldNotJudge, McpClient, parsed, stepEvidence } from './common.js';

export default defineCheck({
  id: 'mcp.session.expired',
  title: "The server's 404 for a session it no longer knows reaches the client as a 404, and a new initialize then works",
  requirements: ['MCP-EXP-1'],
  level: 'MUST',
  protocol: 'mcp',
  requirement: "When the MCP server answers a request 404 because the session expired, the client gets that 404 (with the server's JSON-RPC error), so it starts a new session; the new session's initialize then goes through.",
  fix: 'Pass the server\'s `404` on the MCP endpoint through as it is: a gateway that turns it into a 502, a 500 or a 200 keeps the client retrying a dead session instead of initializing again.',
  async run(ctx) {
    const c = new McpClient(ctx);
    const { failed } = await c.open();
    if (failed) return failed;
    await c.call('forget');
    const stale = await c.call('quick');
    const ev = stepEvidence(stale);
    if (!stale.seen) return fail(`the request of the expired session never reached the upstream (the gateway answered ${stale.res.status})`, { evidence: ev });
    if (stale.seen.mcp?.status !== 404) return couldNotJudge(`the server answered the expired session ${stale.seen.mcp?.status ?? 'nothing'}, not 404`, ev);
    const error = parsed(stale.res.text())?.error;
    if (stale.res.status !== 404 || !error) return fail(`the server answered 404 with a JSON-RPC error; the client got ${stale.res.status}: ${excerpt(stale.res.text())}`, { expected: '404 with the JSON-RPC error', actual: String(stale.res.status), evidence: ev });
    const fresh = new McpClient(ctx);
    const again = await fresh.open();
    if (again.failed) return again.failed;
    await fresh.delete();
    return pass('the expired session\'s 404 reached the client, and a new session opened after it', ev);
  },
});
