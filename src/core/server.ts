// The lifecycle the harness's own servers share (recording upstream, reference gateway,
// service emulator): listen on loopback by default, report a taken port as a harness error,
// and stop with every connection closed. A server may serve TLS (its certificate given), and
// then HTTP/2 too (ALPN h2, HTTP/1.1 for clients that do not offer it).
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import type { Socket } from 'node:net';
import { hostForUrl, listen, type HarnessErrorCode } from './errors.js';

/** A server's certificate and key (PEM), and whether it offers HTTP/2. */
export interface ServerTls {
  key: string;
  cert: string;
  http2?: boolean;
}

export abstract class LoopbackServer {
  /** An https or HTTP/2 server is used through the same calls as an http one (listen, close, events). */
  protected readonly server: http.Server;
  url = '';
  private readonly scheme: 'http' | 'https';
  private readonly h2Sockets = new Set<Socket>();

  /** `what` names the server in errors (e.g. "reference gateway"). */
  constructor(
    private readonly what: string,
    tls?: ServerTls,
  ) {
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => this.handle(req, res);
    this.scheme = tls ? 'https' : 'http';
    if (!tls) this.server = http.createServer(handler);
    else if (!tls.http2) this.server = https.createServer({ key: tls.key, cert: tls.cert }, handler) as unknown as http.Server;
    else {
      // The compatibility API gives the handler request and response objects of the same shape.
      const h2 = http2.createSecureServer({ key: tls.key, cert: tls.cert, allowHTTP1: true }, handler as never);
      h2.on('connection', (s: Socket) => {
        this.h2Sockets.add(s);
        s.on('close', () => this.h2Sockets.delete(s));
      });
      this.server = h2 as unknown as http.Server;
    }
  }

  protected abstract handle(req: http.IncomingMessage, res: http.ServerResponse): void;

  async start(host = '127.0.0.1', port = 0): Promise<string> {
    const a = await listen(this.server, host, port, this.what);
    this.url = `${this.scheme}://${hostForUrl(a.address)}:${a.port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    if (!this.server.listening) return;
    // An HTTP/2 server has no closeAllConnections: its sockets are closed one by one.
    if (typeof this.server.closeAllConnections === 'function') this.server.closeAllConnections();
    for (const s of this.h2Sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

/**
 * A refused request to the `mock` command's control endpoints (a run, an attach): one error
 * event as a whole NDJSON line, so the caller shows the mock's own words.
 */
export function refuseNdjson(res: http.ServerResponse, status: number, code: HarnessErrorCode, message: string): void {
  res.writeHead(status, { 'content-type': 'application/x-ndjson' }).end(`${JSON.stringify({ type: 'error', code, message })}\n`);
}
