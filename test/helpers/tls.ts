// TLS for the self-tests: certificates from the harness's own throw-away CA (written to a
// folder), and a small TLS (or h2c) front that forwards each request to a plain HTTP/1.1 gateway,
// so the harness's transport can be tried against the reference gateway.
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ThrowAwayCa } from '../../mocks/upstream/tls-ca.js';

export interface TestCerts {
  dir: string;
  ca: string;
  /** Good for 127.0.0.1 and localhost. */
  gateway: { cert: string; key: string };
  /** For another host name only. */
  wrongName: { cert: string; key: string };
  expired: { cert: string; key: string };
  client: { cert: string; key: string };
}

/** Writes a CA and the certificates the tests use into `dir`. */
export async function makeCerts(dir: string): Promise<TestCerts> {
  const ca = await ThrowAwayCa.create('gw-conformance test CA');
  const write = (name: string, pair: { certPem: string; keyPem: string }) => {
    writeFileSync(join(dir, `${name}.pem`), pair.certPem);
    writeFileSync(join(dir, `${name}-key.pem`), pair.keyPem);
    return { cert: join(dir, `${name}.pem`), key: join(dir, `${name}-key.pem`) };
  };
  writeFileSync(join(dir, 'ca.pem'), ca.certPem);
  return {
    dir,
    ca: join(dir, 'ca.pem'),
    gateway: write('gateway', ca.issue(['127.0.0.1', 'localhost'])),
    wrongName: write('wrong-name', ca.issue(['gateway.example'])),
    expired: write('expired', ca.issue(['127.0.0.1'], { expired: true })),
    client: write('client', ca.issue(['gwc-client'], { client: true })),
  };
}

const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'host']);

export interface Front {
  url: string;
  /** Requests per HTTP version the front received from the harness. */
  versions: Record<string, number>;
  stop(): Promise<void>;
}

/**
 * A front on a free loopback port: `https` (HTTP/1.1), `h2` (TLS, ALPN h2 or HTTP/1.1), `h2c`
 * (HTTP/2 prior knowledge, plain), each forwarding to `origin` over HTTP/1.1. `clientCa`: the
 * front asks for a client certificate that chains to it (mutual TLS).
 */
export async function front(mode: 'https' | 'h2' | 'h2c', origin: string, tls?: { cert: string; key: string; clientCa?: string }): Promise<Front> {
  const versions: Record<string, number> = {};
  const o = new URL(origin);
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    versions[req.httpVersion] = (versions[req.httpVersion] ?? 0) + 1;
    const headers: Record<string, string | string[]> = { host: o.host };
    for (const [k, v] of Object.entries(req.headers)) if (!k.startsWith(':') && !HOP.has(k) && v !== undefined) headers[k] = v;
    const up = http.request({ host: o.hostname, port: o.port, method: req.method, path: req.url, headers }, (ures) => {
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(ures.headers)) if (!HOP.has(k) && v !== undefined) out[k] = v;
      res.writeHead(ures.statusCode ?? 502, out);
      res.flushHeaders();
      ures.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  };
  const opts = tls
    ? { cert: readFileSync(tls.cert), key: readFileSync(tls.key), ...(tls.clientCa ? { requestCert: true, rejectUnauthorized: true, ca: readFileSync(tls.clientCa) } : {}) }
    : {};
  const server =
    mode === 'https'
      ? https.createServer(opts, handler)
      : mode === 'h2'
        ? http2.createSecureServer({ ...opts, allowHTTP1: true }, handler as never)
        : http2.createServer(handler as never);
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (s: import('node:net').Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as import('node:net').AddressInfo).port;
  return {
    url: `${mode === 'h2c' ? 'http' : 'https'}://127.0.0.1:${port}`,
    versions,
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
