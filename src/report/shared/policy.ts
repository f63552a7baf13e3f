// What counts as a failure, decided once: for the exit code, the JUnit writer and the console.
import type { CheckResult, ExitCode } from './types.js';

/** How the run was told to judge: --strict (SHOULD failures count) and --allow-flaky. */
export interface Judgement {
  strict: boolean;
  allowFlaky?: boolean;
}

const judgement = (j: boolean | Judgement): Judgement => (typeof j === 'boolean' ? { strict: j } : j);

/**
 * A result that fails the run: a MUST broken, a check that timed out (but INFO), a SHOULD broken
 * in strict mode, a flaky check (MUST, or SHOULD in strict mode) unless --allow-flaky. A waived
 * result never does: its waiver is in force.
 */
export function isFailure(r: Pick<CheckResult, 'outcome' | 'level'>, how: boolean | Judgement): boolean {
  const { strict, allowFlaky } = judgement(how);
  if (r.outcome === 'flaky') return !allowFlaky && (r.level === 'MUST' || (strict && r.level === 'SHOULD'));
  return r.outcome === 'fail' || (r.outcome === 'timeout' && r.level !== 'INFO') || (strict && r.outcome === 'warn');
}

/** The order of the findings' outcomes, and of the levels within one. */
const FINDING_ORDER: ReadonlyArray<CheckResult['outcome']> = ['fail', 'timeout', 'flaky', 'error', 'warn', 'info', 'waived'];
const LEVEL_ORDER: readonly string[] = ['MUST', 'SHOULD', 'INFO'];

/**
 * The findings (results that did not pass or skip) in the order a reader wants them: first what
 * fails the run (a MUST broken, timed out or flaky; a SHOULD too under --strict), then the
 * harness's own errors, the SHOULD findings, the INFO findings and the waived ones; within each
 * by outcome, then MUST, SHOULD, INFO, then the run's order. For the console and the job summary;
 * report.json and JUnit keep the run's order.
 */
export function findingsInOrder<R extends Pick<CheckResult, 'outcome' | 'level'>>(results: readonly R[], how: boolean | Judgement): R[] {
  const key = (r: R) => [isFailure(r, how) ? 0 : 1, FINDING_ORDER.indexOf(r.outcome), LEVEL_ORDER.indexOf(r.level)];
  const keyed = results.filter((r) => r.outcome !== 'pass' && r.outcome !== 'skip').map((r) => ({ r, k: key(r) }));
  // Array.prototype.sort is stable: equal keys keep the run's order.
  return keyed.sort((a, b) => a.k[0] - b.k[0] || a.k[1] - b.k[1] || a.k[2] - b.k[2]).map((x) => x.r);
}

/** The harness itself broke on this check: never the gateway's fault. */
export const isHarnessError = (r: Pick<CheckResult, 'outcome'>) => r.outcome === 'error';

/** The exit code of a run Ctrl-C stopped: no verdict, whatever finished. */
export const INTERRUPTED_EXIT = 130;

/** The message of a check a Ctrl-C stopped before it finished. */
export const NOT_RUN = 'not run: the run was interrupted (Ctrl-C) before this check finished';

/** The start of the message of a check not started because the gateway hung on the checks before it (src/runner/hung.ts). */
export const HUNG_NOT_RUN = 'not run: the gateway hung';

/** A check the run did not start because the gateway hung: the gateway's failure, never a pass. */
export const isHungNotRun = (r: Pick<CheckResult, 'outcome' | 'message'>) => r.outcome === 'skip' && r.message.startsWith(HUNG_NOT_RUN);

/** The start of the message of a check not run because the gateway was gone (exited, or refused connections: src/runner/gone.ts). */
export const GONE_NOT_RUN = 'not run: the gateway is gone';

/** A check the run did not run because the gateway is gone: the gateway's failure, never a pass. */
export const isGoneNotRun = (r: Pick<CheckResult, 'outcome' | 'message'>) => r.outcome === 'skip' && r.message.startsWith(GONE_NOT_RUN);

/** The start of the message of a check not started because the gateway's answers defeat every check alike (src/runner/unbounded.ts). */
export const UNBOUNDED_NOT_RUN = "not run: the gateway's answers";

/** A check the run did not start because the gateway hung, was gone, or answered every check with an answer that never ends or is not HTTP: the run is incomplete. */
export const isCutShort = (r: Pick<CheckResult, 'outcome' | 'message'>) => isHungNotRun(r) || isGoneNotRun(r) || (r.outcome === 'skip' && r.message.startsWith(UNBOUNDED_NOT_RUN));

/** A check the interrupted run did not finish. */
export const isNotRun = (r: Pick<CheckResult, 'outcome' | 'message'>) => r.outcome === 'skip' && r.message === NOT_RUN;

/**
 * 130 when Ctrl-C stopped the run (what finished is no verdict on the gateway), else 2 when the
 * harness broke on a check (its verdicts cannot be trusted), 1 when a check failed or the run
 * stopped starting checks because the gateway hung or was gone, else 0.
 */
export function exitCodeOf(results: CheckResult[], how: boolean | Judgement, interrupted = false): ExitCode {
  if (interrupted) return INTERRUPTED_EXIT;
  if (results.some(isHarnessError)) return 2;
  return results.some((r) => isFailure(r, how) || isCutShort(r)) ? 1 : 0;
}

/** The one line printed on stderr when the harness broke on a check. */
export function harnessErrorLine(results: CheckResult[]): string | null {
  const broken = results.filter(isHarnessError);
  if (!broken.length) return null;
  const first = broken[0];
  return `the harness broke on ${first.id}: ${first.message.split('\n')[0]}, not the gateway${broken.length > 1 ? ` (and on ${broken.length - 1} more check${broken.length > 2 ? 's' : ''})` : ''}`;
}
