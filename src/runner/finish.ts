// A finished run's end: its report files written (each finding with its fix and its replay
// command), its summary printed, its exit code returned for the CLI to exit with.
import type { RunConfig } from '../config/config.js';
import type { RunReport } from '../report/shared/types.js';
import { harnessErrorLine, INTERRUPTED_EXIT, NOT_RUN } from '../report/shared/policy.js';
import { withReplay } from '../report/run/replay.js';
import { scrubDeep } from '../core/mask.js';
import { writeReports } from '../reporters/index.js';
import { resultLine } from '../reporters/console.js';
import { reportersFor } from '../reporters/names.js';
import { withFixes, type FixSource } from './fixes.js';
import { safePrinter, secretsOf } from './run.js';

/**
 * Writes the report files, prints the summary and returns the exit code. `checks` give the
 * findings their fix (./fixes.ts); `argv` (the CLI's arguments) gives failures their replay command. In GitHub Actions the github reporter is added
 * (annotations, and the job summary GITHUB_STEP_SUMMARY names). Without the console reporter the
 * result still shows: one line on stderr. When the harness broke on a check (exit 2), one line on
 * stderr names the check: it is not the gateway's fault.
 */
export function finishRun(report: RunReport, cfg: RunConfig, io: { out: (s: string) => void; err: (s: string) => void; env?: NodeJS.ProcessEnv }, checks: FixSource, argv: string[] = []): number {
  const env = io.env ?? {};
  const names = reportersFor(cfg.reporter, env);
  const stepSummary = names.includes('github') ? env.GITHUB_STEP_SUMMARY || undefined : undefined;
  const files = writeReports(scrubDeep(withFixes(withReplay(report, argv), checks), secretsOf(cfg)), names, cfg.out, safePrinter(io.out, cfg), { junitFormat: cfg.junitFormat, stepSummary });
  const err = safePrinter(io.err, cfg);
  if (report.interrupted) {
    const left = report.results.filter((r) => r.outcome === 'skip' && r.message === NOT_RUN).length;
    err(`gw-conformance: interrupted: ${report.results.length - left} of ${report.results.length} checks finished; the reports hold them, the rest marked not run`);
    return INTERRUPTED_EXIT;
  }
  if (!cfg.reporter.includes('console')) err(resultLine(report, files));
  const broke = harnessErrorLine(report.results);
  if (broke) err(`gw-conformance: ${broke}`);
  return report.exitCode;
}
