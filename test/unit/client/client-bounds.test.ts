// The client's bounds count from the request whatever the gateway sends: a stream the client
// leaves at a time is left then even when no header came; closing the client ends answers that
// never end; once the gateway has left answers unfinished, later answers get a short budget.
import http from 'node:http';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayClient, GatewayTimeoutError } from '../../../src/client/gateway.js';
import { HUNG_AFTER, TimeLimitReached } from '../../../src/client/answer.js';
import { readStream } from '../../../src/client/sse.js';

const servers: net.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    (s as http.Server).closeAllConnections?.();
    await new Promise((r) => s.close(r));
  }
});
async function listen(s: net.Server): Promise<string> {
  servers.push(s);
  s.on('connection', (c: net.Socket) => c.on('error', () => undefined));
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(s.address() as net.AddressInfo).port}`;
}
/** A gateway that reads the request and never answers (no status line, no header). */
/** A check's signal as the runner aborts it at the check's time limit. */
function timeLimit(ms: number): AbortSignal {
  const ac = new AbortController();
  setTimeout(() => ac.abort(new TimeLimitReached(ms)), ms).unref();
  return ac.signal;
}

const silent = () => listen(net.createServer((s) => s.on('data', () => undefined)));

describe('client bounds count from the request', () => {
  it('a stream the client leaves at 300 ms is left then, though the gateway holds its headers back', async () => {
    const gw = new GatewayClient(await silent(), { token: 'tok-bounds-1', timeoutMs: 10_000 });
    const t0 = performance.now();
    const r = await readStream(gw, { path: '/v1/messages', body: '{}' }, { abortAfterMs: 300 });
    await gw.close();
    expect(r.leftBeforeHeaders).toBe(true);
    expect(r.status).toBe(0);
    expect(r.abortedAt! - r.startedAt).toBeGreaterThanOrEqual(290);
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(r.error).toMatch(/left \d+ ms after the request, before any response header arrived/);
  });

  it('closing the client ends an answer that never ends (a request left behind by a check)', async () => {
    const url = await listen(net.createServer((s) => s.once('data', () => s.write('HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\n{'))));
    const gw = new GatewayClient(url, { token: 'tok-bounds-2', timeoutMs: 60_000 });
    let seen!: () => void;
    const arrived = new Promise<void>((r) => (seen = r));
    gw.onProgress = (a) => a.status !== null && seen();
    const pending = gw.send({ path: '/' }).catch((e: unknown) => e);
    await arrived;
    const t0 = performance.now();
    await gw.close();
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(await pending).toBeInstanceOf(Error);
  });

  it(`after ${HUNG_AFTER} answers left unfinished for most of the limit, the next gets a short budget, and a completed answer restores the full one`, async () => {
    let hang = true;
    const url = await listen(
      http.createServer((req, res) => {
        if (!hang) res.end('{}');
        else res.writeHead(200).flushHeaders();
      }),
    );
    const gw = new GatewayClient(url, { token: 'tok-bounds-3', timeoutMs: 2000 });
    // The check's limit (the runner aborts the check's signal at it, with TimeLimitReached), twice.
    for (let i = 0; i < HUNG_AFTER; i++) await expect(gw.send({ path: '/', signal: timeLimit(1700) })).rejects.toBeInstanceOf(GatewayTimeoutError);
    const t0 = performance.now();
    const e = (await gw.send({ path: '/' }).catch((x: unknown) => x)) as GatewayTimeoutError;
    expect(performance.now() - t0).toBeLessThan(1700);
    expect(e).toBeInstanceOf(GatewayTimeoutError);
    expect(e.message).toMatch(/no complete answer within 1000 ms of the request: the gateway had left 2 answers in a row unfinished/);
    expect(e.arrived?.status).toBe(200);
    hang = false;
    expect((await gw.send({ path: '/' })).status).toBe(200);
    hang = true;
    // Full budget again: the request lasts until the check's own limit.
    const t1 = performance.now();
    await expect(gw.send({ path: '/', signal: timeLimit(1500) })).rejects.toThrow(/time limit/);
    expect(performance.now() - t1).toBeGreaterThanOrEqual(1400);
    await gw.close();
  });
});

describe('a connection the gateway closes without saying so', () => {
  /** Answers the first request on each connection; a second one on it is read and the connection closed (a keep-alive time-out). */
  const dropsSecond = () =>
    listen(
      net.createServer((s) => {
        let n = 0;
        s.on('data', () => {
          if (n++ === 0) s.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}');
          else s.destroy();
        });
      }),
    );

  it('a request that got no byte of an answer is sent once more on a fresh connection, and says so', async () => {
    const gw = new GatewayClient(await dropsSecond(), { token: 'tok-bounds-4', timeoutMs: 5000 });
    const got = [];
    for (let i = 0; i < 6; i++) got.push(await gw.send({ method: 'POST', path: '/v1/messages', body: '{}' }));
    await gw.close();
    expect(got.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(got.filter((r) => r.retriedAfter).length).toBeGreaterThan(0);
    expect(got.find((r) => r.retriedAfter)!.retriedAfter).toMatch(/UND_ERR_SOCKET|ECONNRESET|EPIPE/);
  });

  it('a connection that fails again is the transport error, not a time-out or a body', async () => {
    const url = await listen(net.createServer((s) => s.on('data', () => s.destroy())));
    const gw = new GatewayClient(url, { token: 'tok-bounds-5', timeoutMs: 5000 });
    const e = await gw.send({ method: 'POST', path: '/v1/messages', body: '{}' }).catch((x: unknown) => x);
    await gw.close();
    expect((e as Error).name).toBe('GatewayTransportError');
  });
});

describe('an answer that is not HTTP', () => {
  it('a header past the limit and a malformed status line are the gateway\'s invalid HTTP, named as such', async () => {
    for (const answer of [`HTTP/1.1 200 OK\r\nx-long: ${'v'.repeat(2 * 1024 * 1024)}`, 'HTTP/1.1 2OO OK\r\n\r\n']) {
      const url = await listen(net.createServer((s) => s.once('data', () => s.end(answer))));
      const gw = new GatewayClient(url, { token: 'tok-bounds-6', timeoutMs: 5000 });
      const e = (await gw.send({ path: '/' }).catch((x: unknown) => x)) as Error;
      await gw.close();
      expect(e.name).toBe('GatewayTransportError');
      expect(e.message).toMatch(/the answer is not valid HTTP: (HPE_|HTTPParserError|UND_ERR_HEADERS_OVERFLOW)/);
    }
  });
});
