// A check marked `undeclared: 'info'` (the a2a checks) runs whether or not its protocol is
// declared: undeclared, a failure, a warning or a time-out is reported as info, its message
// saying what was measured and how to make it count; declared, the same verdict is a failure. A
// pass, a skip and a harness error stay what they are.
import { describe, expect, it } from 'vitest';
import { defineCheck, fail, pass, type CheckDef, type RunSettings, type Verdict } from '../../../src/check/check.js';
import { GatewayClient } from '../../../src/client/gateway.js';
import { notDeclared, runOne, type RunEnv } from '../../../src/runner/runner.js';

const settings: RunSettings = { seed: 1, numRuns: 1, timeoutMs: 2000, modelRoutes: {}, sse: { maxLagMs: 200, burstWindowMs: 20, latP50Ms: 50 }, idle: { maxS: 120, minS: 65 }, hangWaitMs: 1000 };
const env = (declared: string[]): RunEnv => ({ gateway: new GatewayClient('http://127.0.0.1:9', { token: 't', timeoutMs: 1000 }), upstream: null, settings, declared: new Set(declared) });

const check = (verdict: () => Promise<Verdict>, level: 'MUST' | 'SHOULD' = 'MUST', undeclared?: 'info'): CheckDef =>
  defineCheck({ id: 'test.agent', title: 'agent', requirements: ['X-1'], level, area: 'test', protocol: 'a2a', ...(undeclared ? { undeclared } : {}), requirement: 'r', fix: 'f', run: verdict });

describe("undeclared: 'info'", () => {
  it('runs where the protocol is not declared and reports a failure as info, saying what was measured', async () => {
    const c = check(async () => fail('the card was a 404'), 'MUST', 'info');
    expect(notDeclared(c, new Set(['messages']))).toBeNull();
    const r = await runOne(c, env(['messages']));
    expect(r.outcome).toBe('info');
    expect(r.message).toBe('reported, not failed (fail as measured): the gateway does not declare a2a (--protocols ...,a2a makes this a failure): the card was a 404');
  });

  it('fails where the protocol is declared', async () => {
    const r = await runOne(check(async () => fail('the card was a 404'), 'MUST', 'info'), env(['messages', 'a2a']));
    expect(r.outcome).toBe('fail');
    expect(r.message).toBe('the card was a 404');
  });

  it('reports a SHOULD check\'s warning as info too, and keeps a pass, a skip and an error', async () => {
    expect((await runOne(check(async () => fail('late'), 'SHOULD', 'info'), env([]))).outcome).toBe('info');
    expect((await runOne(check(async () => fail('late'), 'SHOULD', 'info'), env(['a2a']))).outcome).toBe('warn');
    expect((await runOne(check(async () => pass('fine'), 'MUST', 'info'), env([]))).outcome).toBe('pass');
    expect((await runOne(check(async () => ({ ok: false, skip: true, message: 'could not judge' }), 'MUST', 'info'), env([]))).outcome).toBe('skip');
    expect((await runOne(check(async () => Promise.reject(new Error('boom')), 'MUST', 'info'), env([]))).outcome).toBe('error');
  });

  it('leaves a check without it skipped where its protocol is not declared', async () => {
    const r = await runOne(check(async () => fail('never run')), env(['messages']));
    expect(r.outcome).toBe('skip');
    expect(r.message).toMatch(/^not declared: a2a/);
  });
});
