// The timing oracle's verdicts on synthetic timelines (the streaming suite's product): buffering
// (SSE-INC-1) told apart from added latency (SSE-LAT-1), the latency's likely cause, and the margin.
import { describe, expect, it } from 'vitest';
import { DEFAULT_BOUNDS, judgeDelivery, judgeLatency, nearBound, quantile, timelineText, withMargin } from '../../../src/core/oracle.js';

const sent = Array.from({ length: 10 }, (_, i) => 1000 + i * 300);
const names = sent.map((_, i) => `e${i}`);
const judge = (arrivals: number[]) => judgeDelivery(sent, arrivals, 990, names, DEFAULT_BOUNDS);
const delayed = (ms: number) => judge(sent.map((t) => t + ms));
const latency = (ms: number, jitter = 0) => {
  const r = delayed(ms);
  return judgeLatency(
    r.lags.map((l, i) => l + (i % 3) * jitter),
    r.bursts,
    DEFAULT_BOUNDS,
  );
};

describe('timing oracle: buffering (SSE-INC-1)', () => {
  it('the defaults: a coarse bound of 1 s, a burst window of 50 ms, a median latency bound of 50 ms', () => {
    expect(DEFAULT_BOUNDS).toEqual({ maxLagMs: 1000, burstWindowMs: 50, latP50Ms: 50 });
  });
  it('incremental: each event a few ms after it was sent, jitter included', () => {
    const r = judge(sent.map((t, i) => t + 1 + (i % 3) * 20));
    expect(r.delivery).toBe('incremental');
    expect(r.maxLagMs).toBe(41);
    expect(r.p50LagMs).toBe(21);
    expect(r.timeToFirstEventMs).toBe(11);
    expect(r.nearBound).toEqual([]);
  });
  it('a constant delay under the coarse bound is not buffering, however it compares to a kernel timer', () => {
    for (const ms of [30, 60, 150, 210, 500]) expect(delayed(ms).delivery, `${ms} ms`).toBe('incremental');
  });
  it('a lag at the coarse bound still passes; past it is late', () => {
    expect(delayed(1000).delivery).toBe('incremental');
    // A stall from the fifth event on: one by one, but late.
    const r = judge(sent.map((t, i) => (i >= 4 ? t + 1001 : t + 2)));
    expect(r.delivery).toBe('late');
    expect(r.summary).toMatch(/past the coarse bound of 1000 ms/);
    const far = delayed(1500);
    expect(far.delivery).toBe('late');
    expect(far.nearBound).toEqual([]);
  });
  it('buffered until the end: everything arrives with the last event', () => {
    const r = judge(sent.map((_, i) => sent[9] + 3 + i * 0.1));
    expect(r.delivery).toBe('buffered-until-end');
    expect(r.bursts).toBe(1);
    expect(r.burstSizes).toEqual([10]);
    expect(r.summary).toMatch(/all 10 events/);
  });
  it('buffered in blocks: bursts of events that were sent apart, although no lag reaches the coarse bound', () => {
    // A 4 KiB buffer releasing every third event: the largest lag is two gaps (600 ms).
    const arrivals = sent.map((_, i) => sent[Math.min(9, Math.floor(i / 3) * 3 + 2)] + 2 + i * 0.1);
    const r = judge(arrivals);
    expect(r.maxLagMs).toBeLessThan(DEFAULT_BOUNDS.maxLagMs);
    expect(r.delivery).toBe('buffered-in-blocks');
    expect(r.bursts).toBe(3);
    expect(r.burstSizes).toEqual([3, 3, 3]);
  });
  it('two events sent apart and delivered together are a burst, even with small lags; so few bursted events are measured again', () => {
    const r = judge(sent.map((t, i) => (i === 5 ? sent[6] + 1 : t + 1)));
    expect(r.delivery).toBe('buffered-in-blocks');
    expect(r.burstSizes).toEqual([2]);
    // 2 of 10 events: below a quarter, so this is not decided on one stream.
    expect(r.nearBound).toEqual(['only 2 of 10 events arrived in bursts (one pause of a loaded machine can do that)']);
    // A buffer that releases every third event bursts 9 of 10: decided at once.
    const blocks = judge(sent.map((_, i) => sent[Math.min(9, Math.floor(i / 3) * 3 + 2)] + 2 + i * 0.1));
    expect(blocks.nearBound).toEqual([]);
  });
  it('a burst no longer than this process was held is measured again; a hold shorter than the burst leaves the verdict as it was', () => {
    // Of four events 300 ms apart, the middle two arrive together (2 of 4: over a quarter).
    const four = [0, 300, 600, 900].map((t) => 1000 + t);
    const arrivals = four.map((t, i) => (i === 1 ? four[2] + 1 : t + 1));
    const held = judgeDelivery(four, arrivals, 1000, ['a', 'b', 'c', 'd'], DEFAULT_BOUNDS, 290);
    expect(held.delivery).toBe('buffered-in-blocks');
    expect(held.nearBound).toEqual(['this process was held 290 ms while the stream was read, about as long as a burst took to send (300 ms): one pause of a loaded machine can merge events so']);
    expect(judgeDelivery(four, arrivals, 1000, ['a', 'b', 'c', 'd'], DEFAULT_BOUNDS, 120).nearBound).toEqual([]);
    expect(judgeDelivery(four, arrivals, 1000, ['a', 'b', 'c', 'd']).nearBound).toEqual([]);
  });
  it('incomplete: fewer events than were sent', () => {
    const r = judge(sent.slice(0, 6).map((t) => t + 1));
    expect(r.delivery).toBe('incomplete');
    expect(r.summary).toBe('only 6 of 10 events arrived');
  });
  it('events sent back to back and arriving together are no burst', () => {
    const s = [0, 0.1, 0.2, 300, 300.1];
    const r = judgeDelivery(s, s.map((t) => t + 250), 0, [], DEFAULT_BOUNDS);
    expect(r.bursts).toBe(0);
    expect(r.delivery).toBe('incremental');
  });
  it('names the measured values within 25% of their bound: the largest lag, and arrival gaps near the burst window', () => {
    expect(delayed(750).nearBound).toEqual(['largest lag 750 ms (bound 1000 ms)']);
    expect(delayed(1250).nearBound).toEqual(['largest lag 1250 ms (bound 1000 ms)']);
    expect(delayed(749).nearBound).toEqual([]);
    expect(delayed(1251).nearBound).toEqual([]);
    const r = judge(sent.map((t, i) => (i === 5 ? sent[6] - 60 : t + 1)));
    expect(r.nearBound).toHaveLength(1);
    expect(r.nearBound[0]).toMatch(/^events 5 and 6, sent 300 ms apart, arrived 61 ms apart/);
  });
  it('shows both timelines side by side', () => {
    const text = timelineText(judge(sent.map((t) => t + 1)).timeline);
    expect(text.split('\n')).toHaveLength(11);
    expect(text).toMatch(/e0\s+10\.0\s+11\.0\s+1\.0/);
  });
});

describe('timing oracle: added latency (SSE-LAT-1)', () => {
  it('quantiles by nearest rank', () => {
    expect(quantile([5, 1, 4, 2, 3], 0.5)).toBe(3);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBe(9);
    expect(quantile([], 0.5)).toBe(0);
  });
  it('loopback lag: no added latency, no cause', () => {
    const l = latency(1);
    expect(l).toMatchObject({ ok: true, p50Ms: 1, cause: null, nearBound: false });
    expect(l.summary).toMatch(/^little added latency: median lag 1 ms/);
  });
  it('events that arrive before the upstream sent their pair cannot be paired: no latency is judged, and the summary says so', () => {
    const l = judgeLatency([0.4, -100, -107, -120, 0.5], 0);
    expect(l).toMatchObject({ ok: false, unpaired: 3, cause: null });
    expect(l.summary).toMatch(/^could not judge: 3 of 5 events arrived before the upstream sent the event paired with it \(lag down to -120 ms\)/);
    expect(judgeLatency([0.4, -0.9, 0.5], 0).unpaired).toBe(0);
  });
  it('the bound is on the median: one slow event does not fail it', () => {
    const l = judgeLatency([1, 1, 1, 1, 1, 1, 1, 1, 1, 400], 0);
    expect(l.ok).toBe(true);
    expect(l.maxMs).toBe(400);
  });
  it('a constant 210 ms offset fails, named as 200 ms TCP coalescing (MSG_MORE, Nagle with delayed ACK)', () => {
    const l = latency(210);
    expect(l.ok).toBe(false);
    expect(l.p50Ms).toBe(210);
    expect(l.cause).toMatch(/about 200 ms: TCP coalescing.*MSG_MORE.*Nagle/);
    expect(l.summary).toMatch(/^added latency: median lag 210 ms per event .*bound 50 ms\); likely cause: a constant offset of about 200 ms/);
  });
  it('a constant 40 ms offset is named as Nagle with a delayed ACK, and passes the 50 ms bound', () => {
    const l = latency(41);
    expect(l.ok).toBe(true);
    expect(l.cause).toMatch(/about 40 ms: TCP coalescing, Nagle's algorithm waiting for a delayed ACK/);
    expect(l.nearBound).toBe(true);
  });
  it('a constant offset at no kernel timer value is called a pacing or processing delay', () => {
    expect(latency(150).cause).toMatch(/constant per-event delay of about 150 ms, not a kernel timer value/);
    expect(latency(60).cause).toMatch(/constant per-event delay of about 60 ms/);
  });
  it('a spread-out delay is called variable', () => {
    const l = latency(100, 60);
    expect(l.ok).toBe(false);
    expect(l.cause).toMatch(/^a variable delay \(p10 100 ms, p90 220 ms\)/);
  });
  it('buffering shows as latency caused by buffering', () => {
    const r = judge(sent.map((_, i) => sent[9] + 3 + i * 0.1));
    const l = judgeLatency(r.lags, r.bursts);
    expect(l.ok).toBe(false);
    expect(l.cause).toMatch(/^buffering: 1 burst of events/);
  });
  it('the margin band is 25% of the bound on either side', () => {
    expect([37.4, 37.5, 50, 62.5, 62.6].map((v) => nearBound(v, 50))).toEqual([false, true, true, true, false]);
    expect(latency(30).nearBound).toBe(false);
    expect(latency(60).nearBound).toBe(true);
    expect(latency(150).nearBound).toBe(false);
  });
});

describe('timing oracle: deciding with a margin', () => {
  it('a clear first measurement is decided at once', async () => {
    let again = 0;
    const d = await withMargin(10, () => [], async () => ++again, String);
    expect(d).toEqual({ decide: 10, remeasured: null });
    expect(again).toBe(0);
  });
  it('a first measurement near its bound is measured again, decided on the second, and said so', async () => {
    const d = await withMargin(
      55,
      (v) => (nearBound(v, 50) ? [`median ${v} ms`] : []),
      async () => 61,
      (v) => `median ${v} ms`,
    );
    expect(d.decide).toBe(61);
    expect(d.remeasured).toBe('first measurement within 25% of its bound (median 55 ms: median 55 ms); measured again with more events and decided on that: median 61 ms');
  });
});
