// The recording upstream's WebSocket side, on `ws`, attached to the upstream server's `upgrade`
// event: it ties an upgrade to its socket case by the case token (the hint header, else the URL),
// records the upgrade (path, query, headers, subprotocols, extensions) and every message both
// ways with its time, text or binary, and answers in the route's own frames (src/protocols/*/socket.ts)
// as the check scripted (src/upstream/socket.ts). A plain request without the upgrade that reaches
// a socket route for a case is recorded and answered 426, as a WebSocket-only endpoint answers it.
import { createHash } from 'node:crypto';
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { CASE_HEADER, newCaseToken, tokensIn } from '../../src/upstream/contract.js';
import { FRAME_KEEP, type RecordedSocket, type SocketFrame, type SocketScript } from '../../src/upstream/socket.js';
import { SocketCase } from '../../src/upstream/socket-case.js';
import { socketRoute, socketRouteOf, type SocketRoute } from '../../src/protocols/index.js';
import { pairsFromRaw } from '../../src/client/headers.js';

/** The largest message the upstream takes (the size check sends up to a few MiB). */
const MAX_MESSAGE = 64 * 1024 * 1024;
/** The answer's pieces when a script names none. */
const PIECES = ['Hel', 'lo, wor', 'ld é😀 "q" \\ ', 'done.'];

/** A message as one side's record keeps it. */
export function frameRecord(dir: SocketFrame['dir'], data: Buffer | string, binary: boolean, at = performance.now()): SocketFrame {
  const buf = typeof data === 'string' ? Buffer.from(data) : data;
  return { dir, at, binary, bytes: buf.length, text: buf.toString('utf8', 0, Math.min(buf.length, FRAME_KEEP * 4)).slice(0, FRAME_KEEP), sha256: createHash('sha256').update(buf).digest('hex') };
}

/** A message's bytes, whatever shape ws handed it in. */
export const bytesOf = (d: RawData): Buffer => (Buffer.isBuffer(d) ? d : Array.isArray(d) ? Buffer.concat(d) : Buffer.from(d));

/** An HTTP answer written on a socket the upgrade came on, then ended (no 101). */
export function answerRaw(socket: Duplex, status: number, body: string, headers: Array<[string, string]> = [['content-type', 'application/json']]): void {
  if (socket.destroyed) return;
  const text = { 400: 'Bad Request', 404: 'Not Found', 405: 'Method Not Allowed', 426: 'Upgrade Required', 502: 'Bad Gateway' }[status] ?? 'Error';
  const lines = [`HTTP/1.1 ${status} ${text}`, ...headers.map(([k, v]) => `${k}: ${v}`), `content-length: ${Buffer.byteLength(body)}`, 'connection: close', '', ''];
  socket.end(lines.join('\r\n') + body);
}

export class SocketCases {
  private open = new Map<string, SocketCase>();
  private ended = new Set<string>();
  private wss = new WebSocketServer({ noServer: true, perMessageDeflate: true, maxPayload: MAX_MESSAGE, handleProtocols: (offered, req) => chosen(offered, req) });
  /** Live sockets, closed on stop. */
  private live = new Set<WebSocket>();
  /** Told of an upgrade no case could be tied to. */
  onUnmatched?: (url: string, reason: string) => void;

  expect(script: SocketScript): SocketCase {
    let token = newCaseToken();
    while (this.open.has(token) || this.ended.has(token)) token = newCaseToken();
    const c = new SocketCase(token, script);
    this.open.set(token, c);
    return c;
  }

  release(token: string): void {
    if (this.open.delete(token)) this.ended.add(token);
  }

  private caseOf(headers: http.IncomingHttpHeaders, url: string): SocketCase | null {
    const hint = headers[CASE_HEADER];
    for (const t of [...tokensIn(String(hint ?? '')), ...tokensIn(url)]) {
      const c = this.open.get(t);
      if (c) return c;
    }
    return null;
  }

  /** A plain request (no upgrade) on a socket route for an open case: recorded, answered 426; false when it is not one. */
  takePlain(req: http.IncomingMessage, res: http.ServerResponse, url: string): boolean {
    const c = socketRouteOf(url) ? this.caseOf(req.headers, url) : null;
    if (!c) return false;
    c.plain.push({ method: req.method ?? 'GET', url, headers: pairsFromRaw(req.rawHeaders), at: performance.now() });
    c.notify();
    const refuse = c.script.refuse ?? { status: 426, body: JSON.stringify({ error: { type: 'invalid_request_error', code: 'upgrade_required', message: 'this endpoint speaks WebSocket only: send the request with Upgrade: websocket' } }) };
    req.resume();
    res.writeHead(refuse.status, { 'content-type': 'application/json', ...(refuse.status === 426 ? { upgrade: 'websocket' } : {}) }).end(refuse.body);
    return true;
  }

  /** An upgrade request: tied to its case and answered as scripted (a refusal, or the socket). */
  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer, url: string): void {
    // An upgraded socket is no longer the HTTP server's: its errors (a gateway's reset) are ours to take.
    socket.on('error', () => socket.destroy());
    const at = socketRouteOf(url);
    const c = this.caseOf(req.headers, url);
    if (!at || !c) {
      this.onUnmatched?.(url, !at ? 'no socket route has this path' : 'no case token in the upgrade\'s header or URL');
      answerRaw(socket, 404, JSON.stringify({ error: { type: 'not_found_error', message: `gw-conformance upstream: no check expects this upgrade (${!at ? 'no socket route' : 'no case token'})` } }));
      return;
    }
    if (c.script.refuse) {
      c.plain.push({ method: req.method ?? 'GET', url, headers: pairsFromRaw(req.rawHeaders), at: performance.now() });
      c.notify();
      answerRaw(socket, c.script.refuse.status, c.script.refuse.body);
      return;
    }
    (req as http.IncomingMessage & { gwcProtocol?: string }).gwcProtocol = c.script.protocol;
    this.wss.handleUpgrade(req, socket, head, (ws) => this.serve(ws, req, c, url, socketRoute(c.script.route).route));
  }

  private serve(ws: WebSocket, req: http.IncomingMessage, c: SocketCase, url: string, route: SocketRoute): void {
    this.live.add(ws);
    const offered = req.headers['sec-websocket-protocol'];
    const rec: RecordedSocket = {
      url,
      headers: pairsFromRaw(req.rawHeaders),
      subprotocols: offered ? String(offered).split(',').map((s) => s.trim()).filter(Boolean) : [],
      protocol: ws.protocol,
      offered: (req.headers['sec-websocket-extensions'] as string | undefined) ?? null,
      extensions: ws.extensions,
      openedAt: performance.now(),
      receivedWall: new Date().toISOString(),
      frames: [],
    };
    c.sockets.push(rec);
    c.notify();
    const s = c.script;
    // The upstream's frames go out in order, one answer's after another's, with the script's gaps.
    let queue = Promise.resolve();
    const send = (data: string | Buffer, binary: boolean, gapMs = 0) => {
      queue = queue.then(async () => {
        // A scripted gap between frames (the timing oracle's), not synchronisation.
        if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
        if (ws.readyState !== ws.OPEN) return;
        const buf = typeof data === 'string' ? Buffer.from(data) : data;
        rec.frames.push(frameRecord('out', buf, binary));
        ws.send(buf, { binary });
      });
    };
    for (const f of s.first ?? []) send(f.data, f.binary === true);
    for (const g of route.greeting()) send(g, route.serverBinary);
    if (s.ping) ws.ping();
    ws.on('pong', () => {
      rec.pongAt ??= performance.now();
      c.notify();
    });
    ws.on('message', (data, binary) => {
      const buf = bytesOf(data);
      rec.frames.push(frameRecord('in', buf, binary));
      c.notify();
      const count = rec.frames.filter((f) => f.dir === 'in').length;
      if (s.echo) send(buf, binary);
      else route.answer(buf.toString('utf8'), s.pieces ?? PIECES).forEach((f, i) => send(f, route.serverBinary, i === 0 ? 0 : (s.gapMs ?? 0)));
      if (s.closeAfter && count === s.closeAfter.frames) {
        queue = queue.then(() => {
          rec.closed = { code: s.closeAfter!.code, reason: s.closeAfter!.reason, at: performance.now(), by: 'self' };
          ws.close(s.closeAfter!.code, s.closeAfter!.reason);
          c.notify();
        });
      }
    });
    ws.on('error', (e) => {
      rec.error = e.message;
      c.notify();
    });
    ws.on('close', (code, reason) => {
      this.live.delete(ws);
      rec.closed ??= { code, reason: reason.toString('utf8'), at: performance.now(), by: 'peer' };
      c.notify();
    });
  }

  /** Ends every socket (the upstream stops). */
  stop(): void {
    for (const ws of this.live) ws.terminate();
    this.live.clear();
  }
}

/** The subprotocol the upstream chooses: the script's when offered, else none. */
function chosen(offered: Set<string>, req: http.IncomingMessage): string | false {
  const want = (req as http.IncomingMessage & { gwcProtocol?: string }).gwcProtocol;
  return want && offered.has(want) ? want : false;
}
