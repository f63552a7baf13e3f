// Ctrl-C during a run, as Playwright does it: the first SIGINT while checks run stops the run
// where it is; the checks that finished are reported by every reporter, the others marked not
// run, and the process exits 130. A second SIGINT, or one while no check runs (starting the
// gateway, the readiness gate), exits 130 at once.
// What the run is told of it (Interruption) is the runner's: src/runner/interruption.ts.
import { INTERRUPTED_EXIT, NOT_RUN } from '../../src/report/shared/policy.js';
import type { Interruption } from '../../src/runner/interruption.js';

export { INTERRUPTED_EXIT, NOT_RUN, type Interruption };

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

/** How the process ends on a signal that stopped a started gateway (src/launch/launch.ts gives the code: 130, 143). */
export const exitOnSignal = (code: number): void => void process.exit(code);

/** Runs `fn` with an Interrupt installed (removed afterwards). */
export async function withInterrupt<T>(say: (line: string) => void, fn: (i: Interrupt) => Promise<T>): Promise<T> {
  const i = new Interrupt(say);
  try {
    return await fn(i);
  } finally {
    i.dispose();
  }
}
