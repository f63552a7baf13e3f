// The reference gateway's WebSocket relay (gateway.ts attaches it to its server's `upgrade`
// event): an upgrade on a socket route (src/protocols/socket.ts) is carried upstream first, with
// its headers (less the hop-by-hop ones), subprotocols and deflate offer; only once the upstream
// took it is the client's completed, with the subprotocol the upstream chose. An upstream's
// refusal reaches the client as it came (status, headers, body), one answer. Then every message
// is relayed both ways as it came, text or binary, close codes and reasons passed on, pings
// answered at each hop. A fault's `socket` hooks (faults/types.ts) break it at fixed points.
import http from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer, type RawData } from 'ws';
import type { SocketFault } from './faults/index.js';
import { socketRouteOf } from '../src/protocols/index.js';
import { forwardHeaders } from './wire.js';

/** The largest message relayed (a fault may set less). */
const MAX_MESSAGE = 64 * 1024 * 1024;
/** The most of an upstream refusal's body passed on. */
const REFUSAL_KEEP = 64 * 1024;
/** The handshake's own fields: each hop writes its own. */
const HANDSHAKE = new Set(['sec-websocket-key', 'sec-websocket-version', 'sec-websocket-extensions', 'sec-websocket-protocol', 'sec-websocket-accept']);

type Chosen = http.IncomingMessage & { gwcChosen?: string };
const bytesOf = (d: RawData): Buffer => (Buffer.isBuffer(d) ? d : Array.isArray(d) ? Buffer.concat(d) : Buffer.from(d));

/** An HTTP answer on the upgrade's socket, then the end (no 101). */
function answerRaw(socket: Duplex, status: number, headers: Array<[string, string]>, body: Buffer | string): void {
  if (socket.destroyed) return;
  const head = [`HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Error'}`, ...headers.map(([k, v]) => `${k}: ${v}`), `content-length: ${Buffer.byteLength(body)}`, 'connection: close', '', ''].join('\r\n');
  socket.end(Buffer.concat([Buffer.from(head), Buffer.from(body)]));
}
const jsonError = (socket: Duplex, status: number, message: string) => answerRaw(socket, status, [['content-type', 'application/json']], JSON.stringify({ error: { type: 'api_error', message } }));

/** Passes a close on: its code when it can be sent again (1005 and 1006 say none came), else a close without one. */
function closeOn(ws: WebSocket, code: number, reason: Buffer): void {
  if (ws.readyState !== WebSocket.OPEN) return;
  if (code === 1006) return ws.terminate();
  try {
    if (code === 1005) ws.close();
    else ws.close(code, reason);
  } catch {
    ws.close();
  }
}

export interface SocketRelayOptions {
  upstream: URL;
  fault?: SocketFault;
  basePath?: string;
}

/** Relays the WebSocket routes of `server` to the upstream; `stop()` ends every socket (an upgraded one is no longer the server's to close). */
export function attachSockets(server: http.Server, o: SocketRelayOptions): { stop(): void } {
  const open = new Set<Duplex>();
  const f = o.fault ?? {};
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: !f.advertiseDeflate, maxPayload: f.maxMessageBytes ?? MAX_MESSAGE, autoPong: !f.noPong, handleProtocols: (_offered, req) => (req as Chosen).gwcChosen || false });
  if (f.advertiseDeflate) wss.on('headers', (h, req) => req.headers['sec-websocket-extensions'] && h.push('Sec-WebSocket-Extensions: permessage-deflate'));
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
    const base = o.basePath ?? '';
    const url = req.url ?? '/';
    const path = base && (url === base || url.startsWith(`${base}/`) || url.startsWith(`${base}?`)) ? url.slice(base.length) || '/' : base ? null : url;
    if (path === null || !socketRouteOf(path)) return jsonError(socket, 404, `no WebSocket route for ${url.split('?')[0]}`);
    if (f.refuseStatus) return jsonError(socket, f.refuseStatus, 'method not allowed');
    if (f.plain) return plainUpstream(req, socket, path, o.upstream);
    carry(req, socket, head, path, o, wss);
  });
  return { stop: () => [...open].forEach((s) => s.destroy()) };
}

/** The upgrade as a plain GET (its upgrade headers stripped), the upstream's answer passed back. */
function plainUpstream(req: http.IncomingMessage, socket: Duplex, path: string, upstream: URL): void {
  const headers = forwardHeaders(req.rawHeaders).filter(([k]) => !HANDSHAKE.has(k.toLowerCase()));
  const up = http.request({ host: upstream.hostname.replace(/^\[|\]$/g, ''), port: upstream.port || 80, method: 'GET', path: `${upstream.pathname.replace(/\/+$/, '')}${path}`, headers: [...headers.flat(), 'host', upstream.host] });
  up.on('response', (ur) => passRefusal(socket, ur));
  up.on('error', (e: NodeJS.ErrnoException) => jsonError(socket, 502, `upstream unreachable: ${e.code ?? e.message}`));
  socket.on('close', () => up.destroy());
  up.end();
}

/** An upstream's answer that is not a 101, passed to the client as it came (its body up to REFUSAL_KEEP). */
function passRefusal(socket: Duplex, ur: http.IncomingMessage): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const done = () => answerRaw(socket, ur.statusCode ?? 502, forwardHeaders(ur.rawHeaders), Buffer.concat(chunks).subarray(0, REFUSAL_KEEP));
  ur.on('data', (c: Buffer) => (chunks.push(c), (size += c.length) >= REFUSAL_KEEP && (done(), ur.destroy())));
  ur.on('end', done);
  ur.on('error', done);
}

/** Carries the upgrade upstream, then completes the client's (or, under a fault, the other way round) and relays. */
function carry(req: http.IncomingMessage, socket: Duplex, head: Buffer, path: string, o: SocketRelayOptions, wss: WebSocketServer): void {
  const f = o.fault ?? {};
  const headers: Record<string, string> = {};
  for (const [k, v] of forwardHeaders(req.rawHeaders)) if (!HANDSHAKE.has(k.toLowerCase()) && k.toLowerCase() !== f.dropHeader) headers[k] = headers[k] !== undefined ? `${headers[k]}, ${v}` : v;
  const offered = String(req.headers['sec-websocket-protocol'] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const deflate = /permessage-deflate/i.test(String(req.headers['sec-websocket-extensions'] ?? ''));
  const target = `${o.upstream.protocol === 'https:' ? 'wss' : 'ws'}://${o.upstream.host}${o.upstream.pathname.replace(/\/+$/, '')}${path}`;
  const up = new WebSocket(target, offered, { headers, perMessageDeflate: deflate && !f.advertiseDeflate ? {} : false, maxPayload: MAX_MESSAGE, autoPong: !f.noPong, followRedirects: false });
  socket.on('close', () => up.readyState === WebSocket.CONNECTING && up.terminate());
  const accept = (then: (client: WebSocket) => void) => wss.handleUpgrade(req, socket, head, then);
  if (f.acceptFirst) {
    // The client's socket opens before the upstream answered: what it sends waits for the upstream.
    (req as Chosen).gwcChosen = offered[0];
    accept((client) => {
      const waiting: Array<[Buffer, boolean]> = [];
      client.on('message', (d, b) => waiting.push([bytesOf(d), b]));
      up.on('unexpected-response', (_r, res) => (res.resume(), client.close(1011, 'upstream refused the upgrade')));
      up.on('error', () => client.close(1011, 'upstream unreachable'));
      up.on('open', () => {
        client.removeAllListeners('message');
        relay(client, up, f);
        for (const [d, b] of waiting.splice(0)) up.send(d, { binary: b });
      });
    });
    return;
  }
  up.on('unexpected-response', (_r, res) => passRefusal(socket, res));
  up.on('error', (e: NodeJS.ErrnoException) => jsonError(socket, 502, `upstream unreachable: ${e.code ?? e.message}`));
  up.on('open', () => {
    (req as Chosen).gwcChosen = up.protocol;
    if (socket.destroyed) return up.terminate();
    // What the upstream sends before the client's socket is open (a greeting) waits for it.
    const early: Array<[Buffer, boolean]> = [];
    const keep = (d: RawData, b: boolean) => early.push([bytesOf(d), b]);
    up.on('message', keep);
    accept((client) => {
      up.off('message', keep);
      relay(client, up, f, early);
    });
  });
}

/** Relays messages (first the upstream's that came before the client's socket opened), closes and errors between the two sockets. */
function relay(client: WebSocket, up: WebSocket, f: SocketFault, early: Array<[Buffer, boolean]> = []): void {
  const send = (to: WebSocket) => (data: Buffer, binary: boolean) => to.readyState === WebSocket.OPEN && to.send(data, { binary: binary && !f.textOnly });
  const toClient = f.toClient ? f.toClient(send(client)) : send(client);
  let idle: NodeJS.Timeout | undefined;
  // A fault's idle cut (a proxy's read time-out): restarted by every message either way.
  const active = () => {
    if (!f.idleCutMs) return;
    clearTimeout(idle);
    idle = setTimeout(() => (client.terminate(), up.terminate()), f.idleCutMs);
  };
  active();
  for (const [d, b] of early) toClient(d, b);
  client.on('message', (d, binary) => (active(), send(up)(f.toUpstream ? f.toUpstream(bytesOf(d), binary) : bytesOf(d), binary)));
  up.on('message', (d, binary) => (active(), toClient(bytesOf(d), binary)));
  client.on('close', (code, reason) => (clearTimeout(idle), closeOn(up, f.closeCode ?? code, reason)));
  up.on('close', (code, reason) => (clearTimeout(idle), closeOn(client, f.closeCode ?? code, reason)));
  client.on('error', () => up.terminate());
  up.on('error', () => client.terminate());
}
