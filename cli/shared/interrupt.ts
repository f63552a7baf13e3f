// Ctrl-C during a run, as Playwright does it: the first SIGINT while checks run stops the run
// where it is; the checks that finished are reported by every reporter, the others marked not
// run, and the process exits 130. A second SIGINT, or one while no check runs (starting the
// gateway, the readiness gate), exits 130 at once.
import type { CheckDef } from '../../src/check/check.js';
import type { CheckResult } from '../../src/report/types.js';
import { INTERRUPTED_EXIT, NOT_RUN } from '../../src/report/policy.js';

export { INTERRUPTED_EXIT, NOT_RUN };

/** What a run needs to know of Ctrl-C: whether it came, and where checks run. */
export interface Interruption {
  /** Aborted by the first SIGINT while checks run. */
  readonly signal: AbortSignal;
  /** Runs the checks: a SIGINT meanwhile ends them with a report instead of the process. */
  during<T>(run: () => Promise<T>): Promise<T>;
}


/** The result of a check the Ctrl-C stopped before it finished: skipped, not failed. */
export const notRun = (c: CheckDef): CheckResult => ({ id: c.id, title: c.title, area: c.area, requirements: c.requirements, level: c.level, outcome: 'skip', message: NOT_RUN, expected: null, actual: null, evidence: {}, durationMs: 0 });

export class Interrupt implements Interruption {
  private readonly ac = new AbortController();
  private running = false;
  readonly signal = this.ac.signal;

  constructor(private readonly say: (line: string) => void) {
    process.on('SIGINT', this.onSignal);
  }

  async during<T>(run: () => Promise<T>): Promise<T> {
    this.running = true;
    try {
      return await run();
    } finally {
      this.running = false;
    }
  }

  /** Leaves SIGINT to the process's default again. */
  dispose(): void {
    process.off('SIGINT', this.onSignal);
  }

  private readonly onSignal = () => {
    if (this.signal.aborted || !this.running) return void process.exit(INTERRUPTED_EXIT);
    this.say('gw-conformance: interrupted: writing the reports of the checks that finished (Ctrl-C again to quit at once)');
    this.ac.abort();
  };
}

/** Runs `fn` with an Interrupt installed (removed afterwards). */
export async function withInterrupt<T>(say: (line: string) => void, fn: (i: Interrupt) => Promise<T>): Promise<T> {
  const i = new Interrupt(say);
  try {
    return await fn(i);
  } finally {
    i.dispose();
  }
}
