// The run-level bound against a hung gateway (src/runner/hung.ts): after as many checks in a row
// as run at once (2 to 4) end at their time limit, the runner starts no more checks; they are
// reported as not run, naming the checks the gateway hung on, and the run exits 1. A gateway
// that gives any verdict in between resets the count. Checks here "hang" by never settling, at
// a 100 ms limit, one at a time (the order they end in is the order they are listed in), or
// end as the gateway client's time-out when the test says so: no verdict rests on a timer race.
import { describe, expect, it } from 'vitest';
import { defineCheck, pass, fail, type CheckDef, type RunSettings, type Verdict } from '../../../src/check/check.js';
import { GatewayTimeoutError, TimeLimitReached, type GatewayClient } from '../../../src/client/gateway.js';
import type { Upstream } from '../../../src/upstream/upstream.js';
import { runChecks, type RunEnv } from '../../../src/runner/runner.js';
import { HangBreaker, hungAfter } from '../../../src/runner/hung.js';
import { exitCodeOf, HUNG_NOT_RUN, isHungNotRun } from '../../../src/report/shared/policy.js';

const settings: RunSettings = { seed: 1, numRuns: 1, timeoutMs: 100, modelRoutes: {}, sse: { maxLagMs: 200, burstWindowMs: 20, latP50Ms: 50 }, idle: { maxS: 120, minS: 65 }, hangWaitMs: 1000 };
const env: RunEnv = { gateway: {} as GatewayClient, upstream: { release: () => undefined } as unknown as Upstream, settings, declared: new Set(['messages']) };

/**
 * Checks that count their starts: `hang` never settles (it ends at the 100 ms limit), `answer`
 * passes, `refuse` fails; `held` waits until `end(id)` ends it as the client's time-out (or a pass).
 * `startedCount(n)` resolves once n checks have started.
 */
function checks() {
  const started: string[] = [];
  const enders = new Map<string, (how: 'timeout' | 'pass') => void>();
  const waiters: Array<{ n: number; go: () => void }> = [];
  const onStart = () => waiters.filter((w) => started.length >= w.n).forEach((w) => w.go());
  const make = (id: string, run: () => Promise<Verdict>, extra: Partial<CheckDef> = {}): CheckDef =>
    defineCheck({ id, title: id, requirements: ['X-1'], level: 'MUST', area: 'test', profile: 'default', protocol: 'messages', requirement: id, ...extra, fix: id, run: () => (started.push(id), onStart(), run()) });
  return {
    started,
    startedCount: (n: number) => new Promise<void>((go) => (started.length >= n ? go() : waiters.push({ n, go }))),
    end: (id: string, how: 'timeout' | 'pass' = 'timeout') => enders.get(id)!(how),
    held: (id: string) => make(id, () => new Promise((resolve, reject) => enders.set(id, (how) => (how === 'pass' ? resolve(pass(id)) : reject(new GatewayTimeoutError('no answer')))))),
    hang: (id: string, extra?: Partial<CheckDef>) => make(id, () => new Promise(() => undefined), extra),
    answer: (id: string) => make(id, async () => pass(id)),
    refuse: (id: string) => make(id, async () => fail(id)),
  };
}

describe('the hang breaker', () => {
  it('trips after `after` time-outs in a row; a verdict resets the count, a skip leaves it', () => {
    const b = new HangBreaker(3);
    for (const [id, outcome] of [['a', 'timeout'], ['b', 'timeout'], ['c', 'fail'], ['d', 'timeout'], ['e', 'skip'], ['f', 'timeout']] as const) b.note({ id, outcome });
    expect(b.tripped).toBeNull();
    b.note({ id: 'g', outcome: 'timeout' });
    expect(b.tripped).toEqual(['d', 'f', 'g']);
    // Once tripped, what ends later does not change whom it names.
    b.note({ id: 'h', outcome: 'pass' });
    expect(b.tripped).toEqual(['d', 'f', 'g']);
  });

  it('trips when hangs alternate with answers: twice the streak of time-outs in all, at least half of what ended since the first', () => {
    const b = new HangBreaker(2);
    const seq = [['p.0', 'pass'], ['h.0', 'timeout'], ['f.0', 'fail'], ['h.1', 'timeout'], ['x.0', 'skip'], ['f.1', 'fail'], ['h.2', 'timeout'], ['f.2', 'fail']] as const;
    for (const [id, outcome] of seq) b.note({ id, outcome });
    // Three time-outs among six ended since the first (the pass before it and the skip not counted): not yet four.
    expect(b.tripped).toBeNull();
    b.note({ id: 'h.3', outcome: 'timeout' });
    expect(b.tripped).toEqual(['h.0', 'h.1', 'h.2', 'h.3']);
    expect(b.notRun(defineCheck({ id: 'later', title: 'later', requirements: ['X-1'], level: 'MUST', area: 'test', profile: 'default', protocol: 'messages', requirement: 'later', fix: 'later', run: async () => pass('later') })).message).toMatch(new RegExp(`^${HUNG_NOT_RUN} on 4 of the 7 checks that ended since its first hang \\(h\\.0, h\\.1, h\\.2, h\\.3\\)`));
  });

  it('does not trip on a few hangs among many answers', () => {
    const b = new HangBreaker(2);
    for (let i = 0; i < 40; i++) b.note({ id: `c.${i}`, outcome: i % 3 === 0 ? 'timeout' : 'pass' });
    // Fourteen time-outs, each between two answers: a third of what ended, never half.
    expect(b.tripped).toBeNull();
  });

  it('needs as many time-outs in a row as checks run at once, at least 2 and at most 4', () => {
    expect([1, 2, 3, 4, 8, 64].map(hungAfter)).toEqual([2, 2, 3, 4, 4, 4]);
  });
});

describe("a check's signal", () => {
  it('is aborted with TimeLimitReached at the time limit (an answer cut then counts toward a hanging gateway), and without it when the check ends', async () => {
    const signals: Record<string, AbortSignal> = {};
    const keep = (id: string, run: () => Promise<Verdict>) => defineCheck({ id, title: id, requirements: ['X-1'], level: 'MUST', area: 'test', profile: 'default', protocol: 'messages', requirement: id, fix: id, run: (ctx) => ((signals[id] = ctx.signal), run()) });
    await runChecks([keep('limit', () => new Promise(() => undefined)), keep('ends', async () => pass('ends'))], env, { concurrency: 1 });
    expect(signals.limit.reason).toBeInstanceOf(TimeLimitReached);
    expect(signals.ends.aborted).toBe(true);
    expect(signals.ends.reason).not.toBeInstanceOf(TimeLimitReached);
  });
});

describe('a run against a hung gateway', () => {
  it('starts no check once the gateway hung on a wave: the rest are not run, named after the hung ones, and the run exits 1', async () => {
    const c = checks();
    const list = Array.from({ length: 10 }, (_, i) => c.held(`hang.${i}`));
    const run = runChecks(list, env, { concurrency: 2 });
    await c.startedCount(2);
    // The first ends: its worker starts the next check before the second has ended.
    c.end('hang.0');
    await c.startedCount(3);
    c.end('hang.1');
    // Two in a row at concurrency 2: no more start; the one already running ends on its own.
    c.end('hang.2');
    const results = await run;
    expect(c.started).toEqual(['hang.0', 'hang.1', 'hang.2']);
    expect(results.slice(0, 3).map((r) => r.outcome)).toEqual(['timeout', 'timeout', 'timeout']);
    for (const r of results.slice(3)) {
      expect(r.outcome).toBe('skip');
      expect(r.message).toMatch(new RegExp(`^${HUNG_NOT_RUN} on 2 checks in a row \\(hang\\.0, hang\\.1\\)`));
      expect(r.evidence.hungOn).toEqual(['hang.0', 'hang.1']);
      expect(isHungNotRun(r)).toBe(true);
    }
    expect(exitCodeOf(results, false)).toBe(1);
  });

  it('keeps the verdict of a check that started before the bound was met', async () => {
    const c = checks();
    const list = [c.held('hang.0'), c.held('hang.1'), c.held('started.before'), c.answer('after')];
    const run = runChecks(list, env, { concurrency: 2 });
    await c.startedCount(2);
    c.end('hang.0');
    await c.startedCount(3);
    c.end('hang.1');
    c.end('started.before', 'pass');
    const results = await run;
    expect(results.map((r) => r.outcome)).toEqual(['timeout', 'timeout', 'pass', 'skip']);
    expect(c.started).not.toContain('after');
  });

  it('exits 1 even when the checks it hung on were INFO (a time-out of an INFO check fails nothing by itself)', async () => {
    const c = checks();
    const list = [c.hang('info.0', { level: 'INFO' }), c.hang('info.1', { level: 'INFO' }), c.answer('later')];
    const results = await runChecks(list, env, { concurrency: 1 });
    expect(results.map((r) => r.outcome)).toEqual(['timeout', 'timeout', 'skip']);
    expect(exitCodeOf(results, false)).toBe(1);
  });

  it('starts no outage check after the gateway hung (each would wait its limit, then the recovery bound)', async () => {
    const c = checks();
    const list = [c.hang('h.0'), c.hang('h.1'), c.answer('outage.0'), c.answer('outage.1')].map((x, i) => (i >= 2 ? { ...x, outage: true } : x));
    const results = await runChecks(list, env, { concurrency: 1 });
    expect(c.started).toEqual(['h.0', 'h.1']);
    expect(results.slice(2).every(isHungNotRun)).toBe(true);
  });

  it('runs every check of a gateway that answers between its hangs: verdicts as without the bound', async () => {
    const c = checks();
    // One at a time: the order the checks end in is the order they are listed in.
    const list = [c.hang('h.0'), c.answer('a.0'), c.hang('h.1'), c.refuse('r.0'), c.hang('h.2'), c.answer('a.1')];
    const results = await runChecks(list, env, { concurrency: 1 });
    expect(c.started).toEqual(list.map((x) => x.id));
    expect(results.map((r) => r.outcome)).toEqual(['timeout', 'pass', 'timeout', 'fail', 'timeout', 'pass']);
    expect(results.some(isHungNotRun)).toBe(false);
  });

  it('changes nothing for a gateway that never hangs', async () => {
    const c = checks();
    const list = Array.from({ length: 6 }, (_, i) => c.answer(`a.${i}`));
    const results = await runChecks(list, env, { concurrency: 4 });
    expect(results.map((r) => r.outcome)).toEqual(Array(6).fill('pass'));
    expect(exitCodeOf(results, false)).toBe(0);
  });
});
