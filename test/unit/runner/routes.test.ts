// Routes through a translating gateway: a check's requests that reach the recording upstream in
// another protocol than the client's are counted per route; a check that declares what a
// translation cannot keep (untranslatable) skips there with the route as the reason, and runs
// as usual on a pass-through; the checks of translated routes are picked where the readiness
// canary of their protocol was translated. The "gateway" here is a path rewriter on loopback.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineCheck, fail, pass, type CheckDef, type RunSettings } from '../../../src/check/check.js';
import { GatewayClient } from '../../../src/client/gateway.js';
import { runOne, type RunEnv } from '../../../src/runner/runner.js';
import { onRoutes, translatedProtocols } from '../../../src/runner/registry.js';
import { routesOf, routeLines } from '../../../src/report/run/routes.js';
import { RecordingUpstream } from '../../../mocks/upstream/server.js';
import { messageBody } from '../../../src/protocols/messages/index.js';
import { withToken, CASE_PLACEHOLDER } from '../../../src/upstream/contract.js';
import { RECORDS } from '../../../src/protocols/index.js';
import type { Readiness } from '../../../src/report/shared/readiness.js';
import type { CheckResult } from '../../../src/report/shared/types.js';
import { namingJudgesThatJudged } from '../../../src/runner/translated-skips.js';

const settings: RunSettings = { seed: 1, numRuns: 1, timeoutMs: 5000, modelRoutes: {}, sse: { maxLagMs: 200, burstWindowMs: 20, latP50Ms: 50 }, idle: { maxS: 120, minS: 65 }, hangWaitMs: 1000 };

let up: RecordingUpstream;
let proxy: http.Server;
let rewrite = true;
beforeAll(async () => {
  up = new RecordingUpstream();
  await up.start();
  const target = new URL(up.url);
  // Forwards everything; with `rewrite`, a messages request goes upstream on the chat path (body as it is: enough for a route).
  proxy = http.createServer((req, res) => {
    const path = rewrite && req.url?.startsWith('/v1/messages') ? '/v1/chat/completions' : req.url;
    const out = http.request({ host: target.hostname, port: target.port, method: req.method, path, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    req.pipe(out);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  await new Promise((r) => proxy.close(r));
  await up.stop();
});

function env(): RunEnv {
  const { port } = proxy.address() as { port: number };
  return { gateway: new GatewayClient(`http://127.0.0.1:${port}`, { token: 't', timeoutMs: 5000 }), upstream: up, settings, declared: new Set(['messages']) };
}

/** A check that sends one messages request and fails: what it compares is the body's bytes. */
const bytes = (untranslatable?: string): CheckDef =>
  defineCheck({
    id: 'test.bytes',
    title: 'bytes',
    requirements: ['X-1'],
    level: 'MUST',
    area: 'test',
    profile: 'default',
    protocol: 'messages',
    ...(untranslatable ? { untranslatable } : {}),
    requirement: 'bytes',
    fix: 'bytes',
    async run(ctx) {
      const e = ctx.upstream.next().json(messageBody());
      const res = await ctx.gateway.messages(withToken(JSON.stringify({ model: 'm', max_tokens: 8, messages: [{ role: 'user', content: `${CASE_PLACEHOLDER} hi` }] }), e.token), { caseToken: e.token });
      await e.received(1000);
      return res.status === 200 ? fail('the bytes differ') : pass('no answer');
    },
  });

describe('routes', () => {
  it('a check that compares what a translation cannot keep skips on a translated route, naming it; its measured verdict stays in the evidence', async () => {
    rewrite = true;
    const r = await runOne(bytes("the body's bytes"), env());
    expect(r.outcome).toBe('skip');
    expect(r.message).toMatch(/^translated route: messages → chat: the body's bytes cannot be compared across a translation/);
    expect(r.evidence.verdictAsMeasured).toBe('fail: the bytes differ');
    expect(r.routes).toEqual([{ client: 'messages', upstream: 'chat', requests: 1 }]);
  });

  it('where the readiness canary of its protocol was translated, such a check is not run at all: a skip naming the route', async () => {
    let ran = false;
    const check = { ...bytes("the body's bytes"), run: async () => ((ran = true), pass('ran')) };
    const r = await runOne(check, { ...env(), routes: { messages: 'chat' } });
    expect(ran).toBe(false);
    expect(r).toMatchObject({ outcome: 'skip', message: expect.stringMatching(/^translated route: messages → chat: the body's bytes cannot/) });
    expect((await runOne(check, { ...env(), routes: { native: 'chat' } })).outcome).toBe('pass');
  });

  it("the skip names the checks of this run that judge the route by meaning, and says so when none does", async () => {
    const check = { ...bytes("the body's bytes"), run: async () => pass('ran') };
    const named = await runOne(check, { ...env(), routes: { messages: 'chat' }, judgesOfTranslation: { messages: ['translate.answer.meaning'] } });
    expect(named.message).toMatch(/; translate\.answer\.meaning judges this route by meaning$/);
    const none = await runOne(check, { ...env(), routes: { messages: 'chat' }, judgesOfTranslation: { chat: ['translate.answer.meaning'] } });
    expect(none.message).toMatch(/; no check of this run judges a messages client's translated route by meaning$/);
    expect(none.message).not.toMatch(/translate\.\*/);
  });

  it('at the end of the run the skip keeps only the judges that judged: one that skipped or timed out is left out', async () => {
    const check = { ...bytes("the body's bytes"), run: async () => pass('ran') };
    const skipped = await runOne(check, { ...env(), routes: { messages: 'chat' }, judgesOfTranslation: { messages: ['translate.answer.meaning', 'translate.request.meaning', 'translate.stream.meaning'] } });
    const judge = (id: string, outcome: CheckResult['outcome']) => ({ ...skipped, id, outcome, message: outcome, evidence: {} }) as CheckResult;
    const [named] = namingJudgesThatJudged([skipped, judge('translate.answer.meaning', 'fail'), judge('translate.request.meaning', 'skip'), judge('translate.stream.meaning', 'timeout')]);
    expect(named.message).toMatch(/; translate\.answer\.meaning judges this route by meaning$/);
    expect(named.evidence.translatedRoute).toMatchObject({ judges: ['translate.answer.meaning'], notJudged: ['translate.request.meaning', 'translate.stream.meaning'] });
    const [none] = namingJudgesThatJudged([skipped, judge('translate.answer.meaning', 'skip'), judge('translate.request.meaning', 'skip'), judge('translate.stream.meaning', 'error')]);
    expect(none.message).toMatch(/; no check of this run judges a messages client's translated route by meaning$/);
    // All three judged: the message is the one written when the check ended.
    const [kept] = namingJudgesThatJudged([skipped, judge('translate.answer.meaning', 'pass'), judge('translate.request.meaning', 'warn'), judge('translate.stream.meaning', 'info')]);
    expect(kept.message).toBe(skipped.message);
  });

  it('the same check judges a pass-through route, and one without the declaration judges a translated one', async () => {
    rewrite = false;
    const through = await runOne(bytes("the body's bytes"), env());
    expect(through.outcome).toBe('fail');
    expect(through.routes).toEqual([{ client: 'messages', upstream: 'messages', requests: 1 }]);
    rewrite = true;
    expect((await runOne(bytes(), env())).outcome).toBe('fail');
  });

  it("the upstream answered the translated request in chat, and the client got that answer's text", async () => {
    rewrite = true;
    const e = up.expect({ kind: 'json', protocol: 'messages', status: 200, headers: [['content-type', 'application/json']], body: messageBody({ text: 'routed' }) });
    const res = await env().gateway.messages(withToken(JSON.stringify({ model: 'm', max_tokens: 8, messages: [{ role: 'user', content: `${CASE_PLACEHOLDER} hi` }] }), e.token), { caseToken: e.token });
    expect(RECORDS.chat.replies.readAnswer(res.text())?.text).toBe('routed');
    expect(e.hits[0]).toMatchObject({ protocol: 'chat', answeredIn: 'chat' });
    up.release(e.token);
  });

  it("the run's routes add up the checks' and say which were translated", () => {
    const routes = routesOf([{ routes: [{ client: 'messages', upstream: 'chat', requests: 3 }] }, { routes: [{ client: 'messages', upstream: 'chat', requests: 2 }, { client: 'native', upstream: 'native', requests: 1 }] }] as never);
    expect(routes).toEqual([
      { client: 'messages', upstream: 'chat', requests: 5, checks: 2 },
      { client: 'native', upstream: 'native', requests: 1, checks: 1 },
    ]);
    expect(routeLines(routes)).toEqual(['messages → chat: 5 requests in 2 checks (translated)', 'native → native: 1 request in 1 check']);
  });

  it('checks of translated routes are picked only where the canary of their protocol was translated, or when named', () => {
    const ready = (upstreamProtocol?: 'chat' | 'messages') => ({ protocols: [{ protocol: 'messages', ...(upstreamProtocol ? { upstreamProtocol } : {}) }] }) as unknown as Readiness;
    const xlate = { id: 'translate.x', protocol: 'messages', translatedRoute: true } as CheckDef;
    const plain = { id: 'messages.y', protocol: 'messages' } as CheckDef;
    expect(translatedProtocols(ready('chat'))).toEqual(['messages']);
    expect(onRoutes([xlate, plain], translatedProtocols(ready('chat')), []).map((c) => c.id)).toEqual(['translate.x', 'messages.y']);
    expect(onRoutes([xlate, plain], translatedProtocols(ready('messages')), []).map((c) => c.id)).toEqual(['messages.y']);
    expect(onRoutes([xlate, plain], translatedProtocols(null), ['translate.x']).map((c) => c.id)).toEqual(['translate.x', 'messages.y']);
  });
});
