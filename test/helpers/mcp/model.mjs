// A small stand-in for the Anthropic messages API, for Claude Code's MCP runs
// (test/real/mcp/claude-mcp.test.ts): the first request that offers the MCP tool `tool` is
// answered with a call of it (a tool_use block), every later one (the tool's result is in the
// conversation) and every other with a short text. Streams when the request asks for one.
// Every request is appended to `record` as one JSON line (method, path, tool names offered,
// tool results seen; credential headers are not kept). When the tool was not offered at all,
// the text says so.
import { appendFileSync } from 'node:fs';
import http from 'node:http';

export const MODEL_TEXT = 'The MCP tool answered.';
/** The answer when the MCP tool was not offered (the client could not list it), so the run's output tells. */
export const NO_TOOL_TEXT = 'No MCP tool was offered.';

const sse = (res, events) => {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [type, data] of events) res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  res.end();
};

function answer(res, stream, model, block) {
  const stop = block.type === 'tool_use' ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: 10, output_tokens: 5 };
  const message = { id: 'msg_01McpRealStub000000000001', type: 'message', role: 'assistant', model, stop_sequence: null, usage };
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...message, content: [block], stop_reason: stop }));
    return;
  }
  const start = block.type === 'tool_use' ? { ...block, input: {} } : { type: 'text', text: '' };
  const delta = block.type === 'tool_use' ? { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } : { type: 'text_delta', text: block.text };
  sse(res, [
    ['message_start', { message: { ...message, content: [], stop_reason: null } }],
    ['content_block_start', { index: 0, content_block: start }],
    ['content_block_delta', { index: 0, delta }],
    ['content_block_stop', { index: 0 }],
    ['message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } }],
    ['message_stop', {}],
  ]);
}

const toolResults = (body) =>
  (body.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((c) => c.type === 'tool_result');

/** Starts the stand-in; `tool` is the full name Claude Code gives the MCP tool (mcp__<server>__<tool>). */
export async function startModel({ listen = '127.0.0.1:0', record, tool }) {
  let called = false;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.once('end', () => {
      const path = (req.url ?? '').split('?')[0];
      let body = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      } catch {
        body = {};
      }
      const offered = (body.tools ?? []).map((t) => t.name);
      const results = toolResults(body);
      if (record) appendFileSync(record, `${JSON.stringify({ method: req.method, path, offered, toolResults: results })}\n`);
      if (req.method === 'HEAD') return res.writeHead(200).end();
      if (req.method !== 'POST' || path !== '/v1/messages') return res.writeHead(404, { 'content-type': 'application/json' }).end('{"type":"error","error":{"type":"not_found_error","message":"not found"}}');
      const call = !called && offered.includes(tool) && results.length === 0;
      if (call) called = true;
      const reply = results.length || offered.includes(tool) ? MODEL_TEXT : NO_TOOL_TEXT;
      const block = call ? { type: 'tool_use', id: 'toolu_01McpRealStub00000000001', name: tool, input: {} } : { type: 'text', text: reply };
      answer(res, !!body.stream, body.model ?? 'claude-sonnet-4-5', block);
    });
  });
  const [host, port] = listen.split(':');
  await new Promise((resolve, reject) => server.once('error', reject).listen(Number(port), host, resolve));
  return { url: `http://${host}:${server.address().port}`, close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))) };
}
