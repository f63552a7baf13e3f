// The order of a run (src/runner/runner.ts): background checks start first and run beside the
// others; outage checks run last, after every other check; after an outage check the runner
// waits until the gateway forwards again before the next one. And the gate that keeps timing
// checks of runs sharing a process apart from other work (src/runner/gate.ts).
import { describe, expect, it } from 'vitest';
import { defineCheck, pass, type CheckDef, type RunSettings } from '../../../src/check/check.js';
import type { GatewayClient, GwResponse } from '../../../src/client/gateway.js';
import type { Expectation, Upstream } from '../../../src/upstream/upstream.js';
import type { RecordedRequest } from '../../../src/upstream/record.js';
import { runChecks, type RunEnv } from '../../../src/runner/runner.js';
import { PhaseGate } from '../../../src/runner/gate.js';
import { untilServingAgain } from '../../../src/client/forwarded.js';

const settings: RunSettings = { seed: 1, numRuns: 1, timeoutMs: 5000, modelRoutes: {}, sse: { maxLagMs: 200, burstWindowMs: 20, latP50Ms: 50 }, idle: { maxS: 120, minS: 65 }, hangWaitMs: 1000 };

/** A gateway that answers 503 without forwarding while `down` > 0 (one fewer per request), else forwards and answers 200. */
function stubs() {
  const open = new Map<string, RecordedRequest[]>();
  const state = { down: 0, probes: 0 };
  const upstream = {
    url: 'http://127.0.0.1:1',
    unmatched: [],
    expect: (reply) => {
      const token = `gwc-${(open.size + 1).toString(16).padStart(16, '0')}`;
      const hits: RecordedRequest[] = [];
      open.set(token, hits);
      return { token, reply, hits, received: async () => hits[0] ?? null } as unknown as Expectation;
    },
    release: () => undefined,
    suspend: async () => undefined,
    resume: async () => undefined,
  } satisfies Partial<Upstream> as unknown as Upstream;
  const gateway = {
    send: async (opts: { caseToken?: string }): Promise<GwResponse> => {
      state.probes++;
      const forwarded = state.down === 0;
      if (state.down > 0) state.down--;
      else open.get(opts.caseToken ?? '')?.push({} as RecordedRequest);
      return { status: forwarded ? 200 : 503, header: () => undefined, body: Buffer.alloc(0) } as unknown as GwResponse;
    },
  } as unknown as GatewayClient;
  const env: RunEnv = { gateway, upstream, settings, declared: new Set(['messages']) };
  return { env, state, gateway, upstream };
}

const check = (id: string, extra: Partial<CheckDef>, run: CheckDef['run']): CheckDef =>
  defineCheck({ id, title: id, requirements: ['X-1'], level: 'MUST', area: 'test', profile: 'default', protocol: 'messages', requirement: id, run, ...extra, fix: id });

/**
 * Checks that count the moments a `work` check and a `timing` check run at once (`overlaps`),
 * and two runs of them at once, sharing a gate or not. Each check yields a few times so the
 * other run gets its chance to interleave.
 */
function overlapMeter() {
  const m = {
    active: { work: 0, timing: 0 },
    overlaps: 0,
    busy: (kind: 'work' | 'timing', id: string, extra: Partial<CheckDef> = {}) =>
      check(id, extra, async () => {
        m.active[kind]++;
        if (m.active.work && m.active.timing) m.overlaps++;
        for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
        m.active[kind]--;
        return pass(id);
      }),
    /** Runs A and B at once, two checks at a time each, through `gate` when given. */
    both: (runA: CheckDef[], runB: CheckDef[], env: RunEnv, gate?: PhaseGate) => {
      m.active = { work: 0, timing: 0 };
      return Promise.all([runChecks(runA, env, { concurrency: 2, gate }), runChecks(runB, env, { concurrency: 2, gate })]);
    },
  };
  return m;
}

describe('run order', () => {
  it('starts background checks first and runs them beside the others', async () => {
    const { env } = stubs();
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const order: string[] = [];
    // The background check can only end when a later-listed, ordinary check has run: it must run beside it.
    const waits = check('waits', { background: true, timeLimitMs: () => 4000 }, async () => {
      order.push('waits started');
      await released;
      return pass('released');
    });
    const frees = check('frees', {}, async () => {
      order.push('frees ran');
      release();
      return pass('freed');
    });
    const timed = check('timed', { timing: true }, async () => (order.push('timed ran'), pass('timed')));
    const results = await runChecks([frees, timed, waits], env, { concurrency: 1 });
    expect(results.map((r) => [r.id, r.outcome])).toEqual([['frees', 'pass'], ['timed', 'pass'], ['waits', 'pass']]);
    expect(order[0]).toBe('waits started');
  });

  it('runs outage checks last, after every other check (background ones too) has ended', async () => {
    const { env } = stubs();
    const log: string[] = [];
    const step = (id: string, extra: Partial<CheckDef> = {}) =>
      check(id, extra, async () => {
        log.push(`${id} start`);
        await Promise.resolve();
        log.push(`${id} end`);
        return pass(id);
      });
    const list = [step('down-1', { outage: true }), step('plain'), step('bg', { background: true }), step('alone', { exclusive: true }), step('timed', { timing: true }), step('down-2', { outage: true })];
    await runChecks(list, env, { concurrency: 4 });
    const firstOutage = log.indexOf('down-1 start');
    for (const id of ['plain', 'bg', 'alone', 'timed']) expect(log.indexOf(`${id} end`), id).toBeLessThan(firstOutage);
    expect(log.slice(firstOutage)).toEqual(['down-1 start', 'down-1 end', 'down-2 start', 'down-2 end']);
  });

  it('after an outage check, waits until the gateway forwards again before the next one, and reports the wait', async () => {
    const { env, state } = stubs();
    let seenDown = -1;
    const first = check('first', { outage: true }, async () => {
      state.down = 3; // a sticky "backend down" for the next three requests
      return pass('first');
    });
    const second = check('second', { outage: true }, async () => {
      seenDown = state.down;
      return pass('second');
    });
    const results = await runChecks([first, second], env, { concurrency: 1 });
    expect(seenDown).toBe(0);
    expect(state.probes).toBe(4);
    expect(results[0].evidence.gatewayServingAgain).toMatchObject({ serving: true, attempts: 4, last: '200' });
    // Nothing follows the last outage check: no wait after it.
    expect(results[1].evidence.gatewayServingAgain).toBeUndefined();
  });

  it('gives up waiting at its bound and says what the gateway last answered', async () => {
    const { state, gateway, upstream } = stubs();
    state.down = Number.MAX_SAFE_INTEGER;
    const r = await untilServingAgain(gateway, { register: (reply) => upstream.expect(reply), done: () => undefined }, { boundMs: 250 });
    expect(r.serving).toBe(false);
    expect(r.attempts).toBeGreaterThan(1);
    expect(r.last).toBe('503 (not forwarded)');
  });
});

describe('phase gate', () => {
  it('lets one kind in at a time, each beside its own kind', async () => {
    const gate = new PhaseGate();
    const w1 = await gate.enter('work');
    const w2 = await gate.enter('work');
    expect(gate.state).toEqual({ active: 'work', running: 2, waiting: 0 });
    let timingIn = false;
    const t = gate.enter('timing').then((leave) => ((timingIn = true), leave));
    // A work turn asked for after the timing one waits behind it (no starvation).
    let lateWorkIn = false;
    const w3 = gate.enter('work').then((leave) => ((lateWorkIn = true), leave));
    w1();
    await Promise.resolve();
    expect(timingIn).toBe(false);
    w2();
    const leaveT = await t;
    expect(timingIn).toBe(true);
    expect(lateWorkIn).toBe(false);
    expect(gate.state).toEqual({ active: 'timing', running: 1, waiting: 1 });
    leaveT();
    (await w3)();
    expect(lateWorkIn).toBe(true);
    expect(gate.state).toEqual({ active: null, running: 0, waiting: 0 });
  });

  it('lets an `alone` turn in only when nothing runs, and nothing beside it', async () => {
    const gate = new PhaseGate();
    const w = await gate.enter('work');
    let aloneIn = false;
    const a = gate.enter('alone').then((leave) => ((aloneIn = true), leave));
    let timingIn = false;
    const t = gate.enter('timing').then((leave) => ((timingIn = true), leave));
    await Promise.resolve();
    expect(aloneIn).toBe(false);
    w();
    const leaveA = await a;
    expect(gate.state).toEqual({ active: 'alone', running: 1, waiting: 1 });
    // Another `alone` or `work` turn waits too.
    let secondIn = false;
    const a2 = gate.enter('alone').then((leave) => ((secondIn = true), leave));
    await Promise.resolve();
    expect([timingIn, secondIn]).toEqual([false, false]);
    leaveA();
    (await t)();
    (await a2)();
    expect([timingIn, secondIn]).toEqual([true, true]);
    expect(gate.state).toEqual({ active: null, running: 0, waiting: 0 });
  });

  it('keeps the timing checks of one run apart from the work of another run sharing the gate', async () => {
    const { env } = stubs();
    const m = overlapMeter();
    const runA = [m.busy('work', 'a1'), m.busy('work', 'a2'), m.busy('timing', 'a3', { timing: true })];
    const runB = [m.busy('timing', 'b1', { timing: true }), m.busy('work', 'b2'), m.busy('work', 'b3'), m.busy('work', 'b4')];
    const [ra, rb] = await m.both(runA, runB, env, new PhaseGate());
    expect([...ra, ...rb].every((r) => r.outcome === 'pass')).toBe(true);
    expect(m.overlaps).toBe(0);
    // Without the gate the same runs do overlap: the test can see it.
    await m.both(runA, runB, env);
    expect(m.overlaps).toBeGreaterThan(0);
  });

  it('gives a timed outage check (the time to serve again) a timing turn too: no other run\'s work beside it', async () => {
    const { env } = stubs();
    const m = overlapMeter();
    const runA = [m.busy('timing', 'a1', { timing: true, outage: true })];
    const runB = Array.from({ length: 6 }, (_, i) => m.busy('work', `b${i}`));
    const [ra, rb] = await m.both(runA, runB, env, new PhaseGate());
    expect([...ra, ...rb].every((r) => r.outcome === 'pass')).toBe(true);
    expect(m.overlaps).toBe(0);
    await m.both(runA, runB, env);
    expect(m.overlaps).toBeGreaterThan(0);
  });
});
