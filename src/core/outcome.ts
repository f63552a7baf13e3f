// The words of a result, shared by the checks, the runner and the reports: a requirement's
// level and a check's outcome. Kept in core (imports nothing) so the reports can name them
// without depending on the check interface, which sees the client and the upstream.

export type Level = 'MUST' | 'SHOULD' | 'INFO';
/**
 * pass; fail (MUST broken); warn (SHOULD broken); info (INFO finding); skip; error (harness broke); timeout.
 * Two more are given by the run, never by a check: waived (a problem a waiver covers, src/report/run/waivers.ts)
 * and flaky (attempts of --repeat disagreed, src/runner/repeat.ts).
 */
export type Outcome = 'pass' | 'fail' | 'warn' | 'info' | 'skip' | 'error' | 'timeout' | 'waived' | 'flaky';

/** Outcome of a broken property, by level. */
export function failedOutcome(level: Level): Outcome {
  return level === 'MUST' ? 'fail' : level === 'SHOULD' ? 'warn' : 'info';
}
