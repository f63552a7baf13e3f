// A small Responses API upstream that speaks both of Codex's transports, for the measurements and
// tests of WebSockets through real proxies (test/real/sockets/, scripts/ws-codex.mjs): POST
// /v1/responses answered with the SSE stream of the protocol's own replies (the fallback path),
// and GET /v1/responses with `Upgrade: websocket` accepted by `ws`, each `response.create` frame
// answered with the same events as JSON text frames (no `event:` line: a WebSocket frame is the
// event). Every HTTP request, upgrade (its headers) and frame both ways is appended to the log
// file as one JSON line with its time (ms since the upstream started), so what reached the
// upstream is read from the wire, not from a client's word. Anything else: a JSON 404.
//
// Usage: node test/helpers/ws-upstream.mjs ROOT PORT LOGFILE [REFUSE]   (ROOT: a built repository, for dist/)
// REFUSE: an HTTP status answered, with a JSON error body, to every upgrade and plain GET of
// /v1/responses (how a gateway that serves no WebSocket may refuse one: what does the client make of it?).
// Prints `ws upstream listening on http://127.0.0.1:PORT` once it listens; SIGTERM ends it.
import { appendFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { WebSocketServer } from 'ws';

const [root, port, logFile, refuse] = process.argv.slice(2);
if (!root || !port || !logFile) {
  process.stderr.write('usage: ws-upstream.mjs ROOT PORT LOGFILE\n');
  process.exit(2);
}
const responses = await import(pathToFileURL(path.join(root, 'dist', 'src', 'protocols', 'responses', 'index.js')).href);
const t0 = performance.now();
const at = () => Math.round(performance.now() - t0);
const log = (rec) => appendFileSync(logFile, `${JSON.stringify({ at: at(), ...rec })}\n`);
const PATH = responses.RESPONSES_PATH;
const refusal = (status) => {
  const body = JSON.stringify({ error: { message: `WebSockets are not served here (${status})`, type: 'invalid_request_error', param: null, code: null } });
  return `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Refused'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
};

/** The events of one streamed answer as their JSON objects (the SSE frames' data lines). */
const events = () => responses.responsesStream({ pieces: ['Hel', 'lo from ', 'the socket.'] }).map((f) => JSON.parse(/^data: (.*)$/m.exec(f)[1]));

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    log({ kind: 'http', method: req.method, path: url.pathname, version: req.httpVersion, headers: req.rawHeaders.filter((_, i) => i % 2 === 0).map((k) => k.toLowerCase()), bytes: Buffer.concat(chunks).length });
    if (req.method === 'POST' && url.pathname === PATH) {
      res.writeHead(200, Object.fromEntries(responses.RESPONSES_SSE_HEADERS));
      for (const f of responses.responsesStream({ pieces: ['Hel', 'lo over ', 'HTTP.'] })) res.write(f);
      res.end();
      return;
    }
    const status = refuse && req.method === 'GET' && url.pathname === PATH ? Number(refuse) : 404;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `no route ${req.method} ${url.pathname}`, type: 'invalid_request_error', param: null, code: null } }));
  });
});

const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
server.on('upgrade', (req, socket, head) => {
  const url = new URL(req.url ?? '/', 'http://upstream');
  const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, k === 'authorization' ? '(present)' : v]));
  log({ kind: 'upgrade', path: url.pathname, headers });
  if (url.pathname !== PATH || refuse) {
    socket.end(refusal(refuse ? Number(refuse) : 404));
    return;
  }
  wss.handleUpgrade(req, socket, head, (ws) => {
    log({ kind: 'open' });
    ws.on('message', (data, binary) => {
      const text = data.toString('utf8');
      let type = '(not JSON)';
      let generate;
      try {
        const v = JSON.parse(text);
        type = String(v.type);
        generate = v.generate;
      } catch {}
      // A short frame is kept whole (a test's own), a client's long one by its size only.
      log({ kind: 'frame', dir: 'in', binary, type, bytes: data.length, ...(generate !== undefined ? { generate } : {}), ...(data.length <= 512 ? { text } : {}) });
      if (type !== 'response.create') return;
      for (const e of events()) {
        ws.send(JSON.stringify(e));
        log({ kind: 'frame', dir: 'out', type: e.type });
      }
    });
    ws.on('close', (code, reason) => log({ kind: 'close', code, reason: reason.toString('utf8') }));
  });
});

server.listen(Number(port), '127.0.0.1', () => process.stdout.write(`ws upstream listening on http://127.0.0.1:${port}\n`));
process.on('SIGTERM', () => {
  for (const c of wss.clients) c.terminate();
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
