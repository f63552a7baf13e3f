// The lifecycle the harness's own servers share (recording upstream, reference gateway,
// service emulator): listen on loopback by default, report a taken port as a harness error,
// and stop with every connection closed.
import http from 'node:http';
import { hostForUrl, listen } from './errors.js';

export abstract class LoopbackServer {
  protected readonly server: http.Server;
  url = '';

  /** `what` names the server in errors (e.g. "reference gateway"). */
  constructor(private readonly what: string) {
    this.server = http.createServer((req, res) => this.handle(req, res));
  }

  protected abstract handle(req: http.IncomingMessage, res: http.ServerResponse): void;

  async start(host = '127.0.0.1', port = 0): Promise<string> {
    const a = await listen(this.server, host, port, this.what);
    this.url = `http://${hostForUrl(a.address)}:${a.port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    if (!this.server.listening) return;
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}
