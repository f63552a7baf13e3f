// The recording upstream's barrier (a reply's `hold`, src/upstream/scenario.ts): the load
// profile has the answers of a group held until a batch of its requests is waiting, so that many
// requests are in flight at the gateway at once, whatever the rate. The wait is bounded: a
// gateway that forwards fewer at once (one at a time, a small pool) has its batch answered when
// the bound runs out, and the rest of the group is answered in batches of as many as came then,
// so such a gateway costs one bound, not one per batch, and never hangs. The bound does not
// count this process's holds (patientTimeout): a busy machine does not shrink the batches.
import { patientTimeout } from '../../src/core/stall.js';
import type { Hold } from '../../src/upstream/scenario.js';

interface Group {
  /** The batch size now: the hold's size, lowered to what came when a wait ran out. */
  size: number;
  waiting: Array<() => void>;
  /** Requests of the group that arrived so far. */
  arrived: number;
  cancel?: () => void;
  /** When the group was last touched (groups idle for long are dropped). */
  touched: number;
}

/** Groups left alone this long are forgotten (a run that ended); a request arriving after starts its group afresh. */
const IDLE_MS = 10 * 60_000;

export class Holds {
  private groups = new Map<string, Group>();

  /** Plays `answer` now, or once the batch this request belongs to is complete (or its wait ran out). */
  arrive(hold: Hold | undefined, answer: () => void): void {
    if (!hold || hold.size <= 1) return answer();
    const now = Date.now();
    let g = this.groups.get(hold.group);
    if (!g) {
      this.forgetIdle(now);
      g = { size: hold.size, waiting: [], arrived: 0, touched: now };
      this.groups.set(hold.group, g);
    }
    g.touched = now;
    g.arrived++;
    g.waiting.push(answer);
    if (g.waiting.length >= g.size || g.arrived >= hold.total) return this.release(g);
    if (g.waiting.length === 1) {
      const group = g;
      group.cancel = patientTimeout(() => {
        group.cancel = undefined;
        // Fewer came within the bound: the gateway forwards no more at once; batches of that size from now on.
        group.size = Math.max(1, group.waiting.length);
        this.release(group);
      }, hold.waitMs);
    }
  }

  private release(g: Group): void {
    g.cancel?.();
    g.cancel = undefined;
    for (const answer of g.waiting.splice(0)) answer();
  }

  private forgetIdle(now: number): void {
    for (const [name, g] of this.groups) if (!g.waiting.length && now - g.touched > IDLE_MS) this.groups.delete(name);
  }
}
