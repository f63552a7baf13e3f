// What a run is told of Ctrl-C (the CLI hears the signal: cli/shared/interrupt.ts): whether it
// came, and where the checks run; and the result of a check it stopped before it finished.
import type { CheckDef } from '../check/check.js';
import type { CheckResult } from '../report/shared/types.js';
import { NOT_RUN } from '../report/shared/policy.js';

/** What a run needs to know of Ctrl-C: whether it came, and where checks run. */
export interface Interruption {
  /** Aborted by the first SIGINT while checks run. */
  readonly signal: AbortSignal;
  /** Runs the checks: a SIGINT meanwhile ends them with a report instead of the process. */
  during<T>(run: () => Promise<T>): Promise<T>;
}

/** The result of a check the Ctrl-C stopped before it finished: skipped, not failed. */
export const notRun = (c: CheckDef): CheckResult => ({ id: c.id, title: c.title, area: c.area, requirements: c.requirements, level: c.level, outcome: 'skip', message: NOT_RUN, expected: null, actual: null, evidence: {}, durationMs: 0 });
