// The resource figures of a launched gateway from its readings: idle (the start-up left out), steady, peak, what remains
// after the load, growth per 10,000 requests (the warm-up left out), CPU percent, cold start.
import { describe, expect, it } from 'vitest';
import { growthPer10k, mb, summarizeResources, type ResourceSample } from '../../../src/core/resources.js';

const MB = 1_000_000;
/** A reading every 100 ms: `rss(t)` MB and `cpu(t)` ms of CPU so far. */
const readings = (toMs: number, rss: (t: number) => number, cpu: (t: number) => number): ResourceSample[] =>
  Array.from({ length: toMs / 100 + 1 }, (_, i) => ({ at: i * 100, rssBytes: rss(i * 100) * MB, cpuMs: cpu(i * 100) }));

describe('gateway resources', () => {
  it('reads idle before the first answer, steady and CPU under load, the peak, and what remains after', () => {
    // Idle 50 MB to 1 s; under load (1-3 s) 80 MB and half a core; after it 60 MB, no CPU.
    const rss = (t: number) => (t <= 1000 ? 50 : t <= 3000 ? 80 : 60);
    const cpu = (t: number) => (t <= 1000 ? 0 : t <= 3000 ? (t - 1000) / 2 : 1000);
    const r = summarizeResources({ source: 'test', intervalMs: 100, samples: readings(4000, rss, cpu), windows: [{ from: 1000, to: 3000, requests: 4000 }], readyAt: 120, firstAnswerAt: 900, firstTrafficAt: 900 });
    expect(r.memory.idle).toBe(50 * MB);
    expect(r.memory.steady).toBe(80 * MB);
    expect(r.memory.peak).toBe(80 * MB);
    expect(r.memory.afterLoad).toBe(60 * MB);
    expect(r.cpu.idle).toBe(0);
    expect(r.cpu.steady).toBe(50);
    expect(r.cpu.peak).toBe(50);
    expect(r.coldStart).toEqual({ readyMs: 120, firstAnswerMs: 900 });
    expect(r.loadRequests).toBe(4000);
  });

  it('leaves the start-up out of idle: a runtime busy loading its code before its first answer is not idle', () => {
    // Start-up to 800 ms: 30 to 70 MB and a whole core; answering from 800 ms, quiet at 70 MB until the load at 2 s.
    const rss = (t: number) => (t < 800 ? 30 + t / 20 : t < 2000 ? 70 : 90);
    const cpu = (t: number) => (t < 800 ? t : t < 2000 ? 800 : 800 + (t - 2000) / 4);
    const r = summarizeResources({ source: 'test', intervalMs: 100, samples: readings(3000, rss, cpu), windows: [{ from: 2000, to: 3000, requests: 1000 }], readyAt: 700, firstAnswerAt: 800, firstTrafficAt: 800 });
    expect(r.memory.idle).toBe(70 * MB);
    expect(r.cpu.idle).toBe(0);
    expect(r.cpu.peak).toBe(100);
    // Without load windows nothing after the first answer is known to be quiet: the reading nearest to it.
    const none = summarizeResources({ source: 'test', intervalMs: 100, samples: readings(3000, rss, cpu), windows: [], readyAt: 700, firstAnswerAt: 800, firstTrafficAt: 800 });
    expect(none.memory.idle).toBe(70 * MB);
    expect(none.cpu.idle).toBeNull();
    // The launcher's reading as the port listens comes just after the moment it marks.
    const late = summarizeResources({ source: 'test', intervalMs: 100, samples: [{ at: 705, rssBytes: 40 * MB, cpuMs: 0 }], windows: [], readyAt: 700, firstAnswerAt: null, firstTrafficAt: null });
    expect(late.memory.idle).toBe(40 * MB);
  });

  it('growth per 10,000 requests is the slope over the windows after the first (the warm-up is a step, not a slope)', () => {
    // Three windows of 1,000 requests: a 30 MB step in the first, then flat for a clean gateway...
    const clean = readings(3000, (t) => (t < 100 ? 50 : 80), () => 0);
    const windows = [0, 1, 2].map((i) => ({ from: i * 1000, to: i * 1000 + 900, requests: 1000 }));
    expect(growthPer10k(clean, windows)).toBe(0);
    // ...and 1 MB per 100 requests after the same step for one that keeps something of each.
    const leaking = readings(3000, (t) => (t < 100 ? 50 : 80 + t / 100), () => 0);
    const g = growthPer10k(leaking, windows)!;
    expect(g / MB).toBeGreaterThan(90);
    expect(g / MB).toBeLessThan(110);
  });

  it('says nothing it did not read: no readings, no windows', () => {
    const r = summarizeResources({ source: 'none', intervalMs: 100, samples: [], windows: [], readyAt: null, firstAnswerAt: null, firstTrafficAt: null });
    expect(r.memory).toEqual({ idle: null, steady: null, peak: null, afterLoad: null, growthPer10k: null });
    expect(r.cpu).toEqual({ idle: null, steady: null, peak: null });
    expect(mb(null)).toBe('-');
    expect(mb(12_345_678)).toBe('12.3 MB');
  });
});
