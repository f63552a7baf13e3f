// The reference gateway's HTTP/2 hop (reference/h2.ts, CONN-IDLE-1): the header conversions of
// its adapter, and its pool against a bare HTTP/2 server: a stream whose connection the upstream
// drops fails at once (it gets no error of its own from node), and the next request goes on a new
// session; a reset stream fails alone, or, with the fault's pool, takes every later request down.
import http2 from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upstreamTls, type UpstreamTls } from '../../../mocks/upstream/tls-ca.js';
import { answerHeaders, H2Pool, requestHeaders, type UpstreamRequest } from '../../../reference/h2.js';
import type { Fault } from '../../../reference/faults/index.js';

describe('header conversions', () => {
  it('sends host as :authority, names lower-case, a repeated field as a list', () => {
    expect(requestHeaders('POST', '/v1/messages', ['Host', 'up:1', 'X-A', '1', 'x-a', '2', 'Content-Type', 'application/json'])).toEqual({
      ':method': 'POST',
      ':path': '/v1/messages',
      ':authority': 'up:1',
      'x-a': ['1', '2'],
      'content-type': 'application/json',
    });
  });

  it('reads an answer without its pseudo-headers, a list as repeated raw fields', () => {
    // As node gives them: ':status' a number, which the header map's type does not allow.
    const given = { ':status': 200, 'content-type': 'text/plain', 'set-cookie': ['a=1', 'b=2'] } as unknown as Parameters<typeof answerHeaders>[0];
    expect(answerHeaders(given)).toEqual({
      headers: { 'content-type': 'text/plain', 'set-cookie': ['a=1', 'b=2'] },
      rawHeaders: ['content-type', 'text/plain', 'set-cookie', 'a=1', 'set-cookie', 'b=2'],
    });
  });
});

/** What became of one request: its status, or its error's message. */
function outcome(r: UpstreamRequest): Promise<string> {
  return new Promise((done) => {
    r.on('response', (ur: { statusCode: number; resume(): void }) => (ur.resume(), done(`status ${ur.statusCode}`)));
    r.on('error', (e: Error) => done(`error: ${e.message}`));
    r.end();
  });
}

it('refuses a plain http upstream: the HTTP/2 hop is over TLS', () => {
  expect(() => new H2Pool(new URL('http://127.0.0.1:1'), undefined, { name: 'h2-x', breaks: [], description: '', upstreamHttp2: {} })).toThrow(/fault h2-x: .*https:\/\/ URL \(got http:\/\/127\.0\.0\.1:1\)/);
});

describe('the HTTP/2 pool against a bare HTTP/2 server', () => {
  let tls: UpstreamTls;
  let server: http2.Http2SecureServer;
  let origin: URL;
  const sockets = new Set<Socket>();
  /** What the server does with each stream, by path. */
  const behave: Record<string, (s: http2.ServerHttp2Stream) => void> = {
    '/drop': () => sockets.forEach((s) => s.destroy()),
    '/reset': (s) => s.close(http2.constants.NGHTTP2_INTERNAL_ERROR),
    '/ok': (s) => s.respond({ ':status': 200 }, { endStream: true }),
  };
  beforeAll(async () => {
    tls = await upstreamTls('127.0.0.1');
    server = http2.createSecureServer({ key: tls.keyPem, cert: tls.certPem });
    server.on('connection', (s: Socket) => sockets.add(s).size && s.on('close', () => sockets.delete(s)));
    // The server's own side of a reset stream errors too: nothing to report here.
    server.on('stream', (s, h) => (s.on('error', () => {}), behave[String(h[':path'])](s)));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = new URL(`https://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  afterAll(() => new Promise<void>((r) => (sockets.forEach((s) => s.destroy()), server.close(() => r()))));

  const send = (pool: H2Pool, path: string) => outcome(pool.request('GET', path, ['host', origin.host]));
  const fault = (upstreamHttp2: Fault['upstreamHttp2']): Fault => ({ name: 'test', breaks: [], description: '', upstreamHttp2 });

  it('a stream whose connection the upstream drops fails with an error; the next request goes on a new session', { timeout: 10_000 }, async () => {
    const pool = new H2Pool(origin, tls.caPem, fault({}));
    try {
      expect(await send(pool, '/drop')).toBe('error: the HTTP/2 stream closed before its answer');
      expect(await send(pool, '/ok')).toBe('status 200');
    } finally {
      pool.close();
    }
  });

  it('a reset stream fails alone: the next request is answered on the same pool', async () => {
    const pool = new H2Pool(origin, tls.caPem, fault({}));
    try {
      expect(await send(pool, '/reset')).toMatch(/^error: .*NGHTTP2_INTERNAL_ERROR/);
      expect(await send(pool, '/ok')).toBe('status 200');
    } finally {
      pool.close();
    }
  });

  it('the fault: after a reset stream the pool hands out its destroyed session, and every later request fails', async () => {
    const pool = new H2Pool(origin, tls.caPem, fault({ resetPoisonsSession: true }));
    try {
      expect(await send(pool, '/ok')).toBe('status 200');
      expect(await send(pool, '/reset')).toMatch(/NGHTTP2_INTERNAL_ERROR/);
      expect(await send(pool, '/ok')).toMatch(/^error: /);
      expect(await send(pool, '/ok')).toMatch(/^error: /);
    } finally {
      pool.close();
    }
  });
});
