import { defineCheck, fail, pass } from '../../src/check/check.js';
import { excerpt } from '../shared/evidence.js';
import { McpClient, messagesOf, parsed, stepEvidence } from './common.js';
import { MCP_FAIL_CODE } from '../../src/protocols/mcp/index.js';

/** Request ids a client may use: numbers (large, zero, negative) and strings (with characters a gateway might escape). */
const IDS: Array<number | string> = [0, 9007199254740991, -7, 'req-é😀/"x"', ''];

export default defineCheck({
  id: 'mcp.jsonrpc.unchanged',
  title: 'JSON-RPC ids (numbers and strings) and a tool error (code, message, data) reach the client as the server sent them',
  requirements: ['MCP-RPC-1'],
  level: 'MUST',
  protocol: 'mcp',
  requirement: "Every JSON-RPC id an MCP client sends reaches the server unchanged and comes back unchanged on its answer (numbers stay numbers, strings stay strings), and a JSON-RPC error the server answers keeps its code, message and data.",
  fix: 'Do not rewrite JSON-RPC bodies: a gateway that renumbers ids must map each answer back to the id the client sent, and one that handles errors must keep the server\'s `code`, `message` and `data`.',
  async run(ctx) {
    const c = new McpClient(ctx);
    const { failed } = await c.open();
    if (failed) return failed;
    for (const id of IDS) {
      const s = await c.call('quick', {}, id);
      const sentId = (s.seen?.mcp?.received[0] as { id?: unknown } | undefined)?.id;
      if (!s.seen || sentId !== id) return fail(`request id ${JSON.stringify(id)} reached the server as ${s.seen ? JSON.stringify(sentId) : 'nothing'}`, { expected: JSON.stringify(id), actual: JSON.stringify(sentId), evidence: stepEvidence(s) });
      const answer = messagesOf(s.res).map(parsed).find((m) => m && 'result' in m);
      if (!answer || answer.id !== id) return fail(`the answer to id ${JSON.stringify(id)} came back with id ${answer ? JSON.stringify(answer.id) : '(no answer)'}`, { expected: JSON.stringify(id), actual: JSON.stringify(answer?.id), evidence: stepEvidence(s) });
    }
    const f = await c.call('fail');
    const sentError = f.seen?.mcp?.sent.map((m) => parsed(m.text)).find((m) => m && 'error' in m);
    if (!sentError) return fail(`the failing tool's call was answered ${f.res.status} without reaching the server's error`, { evidence: stepEvidence(f) });
    const got = messagesOf(f.res).map(parsed).find((m) => m && 'error' in m);
    const want = JSON.stringify(sentError.error);
    if (!got || JSON.stringify(got.error) !== want || got.id !== sentError.id) return fail(`the server's error ${excerpt(want)} reached the client as ${got ? excerpt(JSON.stringify(got.error)) : `no error (${f.res.status})`}`, { expected: want, actual: got ? JSON.stringify(got.error) : 'none', evidence: stepEvidence(f) });
    await c.delete();
    return pass(`${IDS.length} ids came back unchanged and the error (code ${MCP_FAIL_CODE}, with its data) arrived as sent`, stepEvidence(f));
  },
});
