// Verdicts that must not flip when this process is held (another run's set-up beside it, a
// collection, a loaded machine), and connection trouble that must not be judged as anything but
// the connection verdict. Each hold is injected: a synchronous busy-wait of a few seconds in this
// process, at the moment it did harm on a loaded machine; each slow peer is a scripted delay.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RecordingUpstream } from '../mocks/upstream/server.js';
import { DEMO_UPSTREAM_TIMEOUT_MS, ReferenceGateway } from '../reference/gateway.js';
import { GatewayClient, messagesHeaders } from '../src/client/gateway.js';
import { UpstreamHandle } from '../src/upstream/handle.js';
import { newCaseToken } from '../src/upstream/contract.js';
import { messageBody } from '../src/upstream/replies/messages.js';
import { largeBodyParts } from '../suites/errors/errors.body.large.js';
import { PROVIDER_LIMIT_BYTES } from '../suites/errors/errors.body.size-limit.js';
import discModels from '../suites/apps/apps.disc.models.js';
import { call } from '../suites/apps/wire.js';
import { once, type AppsFixture } from '../suites/apps/fixture.js';
import { defineCheck, pass, type CheckContext, type RunSettings } from '../src/check/check.js';
import discoveryLatency from '../suites/discovery/discovery.models.latency.js';
import serviceModels from '../suites/service/service.models.list.js';
import { runOne } from '../src/runner/runner.js';
import headRoot from '../suites/errors/errors.probe.head-root.js';
import recovers from '../suites/errors/errors.upstream.recovers.js';
import cancels from '../suites/streaming/streaming.abort.cancels-upstream.js';
import type { UpstreamHandle as Handle } from '../src/upstream/handle.js';
import type { Upstream } from '../src/upstream/upstream.js';

/** Holds this process's event loop for `ms` (what another run's synchronous work does to it). */
const hold = (ms: number) => {
  const t = performance.now();
  while (performance.now() - t < ms) {
    /* held */
  }
};

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function serve(handler: http.RequestListener): Promise<string> {
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

/** 32 MB through the clean reference gateway (the demo's 2 s upstream time-out) to `upstream`. */
async function large(upstream: string, token = newCaseToken()): Promise<{ status: number; error?: string }> {
  const gw = new ReferenceGateway({ upstream, upstreamTimeoutMs: DEMO_UPSTREAM_TIMEOUT_MS });
  const target = await gw.start('127.0.0.1', 0);
  const client = new GatewayClient(target, { token: 'sk-test', timeoutMs: 30_000 });
  closers.push(() => gw.stop(), () => client.close());
  const { body } = largeBodyParts(PROVIDER_LIMIT_BYTES, 1, token);
  try {
    const res = await client.send({ method: 'POST', path: '/v1/messages', body, headers: messagesHeaders(), caseToken: token });
    return { status: res.status };
  } catch (e) {
    return { status: 0, error: (e as Error).message };
  }
}

describe('the reference gateway\'s upstream time-out (certify: a 32 MB body reset under load)', () => {
  it('this process held past the time-out while the upstream answers: 200, not a 504', async () => {
    // The recording upstream runs in this process, as in demo and the self-tests.
    const up = new RecordingUpstream();
    await up.start('127.0.0.1', 0);
    closers.push(() => up.stop());
    const e = new UpstreamHandle(up).next().json(messageBody());
    const upstream = await serve((req, res) => {
      // Forwarded to the recording upstream once the body is in; the process is held just then.
      const fwd = http.request(`${up.url}${req.url}`, { method: req.method, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      req.pipe(fwd);
      req.on('end', () => setImmediate(() => hold(DEMO_UPSTREAM_TIMEOUT_MS * 1.5)));
    });
    expect(await large(upstream, e.token)).toEqual({ status: 200 });
  });
});

describe('apps requests: connection trouble is the connection verdict', () => {
  it('a connection reset before any header is sent once more on a fresh connection, as a client does', async () => {
    let n = 0;
    const url = await serve((req, res) => {
      if (n++ === 0) return req.socket.destroy();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    const r = await call(`${url}/v1/models`);
    expect([r.status, r.json, n]).toEqual([200, { ok: true }, 2]);
    expect(r.retriedAfter).toMatch(/ECONNRESET|UND_ERR_SOCKET|other side closed/);
  });

  it('reset twice: a GatewayTransportError (the runner\'s connection verdict), or with `partial` a cut reply', async () => {
    const url = await serve((req) => req.socket.destroy());
    await expect(call(`${url}/v1/models`)).rejects.toMatchObject({ name: 'GatewayTransportError', beforeAnswer: true });
    const cut = await call(`${url}/v1/messages`, { method: 'POST', bodyJson: {}, partial: true });
    expect(cut.status).toBe(0);
    expect(cut.cut).toMatch(/^the connection ended before any header: /);
  });
});

describe('apps.disc.models judges the gateway\'s time, not this process\'s holds', () => {
  /** The check against a stub /v1/models, alice's session given (sign-in is not what is judged here). */
  async function discovery(answer: (withToken: boolean, res: http.ServerResponse, nth: number) => void) {
    let nth = 0;
    const url = await serve((req, res) => answer(!!req.headers.authorization, res, nth++));
    const fx = { gatewayUrl: url } as AppsFixture;
    void once(fx, 'session:alice', async () => ({ ok: true, tokens: { access_token: 'session-token', refresh_token: 'r', expires_in: 3600 }, steps: [], handedOut: [] }));
    return discModels.run({ fixture: fx, signal: new AbortController().signal, log: () => {} } as unknown as CheckContext);
  }
  const json = (res: http.ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const reply = (withToken: boolean, res: http.ServerResponse) => (withToken ? json(res, 200, { data: [{ id: 'claude-sonnet-4-6' }] }) : json(res, 401, { error: 'unauthorized' }));

  it('this process held past 3 s during the first call: measured again, pass', async () => {
    const v = await discovery((withToken, res, nth) => {
      if (nth === 0) hold(3300);
      reply(withToken, res);
    });
    expect([v.ok, v.message]).toEqual([true, expect.stringMatching(/measured 2 times/)]);
  });

  it('a gateway that answers after 5 s (this process free meanwhile): fail', async () => {
    const v = await discovery((withToken, res) => (withToken ? reply(true, res) : setTimeout(() => reply(false, res), 5000)));
    expect([v.ok, v.message]).toEqual([false, 'model discovery took longer than 3 s']);
  });
});

const settings: RunSettings = { seed: 1, numRuns: 1, timeoutMs: 1000, modelRoutes: {}, sse: { maxLagMs: 200, burstWindowMs: 20, latP50Ms: 50 }, idle: { maxS: 120, minS: 65 }, hangWaitMs: 1000 };

/** A model list for every request; `before(nth, answer)` answers the nth request (default: at once). */
async function modelList(before: (nth: number, answer: () => void) => void): Promise<CheckContext> {
  let nth = 0;
  const url = await serve((req, res) => before(nth++, () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[{"id":"claude-sonnet-4-6"}]}')));
  const gateway = new GatewayClient(url, { token: 'sk-test', timeoutMs: 30_000 });
  closers.push(() => gateway.close());
  // The checks only script their cases; the stub answers in the upstream's place.
  const expectation = () => ({ token: newCaseToken(), hits: [] });
  const upstream = { next: () => ({ json: expectation, error: expectation }) } as unknown as Handle;
  return { gateway, upstream, settings, signal: new AbortController().signal, log: () => {} };
}

describe('DISC-3 and SVC-3 judge the gateway\'s time, not this process\'s holds', () => {
  it('DISC-3: this process held past 3 s during the third call: that call measured again, pass', async () => {
    const ctx = await modelList((nth, answer) => (nth === 2 && hold(3300), answer()));
    const v = await discoveryLatency.run(ctx);
    expect([v.ok, v.message]).toEqual([true, expect.stringMatching(/all within 3000 ms \(1 call measured again/)]);
  });

  it('DISC-3: a gateway that answers the fifth call after 4 s (this process free meanwhile): fail', async () => {
    const ctx = await modelList((nth, answer) => (nth === 4 ? setTimeout(answer, 4000) : answer()));
    const v = await discoveryLatency.run(ctx);
    expect([v.ok, v.message]).toEqual([false, expect.stringMatching(/^discovery call 5 \(bearer\) took \d+ ms, past the client's 3000 ms time-out/)]);
  });

  it('SVC-3: this process held past 3 s during the first call: measured again, pass', async () => {
    const ctx = await modelList((nth, answer) => (nth === 0 && hold(3300), answer()));
    const v = await serviceModels.run(ctx);
    expect([v.ok, v.message]).toEqual([true, expect.stringMatching(/measured again: with the key \(this process was held\)$/)]);
  });

  it('SVC-3: a service that answers after 4 s (this process free meanwhile): fail', async () => {
    const ctx = await modelList((nth, answer) => (nth === 1 ? setTimeout(answer, 4000) : answer()));
    const v = await serviceModels.run(ctx);
    expect([v.ok, v.message]).toEqual([false, expect.stringMatching(/^with the key, again: the model list took \d+ ms$/)]);
  });
});

describe('the runner\'s time limit of a check counts the check\'s time, not this process\'s holds', () => {
  const env = { gateway: {} as GatewayClient, upstream: null as Upstream | null, settings, declared: new Set<string>(['messages']) };
  const fetching = (url: string) =>
    defineCheck({ id: 'held', title: 'held', requirements: ['X-1'], level: 'MUST', area: 'test', profile: 'default', protocol: 'messages', requirement: 'held', run: async (ctx) => pass(`${(await fetch(url, { signal: ctx.signal })).status}`) });

  it('this process held past the 1 s limit while the answer was on its way: pass, not a timeout', async () => {
    // Held just as the answer is written: after the hold the timers run before the answer is read.
    const url = await serve((req, res) => (hold(1500), res.end('ok')));
    const r = await runOne(fetching(url), env);
    expect([r.outcome, r.message]).toEqual(['pass', '200']);
  });

  it('a check whose answer never comes (this process free meanwhile) still times out', async () => {
    const url = await serve(() => undefined);
    const r = await runOne(fetching(url), env);
    expect([r.outcome, r.message]).toEqual(['timeout', expect.stringMatching(/^no answer within the time limit \(1000 ms for this check\)/)]);
  });
});

/**
 * The clean reference gateway behind a relay that hands each answer to `onAnswer` as it comes
 * back, to pass it on (at once, later, or after holding this process): a check's context on it.
 */
async function relayed(onAnswer: (method: string, status: number, passOn: () => void) => void, onLeft: (goOn: () => void) => void = (goOn) => goOn()): Promise<CheckContext> {
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

describe('a probe\'s 3 s bound counts the gateway\'s silence, not this process\'s holds (errors.probe.head-root)', () => {
  it('this process held past 3 s as the first probe\'s answer comes back: pass', async () => {
    let held = false;
    const v = await headRoot.run(
      await relayed((method, _, passOn) => {
        if (method === 'HEAD' && !held) (held = true), hold(3300);
        passOn();
      }),
    );
    expect([v.ok, v.message]).toEqual([true, expect.stringMatching(/^HEAD \/ answered \d+ in \d+ ms.*; a messages request after them got 200$/)]);
  });

  it('a gateway that keeps a probe\'s answer 4 s (this process free meanwhile): fail', async () => {
    let slow = false;
    const v = await headRoot.run(await relayed((method, _, passOn) => (method === 'HEAD' && !slow ? ((slow = true), setTimeout(passOn, 4000)) : passOn())));
    expect([v.ok, v.message]).toEqual([false, expect.stringMatching(/^HEAD \/(api\/hello)? got no answer: nothing within 3000 ms$/)]);
  });
});

describe('ERR-RECOVER-1 judges the gateway\'s time to serve again, not this process\'s holds', () => {
  it('this process held past 5 s as the first answer after the outage comes back: the outage made again, pass', async () => {
    let held = false;
    const v = await recovers.run(
      await relayed((method, status, passOn) => {
        if (method === 'POST' && status === 200 && !held) (held = true), hold(5500);
        passOn();
      }),
    );
    expect([v.ok, v.message]).toEqual([true, expect.stringMatching(/^serving again \d+ ms after the upstream was back \(\d+ probes?\) \(the outage made 2 times/)]);
  });

  it('a gateway that answers its first success after the outage 6 s late (this process free meanwhile): warn', async () => {
    let first: number | undefined;
    const v = await recovers.run(
      await relayed((method, status, passOn) => {
        if (method !== 'POST' || status !== 200) return passOn();
        first ??= performance.now();
        setTimeout(passOn, Math.max(0, first + 6000 - performance.now()));
      }),
    );
    expect([v.ok, v.message]).toEqual([false, expect.stringMatching(/^the gateway served again only \d+ ms after the upstream was back/)]);
  });
});

describe('SSE-ABORT-1 judges the gateway\'s time to cancel the upstream, not this process\'s holds', () => {
  const passOn = (_: string, __: number, go: () => void) => go();

  it('this process held 2.5 s just as the client left: measured again, pass', async () => {
    let held = false;
    const v = await cancels.run(await relayed(passOn, (goOn) => (!held && ((held = true), hold(2500)), goOn())));
    expect([v.ok, v.message]).toEqual([true, expect.stringMatching(/^the upstream request closed \d+ ms after the client disconnected \(measured 2 times/)]);
  });

  it('a gateway that closes the upstream request 3 s after the client left (this process free meanwhile): warn', async () => {
    const v = await cancels.run(await relayed(passOn, (goOn) => setTimeout(goOn, 3000)));
    expect([v.ok, v.message]).toEqual([false, expect.stringMatching(/^the upstream request closed \d+ ms after the client disconnected$/)]);
  });
});
