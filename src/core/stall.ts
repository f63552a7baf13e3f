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
  // A hold that ends just now has not been ticked yet: one that ended before this meter started is not its.
  const pending = () => Math.max(0, performance.now() - last - TICK_MS);
  const start = total + pending();
  let stopped: number | undefined;
  const read = () => {
    if (stopped !== undefined) return stopped;
    return Math.max(0, total + pending() - start);
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

/**
 * An abort signal for a request to a peer on this machine: it aborts after `ms` of the peer's
 * silence, this process's holds not counted (patientTimeout), where AbortSignal.timeout counts
 * them. `done` cancels it once the answer is in.
 */
export function patientSignal(ms: number): { signal: AbortSignal; done: () => void } {
  const ac = new AbortController();
  const cancel = patientTimeout(() => ac.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError')), ms);
  return { signal: ac.signal, done: cancel };
}

/** A time this process measured, and how much of it its event loop was held (not the other side's). */
export interface Timed {
  ms: number;
  heldMs: number;
}

/** How many times a time is measured while holds of this process leave it undecided; then the harness gives up (an error, never a verdict). */
export const MEASUREMENTS = 3;

/**
 * A time against a bound of the other side's: 'within' as measured, 'over' even with every
 * hold taken off, or 'undecided' (over it only with the holds counted: measure it again).
 */
export function against(limitMs: number, t: Timed): 'within' | 'over' | 'undecided' {
  if (t.ms <= limitMs) return 'within';
  return t.ms - t.heldMs > limitMs ? 'over' : 'undecided';
}

/** Runs `fn` with a meter open: its value, and how long the loop was held meanwhile (never more than it took). */
export async function metered<T>(fn: () => Promise<T>): Promise<{ value: T; heldMs: number; ms: number }> {
  const meter = stallMeter();
  const t0 = performance.now();
  try {
    const value = await fn();
    const ms = performance.now() - t0;
    return { value, ms, heldMs: Math.min(meter.read(), ms) };
  } finally {
    meter.stop();
  }
}

/**
 * Measures with `measure` until its time is judged against `limitMs` (at most MEASUREMENTS
 * times): the last measurement, its judgement and every time measured. When the holds explain
 * the time in every measurement, throws: the harness could not tell, the gateway is not judged.
 */
export async function judged<T extends Timed>(what: string, limitMs: number, measure: () => Promise<T>): Promise<{ last: T; time: 'within' | 'over'; measured: Timed[] }> {
  const measured: Timed[] = [];
  for (;;) {
    const last = await measure();
    measured.push({ ms: Math.round(last.ms), heldMs: Math.round(last.heldMs) });
    const time = against(limitMs, last);
    if (time !== 'undecided') return { last, time, measured };
    if (measured.length >= MEASUREMENTS) throw new Error(`${what}'s time could not be judged: this process's event loop was held for most of it in each of ${MEASUREMENTS} measurements (${JSON.stringify(measured)})`);
  }
}
