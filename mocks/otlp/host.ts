// One HTTP server for many loopback listeners: each listener's connections are handed to the one
// server (node:http's documented `connection` injection), and each request goes to the handler
// of the listener its connection came in by. The telemetry collector's tenants (collector.ts)
// share one this way, each on an address of its own that it alone can stop listening on
// (connections refused there) while the others go on.
import http from 'node:http';
import net from 'node:net';
import { hostForUrl, listen } from '../../src/core/errors.js';

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export class ConnectionHost {
  private readonly handlers = new WeakMap<net.Socket, Handler>();
  private readonly server = http.createServer((req, res) => {
    const h = this.handlers.get(req.socket);
    if (h) h(req, res);
    else res.destroy();
  });

  /** A listener (not yet listening) whose connections this server answers with `handler`; `what` names it in errors. */
  listener(handler: Handler, what: string): HostedListener {
    return new HostedListener((s) => {
      this.handlers.set(s, handler);
      this.server.emit('connection', s);
    }, what);
  }
}

export class HostedListener {
  url = '';
  private readonly sockets = new Set<net.Socket>();
  private readonly server: net.Server;

  constructor(
    adopt: (s: net.Socket) => void,
    private readonly what: string,
  ) {
    this.server = net.createServer((s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
      adopt(s);
    });
  }

  get listening(): boolean {
    return this.server.listening;
  }

  /** Listens on host:port (a taken port is a harness error naming the listener); returns the URL. */
  async listen(host: string, port: number): Promise<string> {
    const a = await listen(this.server, host, port, this.what);
    this.url = `http://${hostForUrl(a.address)}:${a.port}`;
    return this.url;
  }

  /** Stops listening and ends every open connection: from now on a connection to the address is refused. */
  async close(): Promise<void> {
    if (!this.server.listening) return;
    const closed = new Promise<void>((r) => this.server.close(() => r()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }
}
