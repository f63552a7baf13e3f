// Repeated attempts (--repeat N, --repeat-failures N): a check whose attempts disagree is
// `flaky`, with every attempt's verdict in its evidence.
import type { Attempt } from '../core/evidence.js';
import type { CheckResult } from '../report/shared/types.js';

/** One result from a check's attempts (in order). Agreeing attempts give the first attempt's result. */
export function combineAttempts(attempts: CheckResult[]): CheckResult {
  const first = attempts[0];
  if (attempts.length === 1) return first;
  const list: Attempt[] = attempts.map((a, i) => ({ attempt: i + 1, outcome: a.outcome, message: a.message, durationMs: a.durationMs }));
  const durationMs = attempts.reduce((t, a) => t + a.durationMs, 0);
  const outcomes = new Set(attempts.map((a) => a.outcome));
  if (outcomes.size === 1) return { ...first, durationMs, evidence: { ...first.evidence, attempts: list } };
  // The evidence of the first attempt that did not pass: it shows what broke.
  const bad = attempts.find((a) => a.outcome !== 'pass' && a.outcome !== 'skip') ?? first;
  const verdicts = list.map((a) => `#${a.attempt} ${a.outcome}`).join(', ');
  return {
    ...bad,
    outcome: 'flaky',
    message: `verdicts differ across ${attempts.length} attempts (${verdicts}); first problem: ${bad.message}`,
    durationMs,
    evidence: { ...bad.evidence, attempts: list },
  };
}

/** Whether a result calls for another attempt under --repeat-failures. */
export const needsRetry = (r: CheckResult) => r.outcome !== 'pass' && r.outcome !== 'skip';
