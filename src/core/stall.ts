// How long this process's event loop was held while something was timed: busy with other work
// (another run's set-up in the same process, a garbage collection) or the process not scheduled
// on a loaded machine. A time the harness measures, or waits for, includes such holds, and they
// are not the gateway's (nor the upstream's). One interval timer runs while any meter is open;
// each tick adds how late it fired to a running total. A hold of H ms is counted as at least
// H - TICK_MS (the tick due during it fires late by that much), never more than it lasted, so a
// time with the holds taken off is never shorter than what the other side really took, within TICK_MS.
import { performance } from 'node:perf_hooks';

/** The meter's tick: the most of one hold it may leave uncounted. */
export const TICK_MS = 10;

let total = 0;
let open = 0;
let last = 0;
let timer: NodeJS.Timeout | undefined;

function tick(): void {
  const now = performance.now();
  const late = now - last - TICK_MS;
  if (late > 0) total += late;
  last = now;
}

export interface StallMeter {
  /** ms the loop was held since the meter started, so far (counting a hold still under way). */
  read(): number;
  /** Stops the meter; returns read(). */
  stop(): number;
}

/** Starts counting the holds of this process's event loop. */
export function stallMeter(): StallMeter {
  if (open++ === 0) {
    last = performance.now();
    timer = setInterval(tick, TICK_MS);
    timer.unref();
  }
  const start = total;
  let stopped: number | undefined;
  const read = () => {
    if (stopped !== undefined) return stopped;
    // A hold that ends just now has not been ticked yet.
    const pending = Math.max(0, performance.now() - last - TICK_MS);
    return total - start + pending;
  };
  return {
    read,
    stop() {
      if (stopped !== undefined) return stopped;
      const v = read();
      stopped = v;
      if (--open === 0) clearInterval(timer);
      return v;
    },
  };
}

/**
 * Like setTimeout(fn, ms), but the process's own holds do not count: fires once `ms` have
 * passed with the loop free to notice what it waits for (a time-out of the other side's silence,
 * not of this process's stalls). Holds put it off by at most `maxHeldMs` (default `ms`: it fires
 * within twice its time). The meter cannot tell a held loop from one busy with other work (a
 * busy loop is late for every tick), so the bound matters: a silent peer is still caught, later.
 * Returns the function that cancels it.
 */
export function patientTimeout(fn: () => void, ms: number, maxHeldMs = ms): () => void {
  const meter = stallMeter();
  const t0 = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const elapsed = performance.now() - t0;
    const owed = ms - (elapsed - Math.min(meter.read(), maxHeldMs));
    if (owed > 0) {
      timer = setTimeout(check, owed);
      return;
    }
    meter.stop();
    fn();
  };
  timer = setTimeout(check, ms);
  return () => {
    clearTimeout(timer);
    meter.stop();
  };
}
