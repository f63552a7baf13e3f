// The meter of this process's holds (src/core/stall.ts): a hold is counted (within one tick),
// not one that ended before the meter started, and a patient time-out does not fire while the loop was held for it.
import { describe, expect, it } from 'vitest';
import { patientTimeout, stallMeter, TICK_MS } from '../../../src/core/stall.js';

const hold = (ms: number) => {
  const t = performance.now();
  while (performance.now() - t < ms) {
    /* held */
  }
};

describe('stall meter', () => {
  it('counts a hold of the event loop, at least its length less one tick', async () => {
    const m = stallMeter();
    await new Promise((r) => setTimeout(r, 2 * TICK_MS));
    hold(300);
    await new Promise((r) => setImmediate(r));
    expect(m.stop()).toBeGreaterThanOrEqual(300 - TICK_MS);
  });

  it('a hold that ended before a meter started is not that meter\'s, even while another meter ticks', async () => {
    const before = stallMeter();
    await new Promise((r) => setTimeout(r, 2 * TICK_MS));
    hold(300);
    // Opened right after the hold, before any tick could count it: what the meters share since is the same for both.
    const after = stallMeter();
    await new Promise((r) => setTimeout(r, 3 * TICK_MS));
    const late = after.stop();
    expect(before.stop() - late).toBeGreaterThanOrEqual(300 - TICK_MS);
  });

  it('a patient time-out held past its time does not fire before the loop was free for it', async () => {
    let fired = false;
    let atHoldEnd = false;
    const cancel = patientTimeout(() => (fired = true), 200, 1000);
    hold(500);
    // Timers run first after a hold: a plain 200 ms timer would fire here.
    await new Promise((r) => setTimeout(r, 0));
    atHoldEnd = fired;
    await new Promise<void>((r) => patientTimeout(r, 800));
    cancel();
    expect([atHoldEnd, fired]).toEqual([false, true]);
  });
});
