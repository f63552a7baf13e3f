// What the held-process tests share: a hold of this process's event loop (a synchronous
// busy-wait, what another run's work does to it), stub servers and the clean reference gateway
// behind a relay, each closed after its test.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach } from 'vitest';
import { RecordingUpstream } from '../../mocks/upstream/server.js';
import { DEMO_UPSTREAM_TIMEOUT_MS, ReferenceGateway } from '../../reference/gateway.js';
import { GatewayClient } from '../../src/client/gateway.js';
import { UpstreamHandle } from '../../src/upstream/handle.js';
import type { CheckContext, RunSettings } from '../../src/check/check.js';

/** Holds this process's event loop for `ms` (what another run's synchronous work does to it). */
export const hold = (ms: number) => {
  const t = performance.now();
  while (performance.now() - t < ms) {
    /* held */
  }
};

/** Run settings with a 1 s limit per check. */
export const settings: RunSettings = { seed: 1, numRuns: 1, timeoutMs: 1000, modelRoutes: {}, sse: { maxLagMs: 200, burstWindowMs: 20, latP50Ms: 50 }, idle: { maxS: 120, minS: 65 }, hangWaitMs: 1000 };

/** What a test file starts, closed (latest first) after each of its tests. */
export const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** A loopback HTTP server with `handler`, its URL; closed after the test with its connections. */
export async function serve(handler: http.RequestListener): Promise<string> {
  const s = http.createServer(handler);
  const sockets = new Set<Socket>();
  s.on('connection', (c) => (sockets.add(c), c.on('close', () => sockets.delete(c))));
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  closers.push(async () => {
    for (const c of sockets) c.destroy();
    await new Promise((r) => s.close(r));
  });
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

/**
 * The clean reference gateway behind a relay that hands each answer to `onAnswer` as it comes
 * back, to pass it on (at once, later, or after holding this process): a check's context on it.
 */
export async function relayed(onAnswer: (method: string, status: number, passOn: () => void) => void, onLeft: (goOn: () => void) => void = (goOn) => goOn()): Promise<CheckContext> {
  const up = new RecordingUpstream();
  await up.start('127.0.0.1', 0);
  const gw = new ReferenceGateway({ upstream: up.url, upstreamTimeoutMs: DEMO_UPSTREAM_TIMEOUT_MS });
  const target = await gw.start('127.0.0.1', 0);
  closers.push(() => up.stop(), () => gw.stop());
  const front = await serve((req, res) => {
    const fwd = http.request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (r) => {
      onAnswer(req.method ?? 'GET', r.statusCode ?? 502, () => (res.writeHead(r.statusCode ?? 502, r.headers), r.pipe(res)));
    });
    req.pipe(fwd);
    // A client that leaves before the end: the gateway behind sees its connection close too (`onLeft` says when).
    res.on('close', () => !res.writableFinished && onLeft(() => fwd.destroy()));
  });
  const gateway = new GatewayClient(front, { token: 'sk-test', timeoutMs: 30_000 });
  closers.push(() => gateway.close());
  return { gateway, upstream: new UpstreamHandle(up), settings: { ...settings, timeoutMs: 10_000 }, signal: new AbortController().signal, log: () => {} };
}
