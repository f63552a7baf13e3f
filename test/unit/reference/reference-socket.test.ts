// The WebSocket path end to end in one process: the recording upstream's socket side
// (mocks/upstream/socket.ts), the reference gateway's relay (reference/socket.ts) and the
// harness's client (src/client/socket.ts), on each socket route: the upgrade recorded with its
// headers and query, the route's own frames answered, closes passed on, refusals passed as they
// came, a plain request recorded as such, and a gateway that answers garbage or never answers
// ending in an outcome within its bound.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordingUpstream } from '../../../mocks/upstream/server.js';
import { ReferenceGateway } from '../../../reference/gateway.js';
import { GatewayClient } from '../../../src/client/gateway.js';
import { openSocket } from '../../../src/client/socket.js';
import { SOCKET_ROUTES } from '../../../src/core/protocols.js';
import { socketRoute } from '../../../src/protocols/index.js';

const TOKEN = 'sk-gwc-socket-test-0123456789';
let up: RecordingUpstream;
let gw: ReferenceGateway;
let client: GatewayClient;

beforeAll(async () => {
  up = new RecordingUpstream();
  await up.start();
  gw = new ReferenceGateway({ upstream: up.url });
  client = new GatewayClient(await gw.start(), { token: TOKEN, timeoutMs: 5000 });
});
afterAll(async () => {
  await gw.stop();
  await up.stop();
});

describe('the WebSocket routes through the reference gateway', () => {
  for (const name of SOCKET_ROUTES) {
    it(`${name}: the upgrade arrives with its headers and query, the turn is answered in the route's frames, a close passes both ways`, async () => {
      const { route } = socketRoute(name);
      const c = up.expectSocket!({ route: name, protocol: 'p2' });
      const o = await openSocket(client, { path: route.path(route.model), headers: route.headers, auth: route.credential, caseToken: c.token, protocols: ['p1', 'p2'], timeoutMs: 5000 });
      expect(o.kind).toBe('open');
      if (o.kind !== 'open') return;
      expect(o.socket.protocol).toBe('p2');
      const rec = c.sockets[0];
      expect(rec.subprotocols).toEqual(['p1', 'p2']);
      expect(rec.url).toBe(route.credential === 'key-query' ? `${route.path(route.model)}?key=${TOKEN}` : route.path(route.model));
      for (const [k, v] of route.headers) expect(rec.headers).toContainEqual([k, v]);
      for (const f of route.turn(`hello ${c.token}`)) o.socket.send(f);
      expect(await o.socket.until(() => o.socket.frames.some((f) => route.typeOf(f.text) === route.ends), 5000)).toBe(true);
      expect(o.socket.frames.every((f) => f.binary === route.serverBinary)).toBe(true);
      // What the client got is what the upstream sent, in order.
      expect(o.socket.frames.map((f) => f.sha256)).toEqual(rec.frames.filter((f) => f.dir === 'out').map((f) => f.sha256));
      o.socket.close(4321, 'bye now');
      expect(await c.closed(5000)).toMatchObject({ code: 4321, reason: 'bye now', by: 'peer' });
    });
  }

  it('an upstream refusal reaches the client as it came, one answer, and no socket opens at the upstream', async () => {
    const c = up.expectSocket!({ route: 'responses', refuse: { status: 426, body: '{"error":{"message":"no"}}' } });
    const o = await openSocket(client, { path: '/v1/responses', caseToken: c.token, timeoutMs: 5000 });
    expect(o).toMatchObject({ kind: 'refused', status: 426, body: '{"error":{"message":"no"}}' });
    expect(c.sockets).toHaveLength(0);
    expect(c.plain).toHaveLength(1);
  });

  it('a plain GET on a socket route for a case is recorded as plain and answered 426', async () => {
    const c = up.expectSocket!({ route: 'realtime' });
    const res = await fetch(`${up.url}/v1/realtime?model=x`, { headers: { 'x-gwc-case': c.token } });
    expect(res.status).toBe(426);
    expect(await c.arrived(1000)).toBe('plain');
  });

  it('an upgrade no case expects is refused 404 by the upstream and listed as unmatched', async () => {
    const o = await openSocket(client, { path: '/v1/responses', timeoutMs: 5000 });
    expect(o).toMatchObject({ kind: 'refused', status: 404 });
    expect(up.unmatched.some((u) => u.reason.startsWith('WebSocket upgrade'))).toBe(true);
  });
});

describe('a hostile answer to the upgrade ends in an outcome within its bound', () => {
  const hostile = (answer: (s: net.Socket) => void) => {
    const server = net.createServer((s) => (s.on('error', () => s.destroy()), s.once('data', () => answer(s))));
    return new Promise<{ url: string; close: () => void }>((r) => server.listen(0, '127.0.0.1', () => r({ url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, close: () => server.close() })));
  };
  it('garbage instead of an HTTP answer: failed', async () => {
    const h = await hostile((s) => s.end('\x00\x01garbage\r\n\r\n'));
    const o = await openSocket(new GatewayClient(h.url, { token: '', timeoutMs: 2000 }), { path: '/v1/responses', timeoutMs: 2000 });
    h.close();
    expect(o.kind).toBe('failed');
  });
  it('no answer at all: failed once the bound is over', async () => {
    const h = await hostile(() => undefined);
    const o = await openSocket(new GatewayClient(h.url, { token: '', timeoutMs: 500 }), { path: '/v1/responses', timeoutMs: 500 });
    h.close();
    expect(o.kind).toBe('failed');
    if (o.kind === 'failed') expect(o.error).toMatch(/handshake|no answer/i);
  });
  it('a refusal with an endless body: the refusal, its body cut', async () => {
    const h = await hostile((s) => {
      s.write('HTTP/1.1 405 Method Not Allowed\r\ncontent-type: text/plain\r\n\r\n');
      const chunk = 'x'.repeat(64 * 1024);
      const more = () => !s.destroyed && s.write(chunk, () => setImmediate(more));
      more();
    });
    const o = await openSocket(new GatewayClient(h.url, { token: '', timeoutMs: 5000 }), { path: '/v1/responses', timeoutMs: 5000 });
    h.close();
    expect(o.kind).toBe('refused');
    if (o.kind === 'refused') expect(o.body.length).toBeLessThanOrEqual(16 * 1024);
  });
});
