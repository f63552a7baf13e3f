// The harness's WebSocket client of the gateway (on `ws`): opens a socket route's upgrade with the
// run's targeting (base path, credential style, the protocol's headers) and the case token in the
// hint header, and keeps what came back: the refusal (status, headers, body) or the open socket,
// every message with its time on the upstream's clock (performance.now(), one process), the pong
// and the close. Every wait is bounded; a gateway that answers garbage or never answers is an
// outcome (`failed`), never a hang.
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { FRAME_KEEP, type SocketClose, type SocketFrame } from '../upstream/socket.js';
import { patientTimeout } from '../core/stall.js';
import { passedThrough } from '../core/pressure.js';
import { createHash } from 'node:crypto';
import type { AuthStyle } from '../core/protocols.js';
import type { GatewayClient } from './gateway.js';

/** The most of a refusal's body kept. */
const REFUSAL_KEEP = 16 * 1024;
/** The most one message may hold (the size check's largest is 4 MiB): a message that never ends is cut here. */
const MAX_MESSAGE = 5 * 1024 * 1024;
/** The most messages kept from one socket (a flood is cut there, and says so). */
export const FRAMES_KEEP = 5000;

export interface SocketOptions {
  path: string;
  headers?: Array<[string, string]>;
  auth?: AuthStyle;
  /** Sent in the hint header: the upstream ties the upgrade to its case by it. */
  caseToken?: string;
  protocols?: string[];
  /** Offer permessage-deflate (off unless asked, as most clients). */
  deflate?: boolean;
  /** The most the upgrade's answer may take. */
  timeoutMs: number;
}

export type SocketOpening =
  | { kind: 'open'; socket: ClientSocket; status: 101; headers: Array<[string, string]>; ms: number }
  | { kind: 'refused'; status: number; headers: Array<[string, string]>; body: string; ms: number }
  | { kind: 'failed'; error: string; ms: number };

const frame = (data: Buffer, binary: boolean): SocketFrame => ({ dir: 'out', at: performance.now(), binary, bytes: data.length, text: data.toString('utf8', 0, Math.min(data.length, FRAME_KEEP * 4)).slice(0, FRAME_KEEP), sha256: createHash('sha256').update(data).digest('hex') });

/** An open socket to the gateway, as the client sees it. */
export class ClientSocket {
  /** The upstream's messages as they arrived (`dir: 'out'`: upstream to client). */
  readonly frames: SocketFrame[] = [];
  /** The messages the client sent (`dir: 'in'`: client to upstream), in order. */
  readonly sent: SocketFrame[] = [];
  /** Messages past FRAMES_KEEP, counted and not kept. */
  dropped = 0;
  closed?: SocketClose;
  error?: string;
  pongAt?: number;
  private waiters: Array<() => void> = [];
  constructor(
    readonly ws: WebSocket,
    readonly openedAt: number,
  ) {
    ws.on('message', (data, binary) => {
      const buf = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
      if (this.frames.length < FRAMES_KEEP) this.frames.push(frame(buf, binary));
      else this.dropped++;
      this.notify();
    });
    ws.on('pong', () => ((this.pongAt ??= performance.now()), this.notify()));
    ws.on('error', (e) => ((this.error ??= e.message), this.notify()));
    ws.on('close', (code, reason) => ((this.closed ??= { code, reason: reason.toString('utf8'), at: performance.now(), by: 'peer' }), this.notify()));
  }
  get protocol(): string {
    return this.ws.protocol;
  }
  get extensions(): string {
    return this.ws.extensions;
  }
  private notify() {
    for (const w of this.waiters.splice(0)) w();
  }
  /** Waits until `ready()` holds or the socket closed, at most `graceMs`; returns whether it holds. */
  async until(ready: () => boolean, graceMs: number): Promise<boolean> {
    const deadline = Date.now() + graceMs;
    while (!ready() && !this.closed && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const cancel = patientTimeout(() => setImmediate(resolve), Math.max(0, deadline - Date.now()));
        this.waiters.push(() => (cancel(), resolve()));
      });
    }
    return ready();
  }
  /** Sends one message (in `fragments` frames when asked). */
  send(data: string | Buffer, opts: { binary?: boolean; fragments?: number } = {}): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    const buf = typeof data === 'string' ? Buffer.from(data) : data;
    if (this.sent.length < FRAMES_KEEP) this.sent.push({ ...frame(buf, opts.binary ?? false), dir: 'in' });
    const n = Math.max(1, opts.fragments ?? 1);
    const size = Math.ceil(buf.length / n);
    for (let i = 0; i < n; i++) this.ws.send(buf.subarray(i * size, Math.min(buf.length, (i + 1) * size)), { binary: opts.binary ?? false, fin: i === n - 1 });
  }
  ping(): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.ping();
  }
  /** Closes with a code and reason; the close handshake's answer is `closed`. */
  close(code?: number, reason?: string): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close(code, reason);
  }
  /** Ends the socket at once (the check is over). */
  end(): void {
    this.ws.terminate();
  }
}

/** Opens a socket route through the gateway; resolves with the open socket, the refusal, or what went wrong, within `timeoutMs`. */
export function openSocket(gateway: GatewayClient, o: SocketOptions): Promise<SocketOpening> {
  const route = gateway.prepare({ path: o.path, auth: o.auth, headers: o.headers, caseToken: o.caseToken });
  const url = route.url.replace(/^http/, 'ws');
  const headers: Record<string, string> = {};
  for (let i = 0; i < route.headers.length; i += 2) headers[route.headers[i]] = headers[route.headers[i]] !== undefined ? `${headers[route.headers[i]]}, ${route.headers[i + 1]}` : route.headers[i + 1];
  const t0 = performance.now();
  const ms = () => Math.round((performance.now() - t0) * 10) / 10;
  return new Promise((resolve) => {
    let done = false;
    const finish = (v: SocketOpening) => {
      if (done) return;
      done = true;
      cancel();
      resolve(v);
    };
    // Over https, the client's own TLS settings (--ca-file and the rest), as its HTTP requests have them.
    const ws = new WebSocket(url, o.protocols ?? [], { ...(gateway.connectOptions.connect ?? {}), headers, perMessageDeflate: o.deflate ? {} : false, maxPayload: MAX_MESSAGE, handshakeTimeout: o.timeoutMs, followRedirects: false });
    const cancel = patientTimeout(() => (ws.terminate(), finish({ kind: 'failed', error: `no answer to the upgrade within ${o.timeoutMs} ms`, ms: ms() })), o.timeoutMs + 1000);
    let upgradeHeaders: Array<[string, string]> = [];
    let raw: import('node:net').Socket | undefined;
    ws.on('upgrade', (res) => ((upgradeHeaders = pairs(res.rawHeaders)), (raw = res.socket)));
    ws.on('open', () => {
      // Every piece the socket reads is garbage soon: counted, so a flood is collected at its pace
      // (src/core/pressure.ts). Only once open: added at the upgrade, before ws's own reader, the client lost the first message (reference-socket.test.ts, realtime's greeting).
      raw?.on('data', (c: Buffer) => passedThrough(c.length));
    });
    ws.on('open', () => finish({ kind: 'open', socket: new ClientSocket(ws, performance.now()), status: 101, headers: upgradeHeaders, ms: ms() }));
    ws.on('unexpected-response', (req, res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => (finish({ kind: 'refused', status: res.statusCode ?? 0, headers: pairs(res.rawHeaders), body: Buffer.concat(chunks).toString('utf8').slice(0, REFUSAL_KEEP), ms: ms() }), req.destroy());
      // An endless body is cut at REFUSAL_KEEP: the refusal is what came so far.
      res.on('data', (c: Buffer) => (chunks.push(c), (size += c.length) >= REFUSAL_KEEP && done()));
      res.on('end', done);
      res.on('error', done);
      res.on('close', done);
    });
    ws.on('error', (e) => finish({ kind: 'failed', error: e.message, ms: ms() }));
  });
}

const pairs = (raw: string[]): Array<[string, string]> => {
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i], raw[i + 1]]);
  return out;
};
