// merge-reports: the JSON reports of shards merged into one report, written in the formats asked.
import { DEFAULT_REPORTERS, type JunitFormat, type ReporterName } from '../../src/config/options.js';
import { writeReports } from '../../src/reporters/index.js';
import { reportersFor } from '../../src/reporters/names.js';
import { assertDistinct, mergeReports, readReport } from '../../src/report/run/merge.js';
import { plural } from '../../src/core/words.js';
import { loadShardLines } from '../../src/report/run/load-shards.js';

type Io = { out: (s: string) => void; err: (s: string) => void; env: NodeJS.ProcessEnv };

/** `reporter`: the formats to write (all when absent). */
export async function mergeCommand(dirs: string[], opts: { out: string; force?: boolean; reporter?: ReporterName[]; junitFormat?: JunitFormat }, order: string[], io: Io): Promise<number> {
  assertDistinct(dirs);
  const named = dirs.map((d) => ({ name: d, report: readReport(d) }));
  const { report, notes } = mergeReports(named, { force: opts.force, order });
  for (const n of notes) io.err(`gw-conformance: merge-reports --force: ${n}`);
  // As in run: `github` is added in GitHub Actions, and writes the job summary GITHUB_STEP_SUMMARY names.
  const names = reportersFor(opts.reporter ?? [...DEFAULT_REPORTERS], io.env);
  const stepSummary = names.includes('github') ? io.env.GITHUB_STEP_SUMMARY || undefined : undefined;
  io.out(`merge-reports: ${plural(named.length, 'report')}, ${plural(report.results.length, 'check')}`);
  for (const l of loadShardLines(report)) io.out(`merge-reports: ${l}`);
  writeReports(report, names, opts.out, io.out, { junitFormat: opts.junitFormat, stepSummary });
  return report.exitCode;
}
