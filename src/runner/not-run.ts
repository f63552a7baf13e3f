// The result of a check the run did not start because an earlier finding made running it
// pointless (the gateway hung, is gone, or answers in a way that defeats every check): one shape
// for the three breakers (hung.ts, gone.ts, unbounded.ts), a skip with its reason and evidence.
import type { CheckResult } from '../report/shared/types.js';

/** A skip of check `c`, not started, saying why (`message`) with the breaker's `evidence`. */
export function notRunResult(c: Pick<CheckResult, 'id' | 'title' | 'area' | 'requirements' | 'level'>, message: string, evidence: Record<string, unknown>): CheckResult {
  return { id: c.id, title: c.title, area: c.area, requirements: c.requirements, level: c.level, outcome: 'skip', message, expected: null, actual: null, evidence, durationMs: 0 };
}
