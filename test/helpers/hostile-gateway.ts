// A hostile gateway for the self-tests: it forwards every request to the recording upstream
// (so the run is a real one: the upstream sees the traffic), then answers the client as badly
// as its case says: hangs, endless bodies, huge headers, invalid HTTP, markup and terminal
// escapes, the credential echoed back in every encoding. A separate test gateway rather than
// reference faults: most cases are not HTTP a node:http server would send (raw bytes on the
// socket), and none of them is a requirement a check should name, so they do not belong in
// the detection matrix; the reference gateway stays a model of a correct gateway with one
// deliberate fault at a time.
import http from 'node:http';
import type net from 'node:net';
import { request } from 'undici';
import type { HostileCase, Upstream } from './hostile-wire.js';
import { FIRST_CASES } from './hostile-cases.js';
import { SECOND_CASES } from './hostile-cases-2.js';
import { WS_CASES } from './hostile-cases-ws.js';

export { ANSI, echoes, MARKUP, type HostileCase, type HostileContext } from './hostile-wire.js';

/** Every case, in the order the test runs them. */
export const HOSTILE_CASES: HostileCase[] = [...FIRST_CASES, ...SECOND_CASES, ...WS_CASES];

/** How long the hostile gateway waits for its upstream's headers, and between body chunks. */
const UPSTREAM_TIMEOUT_MS = 3000;
export function hostileCase(name: string): HostileCase {
  const c = HOSTILE_CASES.find((x) => x.name === name);
  if (!c) throw new Error(`unknown hostile case ${name}`);
  return c;
}

function credentialOf(req: http.IncomingMessage): string {
  const h = req.headers;
  const auth = String(h.authorization ?? '').replace(/^Bearer\s+/i, '');
  const key = new URL(req.url ?? '/', 'http://x').searchParams.get('key');
  return auth || String(h['x-api-key'] ?? h['x-goog-api-key'] ?? key ?? '');
}

/** A hostile gateway in front of `upstream`, answering as `kase` says. */
export class HostileGateway {
  private server: http.Server;
  private sockets = new Set<net.Socket>();
  private timers = new Set<NodeJS.Timeout>();
  constructor(
    private readonly upstream: string,
    private readonly kase: HostileCase,
  ) {
    this.server = http.createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => void this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
      s.on('error', () => undefined);
      if (this.kase.noForward) s.destroy();
    });
    this.server.on('clientError', (_e, s) => s.destroy());
    // A case of the WebSocket upgrade answers it on the raw socket (hostile-cases-ws.ts).
    if (kase.upgrade) this.server.on('upgrade', (req: http.IncomingMessage, socket: net.Socket) => kase.upgrade!({ req, socket, flood: (next) => flood(socket, next) }));
  }

  /** `port`: a port leased for it (cases run at once: test/helpers/hostile-run.ts), else any. */
  async start(port = 0): Promise<string> {
    await new Promise<void>((r) => this.server.listen(port, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    try {
      for await (const ch of req) chunks.push(ch as Buffer);
    } catch {
      // The client went away while sending (a check cut off at its limit): nothing to answer.
      return;
    }
    const socket = req.socket;
    // The client's start-up probe is answered plainly unless the connection itself is the case,
    // or the case is how this gateway answers every request (headers past every limit).
    if (req.method === 'HEAD' && !['close-at-once', 'ctl-in-header', 'reset-before-answer', 'header-100mib-value', 'ten-thousand-lines'].includes(this.kase.name)) {
      res.writeHead(200, { 'content-length': '0' }).end();
      return;
    }
    let up: Upstream | null = null;
    // Its own upstream time-outs (3 s) are well below the harness's per-check limit in the hostile
    // test (4 s): a check whose upstream falls silent (the idle probe, the hung upstream) ends when
    // this gateway gives up, with a margin to the limit that tasks on the other core do not eat.
    try {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'].includes(k)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const r = await request(`${this.upstream}${req.url ?? '/'}`, { method: (req.method ?? 'GET') as 'GET', headers, body: chunks.length ? Buffer.concat(chunks) : undefined, headersTimeout: UPSTREAM_TIMEOUT_MS, bodyTimeout: UPSTREAM_TIMEOUT_MS });
      const body = Buffer.from(await r.body.arrayBuffer());
      const h: Record<string, string> = {};
      for (const [k, v] of Object.entries(r.headers)) if (v !== undefined) h[k] = Array.isArray(v) ? v.join(', ') : v;
      up = { status: r.statusCode, headers: h, body };
    } catch {
      up = null;
    }
    if (socket.destroyed) return;
    const every = (ms: number, fn: () => void) => {
      const t = setInterval(() => (socket.destroyed ? clearInterval(t) : fn()), ms);
      this.timers.add(t);
      socket.on('close', () => clearInterval(t));
    };
    // Raw cases write on the socket: node:http must not add its own answer.
    this.kase.answer({ req, res, socket, up, credential: credentialOf(req), every, flood: (next) => flood(socket, next) });
  }
}

/** Writes what `next` gives as fast as the socket drains, until it closes (or `next` gives nothing). */
function flood(socket: net.Socket, next: () => Buffer): void {
  socket.on('error', () => undefined);
  const pump = () => {
    while (!socket.destroyed && socket.writable) {
      const b = next();
      if (!b.length) return;
      if (!socket.write(b)) return void socket.once('drain', pump);
    }
  };
  pump();
}
