// Results hold only what they show (src/core/detach.ts): evidence cut from a large body does
// not keep the body alive, and detaching changes no value.
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { detached, ownCopy } from '../../../src/core/detach.js';
import { defineCheck, pass, type RunSettings } from '../../../src/check/check.js';
import type { GatewayClient } from '../../../src/client/gateway.js';
import type { Upstream } from '../../../src/upstream/upstream.js';
import { runOne } from '../../../src/runner/runner.js';

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap in use after a full collection, bytes. */
function liveHeap(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** `n` results, each holding 200 characters cut from its own 1 MiB body; the bodies are dropped. */
function cutResults(n: number, detach: boolean): unknown[] {
  const kept: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const body = `event: message_start\ndata: ${i}`.padEnd(1024 * 1024, 'x');
    const result = { message: 'pass', evidence: { client: { body: body.slice(0, 200) } } };
    kept.push(detach ? detached(result) : result);
  }
  return kept;
}

describe('detached results', () => {
  it('copies change no string: ASCII, astral characters, lone surrogates, keys, short and empty strings', () => {
    for (const s of ['', 'short', 'x'.repeat(5000), '😀 astral and \ud800 lone \udfff', '\u0000\u001f controls']) expect(ownCopy(s)).toBe(s);
    const v = { a: ['one string of some length', 2, null, true, { '\ud83d\ude00 key of some length': 'value of some length' }], n: 1.5, u: undefined };
    expect(detached(v)).toEqual(v);
  });

  it('leaves values that are not plain objects or arrays as they are', () => {
    const buf = Buffer.from('bytes');
    const date = new Date(0);
    const out = detached({ buf, date });
    expect(out.buf).toBe(buf);
    expect(out.date).toBe(date);
    const bare = Object.assign(Object.create(null) as Record<string, string>, { k: 'a value long enough to share' });
    expect(Object.getPrototypeOf(detached(bare))).toBeNull();
  });

  it('evidence cut from 40 bodies of 1 MiB keeps none of them alive', () => {
    // The control proves the measurement: without detaching, the cut strings hold their bodies.
    const before = liveHeap();
    const shared = cutResults(40, false);
    const sharedHeap = liveHeap() - before;
    expect(shared).toHaveLength(40);
    shared.length = 0;
    const base = liveHeap();
    const own = cutResults(40, true);
    const ownHeap = liveHeap() - base;
    expect(own).toHaveLength(40);
    expect(sharedHeap).toBeGreaterThan(30 * 1024 * 1024);
    expect(ownHeap).toBeLessThan(2 * 1024 * 1024);
  });

  it('the runner records every check result detached', async () => {
    const settings: RunSettings = { seed: 1, numRuns: 1, timeoutMs: 5000, modelRoutes: {}, sse: { maxLagMs: 200, burstWindowMs: 20, latP50Ms: 50 }, idle: { maxS: 120, minS: 65 }, hangWaitMs: 1000 };
    const upstream = { url: 'http://127.0.0.1:1', unmatched: [], release: () => undefined } as unknown as Upstream;
    const env = { gateway: {} as GatewayClient, upstream, settings, declared: new Set(['messages']) };
    const check = defineCheck({
      id: 'test.cut',
      title: 'cuts',
      requirements: ['X-1'],
      level: 'MUST',
      area: 'test',
      profile: 'default',
      protocol: 'messages',
      requirement: 'cuts',
      fix: 'cut less',
      run: async () => {
        const body = `data: ${Math.random()}`.padEnd(1024 * 1024, 'x');
        return pass(body.slice(0, 100), { client: { body: body.slice(0, 200) } });
      },
    });
    const base = liveHeap();
    const results = [];
    for (let i = 0; i < 40; i++) results.push(await runOne(check, env));
    expect(results.every((r) => r.outcome === 'pass' && (r.evidence.client as { body: string }).body.length === 200)).toBe(true);
    expect(liveHeap() - base).toBeLessThan(2 * 1024 * 1024);
  });
});
