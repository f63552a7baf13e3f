import { defineCheck, fail, pass } from '../../src/check/check.js';
import { couldNotJudge, McpClient, stepEvidence } from './common.js';

/** A tool result of 4 MiB of text (a file read, a screenshot's base64): past common 1 MiB buffers and body limits. */
const BYTES = 4 * 1024 * 1024;

export default defineCheck({
  id: 'mcp.result.large',
  title: 'A tool result of 4 MiB reaches the client whole',
  requirements: ['MCP-RPC-2'],
  level: 'MUST',
  protocol: 'mcp',
  requirement: 'A large tool result (4 MiB of text in one JSON-RPC answer) reaches the MCP client whole and unchanged: not cut at a buffer or body-size limit, not replaced by an error.',
  fix: 'Raise the response size limits on the MCP endpoint (or stream it unbuffered: nginx `proxy_buffering off;`); a tool result is as large as the file or image it carries.',
  async run(ctx) {
    // One JSON body: its bytes are compared by length and SHA-256 (the client keeps only the first MiB of a body).
    const c = new McpClient(ctx, { json: true });
    const { failed } = await c.open();
    if (failed) return failed;
    const s = await c.call('large', { bytes: BYTES });
    const ev = stepEvidence(s, 300);
    const mcp = s.seen?.mcp;
    if (!mcp) return fail(`the call never reached the upstream (the gateway answered ${s.res.status})`, { evidence: ev });
    if (mcp.status !== 200 || !mcp.sha256) return couldNotJudge(`the server answered ${mcp.status ?? 'nothing'} to the large call`, ev);
    if (s.res.header('content-encoding')) return couldNotJudge(`the gateway encoded the answer (${s.res.header('content-encoding')}): its bytes cannot be compared with the server's`, ev);
    if (s.res.status !== 200 || s.res.wireBytes !== mcp.bytes || s.res.wireSha256 !== mcp.sha256)
      return fail(`the server wrote a ${mcp.bytes}-byte answer; the client got ${s.res.status} with ${s.res.wireBytes} bytes${s.res.wireBytes === mcp.bytes ? ' of other content' : ''}`, { expected: `${mcp.bytes} bytes, SHA-256 ${mcp.sha256}`, actual: `${s.res.wireBytes} bytes, SHA-256 ${s.res.wireSha256}`, evidence: ev });
    await c.delete();
    return pass(`the ${mcp.bytes}-byte answer (a ${BYTES}-character result) arrived whole`, ev);
  },
});
