// The tests' own MCP server over Streamable HTTP, on the official SDK (McpServer and
// StreamableHTTPServerTransport, one per session, an in-memory event store so that streams
// resume with Last-Event-ID): the content of ./everything.mjs, which the official conformance
// suite's server scenarios call. Every HTTP exchange is recorded (method, path, request
// headers in order, the JSON-RPC messages of the body, status and the MCP headers answered) and
// appended to a JSON-lines file, so a test can see what a client or a gateway sent.
//
// Usage: node server.mjs '{"listen":"127.0.0.1:0","record":"FILE","path":"/mcp"}'
// Prints `mcp server listening on URL` once it listens; ends on SIGTERM.
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import http from 'node:http';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CAPABILITIES, script } from './everything.mjs';

/** The body a server accepts at most (a JSON-RPC message of the scenarios is a few kB). */
const MAX_BODY = 4 * 1024 * 1024;
/** The retry interval announced in the priming event of a stream (SEP-1699), in ms. */
const RETRY_MS = 500;
/** Headers of the answer worth recording: the MCP ones, the body's kind, and the SDK's word to nginx not to buffer a stream. */
const ANSWER_HEADERS = ['content-type', 'mcp-session-id', 'mcp-protocol-version', 'www-authenticate', 'x-accel-buffering'];

/** A local server guards against DNS rebinding: a Host or an Origin that is not loopback is refused (403). */
const LOCAL = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/i;
const rebinding = (req) => {
  const origin = req.headers.origin;
  let originHost = '';
  try {
    originHost = origin ? new URL(origin).host : '';
  } catch {
    return true;
  }
  return !LOCAL.test(req.headers.host ?? '') || (origin !== undefined && !LOCAL.test(originHost));
};

const credentialName = /^(authorization|x-api-key|cookie|proxy-authorization)$/i;
const masked = (raw) => {
  const pairs = [];
  for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i], credentialName.test(raw[i]) ? '(masked)' : raw[i + 1]]);
  return pairs;
};

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy(new Error('body too large'));
      else chunks.push(c);
    });
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}

const parse = (text) => {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** Starts the server; resolves with its URL, its record (an array, also appended to `record`) and `close`. */
export async function startMcpServer(opts = {}) {
  const mcpPath = opts.path ?? '/mcp';
  const transports = new Map();
  const exchanges = [];
  let seq = 0;

  async function newSession() {
    const server = new McpServer({ name: 'gwc-test-mcp-server', version: '1.0.0' }, { capabilities: CAPABILITIES });
    script(server);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new InMemoryEventStore(),
      retryInterval: RETRY_MS,
      onsessioninitialized: (id) => transports.set(id, transport),
      onsessionclosed: (id) => transports.delete(id),
    });
    transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
    await server.connect(transport);
    return transport;
  }

  async function handle(req, res) {
    const entry = { seq: ++seq, t: Date.now(), method: req.method, url: req.url, headers: masked(req.rawHeaders) };
    // The SDK answers with writeHead(status, headers): its headers are read there.
    const writeHead = res.writeHead.bind(res);
    res.writeHead = (status, ...rest) => {
      const given = rest.find((r) => r && typeof r === 'object') ?? {};
      const lower = Object.fromEntries(Object.entries(given).map(([k, v]) => [k.toLowerCase(), v]));
      entry.status = status;
      entry.answer = Object.fromEntries(ANSWER_HEADERS.map((h) => [h, lower[h] ?? res.getHeader(h)]).filter(([, v]) => v !== undefined));
      return writeHead(status, ...rest);
    };
    // Kept at arrival, so a stream still open when the run ends is seen too (its status from its head).
    exchanges.push(entry);
    res.once('close', () => {
      entry.status = res.statusCode;
      entry.closed = true;
      if (opts.record) appendFileSync(opts.record, `${JSON.stringify(entry)}\n`);
    });
    if ((req.url ?? '').split('?')[0] !== mcpPath) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not found' }));
      return;
    }
    const text = req.method === 'POST' ? await readBody(req) : '';
    const body = parse(text);
    entry.body = body;
    if (rebinding(req)) {
      res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Forbidden: Host or Origin not local' }, id: null }));
      return;
    }
    const sid = req.headers['mcp-session-id'];
    let transport = typeof sid === 'string' ? transports.get(sid) : undefined;
    const initialize = [body].flat().some((m) => m && m.method === 'initialize');
    if (!transport && !sid && initialize) transport = await newSession();
    if (!transport) {
      // What the SDK answers too: 400 without a session id, 404 for one it does not know.
      const status = sid ? 404 : 400;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: sid ? -32001 : -32000, message: sid ? 'Session not found' : 'Bad Request: no session' }, id: null }));
      return;
    }
    await transport.handleRequest(req, res, body);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: String(e?.message ?? e) }, id: null }));
    });
  });
  const [host, port] = (opts.listen ?? '127.0.0.1:0').split(':');
  await new Promise((resolve, reject) => server.once('error', reject).listen(Number(port), host, resolve));
  const url = `http://${host}:${server.address().port}${mcpPath}`;
  const close = async () => {
    for (const t of transports.values()) await t.close().catch(() => {});
    server.closeAllConnections();
    await new Promise((r) => server.close(() => r()));
  };
  return { url, exchanges, close };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const s = await startMcpServer(JSON.parse(process.argv[2] ?? '{}'));
  process.stdout.write(`mcp server listening on ${s.url}\n`);
  process.once('SIGTERM', () => s.close().then(() => process.exit(0)));
}
