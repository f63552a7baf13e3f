// The timing oracle's verdicts on synthetic timelines (the streaming suite's product).
import { describe, expect, it } from 'vitest';
import { DEFAULT_BOUNDS, judgeDelivery, timelineText } from '../src/core/oracle.js';

const sent = Array.from({ length: 10 }, (_, i) => 1000 + i * 300);
const names = sent.map((_, i) => `e${i}`);
const judge = (arrivals: number[]) => judgeDelivery(sent, arrivals, 990, names, DEFAULT_BOUNDS);

describe('timing oracle', () => {
  it('incremental: each event a few ms after it was sent, jitter included', () => {
    const r = judge(sent.map((t, i) => t + 1 + (i % 3) * 20));
    expect(r.delivery).toBe('incremental');
    expect(r.maxLagMs).toBe(41);
    expect(r.timeToFirstEventMs).toBe(11);
  });
  it('a lag at the bound still passes; past it does not', () => {
    expect(judge(sent.map((t) => t + 200)).delivery).toBe('incremental');
    expect(judge(sent.map((t, i) => (i === 4 ? t + 201 : t + 2))).delivery).not.toBe('incremental');
  });
  it('buffered until the end: everything arrives with the last event', () => {
    const r = judge(sent.map((_, i) => sent[9] + 3 + i * 0.1));
    expect(r.delivery).toBe('buffered-until-end');
    expect(r.bursts).toBe(1);
    expect(r.burstSizes).toEqual([10]);
    expect(r.summary).toMatch(/all 10 events/);
  });
  it('buffered in blocks: bursts of events that were sent apart', () => {
    // A 4 KiB buffer releasing every third event.
    const arrivals = sent.map((_, i) => sent[Math.min(9, Math.floor(i / 3) * 3 + 2)] + 2 + i * 0.1);
    const r = judge(arrivals);
    expect(r.delivery).toBe('buffered-in-blocks');
    expect(r.bursts).toBe(3);
    expect(r.burstSizes).toEqual([3, 3, 3]);
  });
  it('delayed: one by one, but every event late', () => {
    const r = judge(sent.map((t) => t + 500));
    expect(r.delivery).toBe('delayed');
    expect(r.bursts).toBe(0);
    expect(r.summary).toMatch(/lag 500 to 500 ms/);
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
    expect(r.delivery).toBe('delayed');
  });
  it('shows both timelines side by side', () => {
    const text = timelineText(judge(sent.map((t) => t + 1)).timeline);
    expect(text.split('\n')).toHaveLength(11);
    expect(text).toMatch(/e0\s+10\.0\s+11\.0\s+1\.0/);
  });
});
