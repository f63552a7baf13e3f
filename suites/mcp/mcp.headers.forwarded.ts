import { defineCheck, fail, pass } from '../../src/check/check.js';
import { headerOf, McpClient, MCP_PROTOCOL_VERSION, stepEvidence, type McpStep } from './common.js';
import { MCP_VERSION_HEADER } from '../../src/protocols/mcp/index.js';

export default defineCheck({
  id: 'mcp.headers.forwarded',
  title: 'MCP-Protocol-Version and the Accept of an MCP client reach the server on every request after initialize',
  requirements: ['MCP-HDR-1'],
  level: 'MUST',
  protocol: 'mcp',
  requirement: 'The MCP headers of a request reach the server as the client sent them: MCP-Protocol-Version on every request after initialize, and the Accept that names both JSON and event streams on every POST.',
  fix: 'Forward `MCP-Protocol-Version` and `Accept` unchanged (a gateway with a header allow-list adds `mcp-protocol-version`, `mcp-session-id` and `last-event-id` to it).',
  async run(ctx) {
    const c = new McpClient(ctx);
    const { failed } = await c.open();
    if (failed) return failed;
    const steps: Array<[string, McpStep]> = [
      ['tools/list', await c.post(c.body('tools/list'))],
      ['tools/call', await c.call('quick')],
      ['resources/list', await c.post(c.body('resources/list'))],
      ['DELETE', await c.delete()],
    ];
    for (const [what, s] of steps) {
      if (!s.seen) return fail(`${what} never reached the upstream (the gateway answered ${s.res.status})`, { evidence: stepEvidence(s) });
      const version = headerOf(s.seen, MCP_VERSION_HEADER);
      if (version !== MCP_PROTOCOL_VERSION) return fail(`${what} reached the server ${version === undefined ? `without ${MCP_VERSION_HEADER}` : `with ${MCP_VERSION_HEADER}: ${version}`}`, { expected: MCP_PROTOCOL_VERSION, actual: version ?? 'no header', evidence: stepEvidence(s) });
      const accept = headerOf(s.seen, 'accept') ?? '';
      if (what !== 'DELETE' && !(/application\/json/.test(accept) && /text\/event-stream/.test(accept))) return fail(`${what} reached the server with Accept "${accept}": the server may answer either JSON or a stream, and must be told the client takes both`, { expected: 'application/json, text/event-stream', actual: accept, evidence: stepEvidence(s) });
    }
    return pass(`${MCP_VERSION_HEADER} and Accept reached the server on all ${steps.length} requests after initialize`, stepEvidence(steps[0][1]));
  },
});
