import { defineCheck, fail, pass } from '../../src/check/check.js';
import { excerpt } from '../shared/evidence.js';
import { MCP_PATH, McpClient, messagesOf, stepEvidence } from './common.js';

export default defineCheck({
  id: 'mcp.path.forwarded',
  title: 'POST /mcp (initialize) reaches the upstream at /mcp and its answer reaches the client',
  requirements: ['MCP-PATH-1'],
  level: 'MUST',
  protocol: 'mcp',
  requirement: "An MCP client's POST to the gateway's MCP endpoint reaches the upstream's endpoint, and the server's answer to initialize (its protocol version and capabilities) reaches the client.",
  fix: 'Route the MCP endpoint (`/mcp`: POST, GET and DELETE) to the MCP server without rewriting the path, and pass its answers back; a gateway that serves MCP under another path declares that path (`--base-path mcp=/prefix`).',
  async run(ctx) {
    const c = new McpClient(ctx);
    const init = await c.initialize();
    const ev = stepEvidence(init);
    if (!init.seen) return fail(`initialize never reached the upstream (the gateway answered ${init.res.status}: ${excerpt(init.res.text())})`, { evidence: ev });
    if (init.seen.url.split('?')[0] !== MCP_PATH) return fail(`initialize reached the upstream at ${init.seen.url}, not ${MCP_PATH}`, { expected: MCP_PATH, actual: init.seen.url, evidence: ev });
    const result = messagesOf(init.res).map((m) => JSON.parse(m) as { id?: unknown; result?: { protocolVersion?: unknown } }).find((m) => m.id === 1);
    if (init.res.status !== 200 || !result?.result?.protocolVersion) return fail(`the client got ${init.res.status} without the initialize result: ${excerpt(init.res.text())}`, { evidence: ev });
    return pass(`initialize reached ${MCP_PATH} and its result (protocol ${String(result.result.protocolVersion)}) came back`, ev);
  },
});
