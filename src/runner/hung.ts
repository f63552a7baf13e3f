// The run-level bound against a gateway that hangs: each check waits out its own time limit, so
// a gateway that answers nothing (or drips, or never ends an answer) would make a run last its
// number of checks times the limit, over the concurrency. Once checks end at their time limit
// several in a row, with no check in between that the gateway answered, the runner starts no
// more checks: they are reported as not run, with the checks the gateway hung on, and the run
// exits 1 (the gateway's fault, never a pass). Checks already running end at their own limits,
// so the run ends within its longest check of the hang being seen. A gateway that answers
// (pass, fail or warn, any verdict) resets the count: a clean gateway never meets the bound.
// A gateway whose hangs alternate with answers never makes a streak, so a second rule counts
// every time-out: once there are twice the streak's length of them, and they are at least half
// the checks that ended since the first, the bound is met too (a gateway with a few hangs among
// many answers never meets it).
import type { CheckDef } from '../check/check.js';
import type { CheckResult } from '../report/shared/types.js';
import { notRunResult } from './not-run.js';
import { HUNG_NOT_RUN } from '../report/shared/policy.js';

/**
 * How many checks in a row must end at their time limit: as many as run at once (the first
 * wave of a hung gateway ends together), at least 2 (one hang is a finding, not a hung
 * gateway) and at most 4 (a run at a high concurrency is stopped as soon as at the default).
 */
export function hungAfter(concurrency: number): number {
  return Math.max(2, Math.min(4, concurrency));
}

/** Counts the checks that end at their time limit in a row, in the order they end. */
export class HangBreaker {
  private streak: string[] = [];
  /** Every time-out so far, and how many checks (skips aside) ended since the first. */
  private timedOut: string[] = [];
  private endedSinceFirst = 0;
  private hungOn: string[] | null = null;
  /** Whether the bound was met by the share of time-outs rather than a streak. */
  private byShare = false;
  constructor(private readonly after: number) {}

  /** A check ended: a time-out extends the streak, any verdict the gateway gave ends it; a skip (nothing sent) leaves it. */
  note(r: Pick<CheckResult, 'id' | 'outcome'>): void {
    if (this.hungOn || r.outcome === 'skip') return;
    if (this.timedOut.length) this.endedSinceFirst++;
    if (r.outcome !== 'timeout') {
      this.streak = [];
      return;
    }
    if (!this.timedOut.length) this.endedSinceFirst = 1;
    this.timedOut.push(r.id);
    this.streak.push(r.id);
    if (this.streak.length >= this.after) this.hungOn = [...this.streak];
    else if (this.timedOut.length >= 2 * this.after && this.timedOut.length * 2 >= this.endedSinceFirst) {
      this.hungOn = [...this.timedOut];
      this.byShare = true;
    }
  }

  /** The checks the gateway hung on, once the bound is met; null before. */
  get tripped(): readonly string[] | null {
    return this.hungOn;
  }

  /** The result of a check not started because the gateway hung (only once tripped). */
  notRun(c: CheckDef): CheckResult {
    const on = this.hungOn ?? [];
    const message = this.byShare
        ? `${HUNG_NOT_RUN} on ${on.length} of the ${this.endedSinceFirst} checks that ended since its first hang (${on.join(', ')}), each ended at its time limit; the run started no more checks, each of which would have waited out its own limit`
        : `${HUNG_NOT_RUN} on ${on.length} checks in a row (${on.join(', ')}), each ended at its time limit with no answer in between; the run started no more checks, each of which would have waited out its own limit`;
    return notRunResult(c, message, { hungOn: [...on] });
  }
}
