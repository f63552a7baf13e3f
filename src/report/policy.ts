// What counts as a failure, decided once: for the exit code, the JUnit writer and the console.
import type { CheckResult } from './types.js';

/** A result that fails the run: a MUST broken, a check that timed out (but INFO), a SHOULD broken in strict mode. */
export function isFailure(r: Pick<CheckResult, 'outcome' | 'level'>, strict: boolean): boolean {
  return r.outcome === 'fail' || (r.outcome === 'timeout' && r.level !== 'INFO') || (strict && r.outcome === 'warn');
}

/** The harness itself broke on this check: never the gateway's fault. */
export const isHarnessError = (r: Pick<CheckResult, 'outcome'>) => r.outcome === 'error';

/** 2 when the harness broke on a check (its verdicts cannot be trusted), 1 when a check failed, else 0. */
export function exitCodeOf(results: CheckResult[], strict: boolean): 0 | 1 | 2 {
  if (results.some(isHarnessError)) return 2;
  return results.some((r) => isFailure(r, strict)) ? 1 : 0;
}

/** The one line printed on stderr when the harness broke on a check. */
export function harnessErrorLine(results: CheckResult[]): string | null {
  const broken = results.filter(isHarnessError);
  if (!broken.length) return null;
  const first = broken[0];
  return `the harness broke on ${first.id}: ${first.message.split('\n')[0]}, not the gateway${broken.length > 1 ? ` (and on ${broken.length - 1} more check${broken.length > 2 ? 's' : ''})` : ''}`;
}
