// Verdicts that must not flip when this process is held (another run's set-up beside it, a
// collection, a loaded machine), and connection trouble that must not be judged as anything but
// the connection verdict. Each hold is injected: a synchronous busy-wait of a few seconds in this
// process, at the moment it did harm on a loaded machine; each slow peer is a scripted delay.
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { RecordingUpstream } from '../../mocks/upstream/server.js';
import { DEMO_UPSTREAM_TIMEOUT_MS, ReferenceGateway } from '../../reference/gateway.js';
import { GatewayClient, messagesHeaders } from '../../src/client/gateway.js';
import { UpstreamHandle } from '../../src/upstream/handle.js';
import { newCaseToken } from '../../src/upstream/contract.js';
import { messageBody } from '../../src/protocols/messages/index.js';
import { largeBodyParts } from '../../suites/errors/errors.body.large.js';
import { PROVIDER_LIMIT_BYTES } from '../../suites/errors/errors.body.size-limit.js';
import discModels from '../../suites/apps/apps.disc.models.js';
import { call } from '../../suites/apps/wire.js';
import { once, type AppsFixture } from '../../suites/apps/fixture.js';
import { defineCheck, pass, type CheckContext } from '../../src/check/check.js';
import discoveryLatency from '../../suites/discovery/discovery.models.latency.js';
import serviceModels from '../../suites/service/service.models.list.js';
import { runOne } from '../../src/runner/runner.js';
import type { UpstreamHandle as Handle } from '../../src/upstream/handle.js';
import type { Upstream } from '../../src/upstream/upstream.js';
import { closers, hold, relayed, serve, settings } from '../helpers/held.js';
import nativeBodySemantic from '../../suites/native/native.body.semantic.js';
import { fixtureTexts } from '../../suites/shared/fixtures.js';

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
    defineCheck({ id: 'held', title: 'held', requirements: ['X-1'], level: 'MUST', area: 'test', profile: 'default', protocol: 'messages', requirement: 'held', fix: 'held', run: async (ctx) => pass(`${(await fetch(url, { signal: ctx.signal })).status}`) });

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

describe('a property stops sending bodies at 0.8 of the check\'s limit of the gateway\'s time, not of this process\'s holds', () => {
  // T = 2000 ms: bodies stop at 1.6 s of the gateway's time (holds put it off by 1.6 s at the most).
  // The fixtures go first; the property's clock starts after them, at its first body.
  const FIXTURES = fixtureTexts('native').length;
  const BODIES = 8;
  async function property(onFirstBody: (passOn: () => void) => void) {
    let nth = 0;
    const ctx = await relayed((_method, _status, passOn) => (nth++ === FIXTURES ? onFirstBody(passOn) : passOn()));
    return nativeBodySemantic.run({ ...ctx, settings: { ...ctx.settings, numRuns: BODIES, timeoutMs: 2000 } });
  }

  it('this process held 1.55 s during the first body (the wall clock past 1.6 s a body later): every body is sent', async () => {
    const v = await property((passOn) => (hold(1550), passOn()));
    expect([v.ok, v.message]).toEqual([true, `semantic equality of native bodies held for ${BODIES} generated bodies (--seed 1)`]);
  });

  it('the first body answered after 3.5 s (this process free meanwhile, past the stop\'s 3.2 s at the most): the rest are not sent, and the verdict says so', async () => {
    const v = await property((passOn) => setTimeout(passOn, 3500));
    expect([v.ok, v.message]).toEqual([true, expect.stringMatching(`held for 1 generated bodies; ${BODIES - 1} more generated and not sent: the check's time`)]);
  });
});
