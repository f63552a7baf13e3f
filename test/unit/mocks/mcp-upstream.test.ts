// The recording upstream's MCP server (mocks/upstream/mcp.ts) as the official SDK's client sees
// it: an McpReply case opens a session whose id carries the case token, the scripted tools,
// resource and prompt answer, progress comes as notifications before the result, the failing
// tool is a JSON-RPC error, and every message both ways is recorded on the request that carried it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { RecordingUpstream } from '../../../mocks/upstream/server.js';
import { UpstreamHandle } from '../../../src/upstream/handle.js';
import { MCP_FAIL_CODE, MCP_PATH } from '../../../src/protocols/mcp/index.js';
import { CASE_HEADER } from '../../../src/upstream/contract.js';

let up: RecordingUpstream;
beforeAll(async () => {
  up = new RecordingUpstream();
  await up.start('127.0.0.1', 0);
});
afterAll(() => up.stop());

async function connect(json = false) {
  const e = new UpstreamHandle(up, 'mcp').next().mcp({ json });
  const transport = new StreamableHTTPClientTransport(new URL(MCP_PATH, up.url), { requestInit: { headers: { [CASE_HEADER]: e.token } } });
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(transport);
  return { e, client, transport };
}

describe('the MCP recording upstream', () => {
  it('opens a session that carries the case token and answers the scripted tools', async () => {
    const { e, client, transport } = await connect();
    expect(transport.sessionId).toMatch(new RegExp(`^mcp-${e.token}-[0-9a-f]{16}$`));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['quick', 'progress', 'large', 'fail', 'notify', 'forget']);
    expect(await client.callTool({ name: 'quick', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'quick ok' }] });
    const large = (await client.callTool({ name: 'large', arguments: { bytes: 100_000 } })) as { content: Array<{ text: string }> };
    expect(large.content[0].text).toHaveLength(100_000);
    await expect(client.callTool({ name: 'fail', arguments: {} })).rejects.toMatchObject({ code: MCP_FAIL_CODE });
    expect((await client.listResources()).resources).toHaveLength(1);
    expect((await client.listPrompts()).prompts).toHaveLength(1);
    const progress: number[] = [];
    await client.callTool({ name: 'progress', arguments: { steps: 3, gapMs: 0 } }, undefined, { onprogress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([1, 2, 3]);
    expect(e.hits.slice(1).every((h) => h.mcp?.session === transport.sessionId)).toBe(true);
    // A request with no token of its own (no hint header, none in the body) is the case's by its session id.
    const n = e.hits.length;
    const bare = await fetch(new URL(MCP_PATH, up.url), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': transport.sessionId! }, body: '{"jsonrpc":"2.0","id":99,"method":"tools/list"}' });
    expect(bare.status).toBe(200);
    await bare.text();
    expect(e.hits).toHaveLength(n + 1);
    expect(e.hits[n].matchedBy).toBe('session');
    const call = e.hits.find((h) => JSON.stringify(h.mcp?.received).includes('"progress"'))!;
    expect(call.mcp!.body).toBe('sse');
    expect(call.mcp!.sent.map((m) => JSON.parse(m.text).method ?? 'result')).toEqual(['notifications/progress', 'notifications/progress', 'notifications/progress', 'result']);
    await client.close();
  });

  it('answers with one JSON body when the case says so, and 404 once the session is forgotten', async () => {
    const { e, client } = await connect(true);
    await client.callTool({ name: 'forget', arguments: {} });
    const forget = e.hits.at(-1)!;
    expect(forget.mcp!.body).toBe('json');
    await expect(client.callTool({ name: 'quick', arguments: {} })).rejects.toThrow(/404|Session not found/);
    expect(e.hits.at(-1)!.mcp!.status).toBe(404);
    await client.close();
  });
});
