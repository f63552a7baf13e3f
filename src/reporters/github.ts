// The GitHub Actions reporter: an annotation per check that did not pass (`::error` for a MUST
// that failed, timed out or was flaky, and for the harness's own errors; `::warning` for a SHOULD;
// `::notice` for INFO), printed on standard output where the runner reads workflow commands, and a
// job summary (Markdown: the counts, then a table of the checks that did not pass, what fails the
// run first, with their requirement, message and fix link) appended to the file
// GITHUB_STEP_SUMMARY names. It is on by default when GITHUB_ACTIONS=true, beside the chosen
// reporters. The report it is given is masked
// already; what the gateway sent is made inert for each sink by src/core/inert.ts, so a message
// can neither start a workflow command of its own nor add markup to the summary.
import { markdownCell, workflowData, workflowProperty } from '../core/inert.js';
import type { CheckResult, RunReport } from '../report/shared/types.js';
import { fixLink } from '../core/links.js';
import { resultLine } from './console.js';
import { findingsInOrder, isNotRun } from '../report/shared/policy.js';

type Command = 'error' | 'warning' | 'notice';
const COMMAND: Partial<Record<CheckResult['outcome'], Command>> = { fail: 'error', timeout: 'error', flaky: 'error', error: 'error', warn: 'warning', info: 'notice' };

/** An annotation's message is cut here: the report files hold the rest. */
const MESSAGE_MAX = 2000;
/** Rows of the summary's table; the report files list the rest. */
export const ROWS_MAX = 100;

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);
const noted = (report: RunReport) => report.results.filter((r) => COMMAND[r.outcome]);

/** One workflow command per check that did not pass; first, for a run Ctrl-C stopped, one that says so (it is no verdict). */
export function annotations(report: RunReport): string {
  const left = report.results.filter(isNotRun).length;
  const stopped = report.interrupted ? [`::error title=gw-conformance interrupted::${workflowData(`Ctrl-C stopped the run: ${left} of ${report.results.length} checks did not finish; no verdict on the gateway`)}`] : [];
  const checks = noted(report).map((r) => {
    const title = `${r.id} [${r.level} ${r.requirements.join(', ')}]`;
    const body = [clip(r.message, MESSAGE_MAX), ...(r.expected ? [`expected: ${clip(r.expected, 500)}`] : []), ...(r.actual ? [`actual: ${clip(r.actual, 500)}`] : [])];
    if (r.outcome !== 'error') body.push(`fix: ${fixLink(r.id)}`);
    return `::${COMMAND[r.outcome]} title=${workflowProperty(title)}::${workflowData(body.join('\n'))}`;
  });
  return [...stopped, ...checks].join('\n');
}

/** The job summary: the result, the counts, then a table of the checks that did not pass. */
export function jobSummary(report: RunReport, files: readonly string[]): string {
  const s = report.summary;
  const kinds = (['pass', 'fail', 'warn', 'info', 'timeout', 'error', 'flaky', 'waived', 'skip'] as const).filter((k) => s[k] > 0 || k === 'pass' || k === 'fail');
  const lines = [
    `## gw-conformance ${markdownCell(report.harness.version)}`,
    '',
    markdownCell(resultLine(report, files).replace(/^gw-conformance: /, '')),
    '',
    `| ${kinds.join(' | ')} | seconds |`,
    `|${kinds.map(() => '---:|').join('')}---:|`,
    `| ${kinds.map((k) => s[k]).join(' | ')} | ${(report.durationMs / 1000).toFixed(1)} |`,
  ];
  const bad = findingsInOrder(report.results, { strict: report.strict, allowFlaky: report.allowFlaky });
  if (bad.length) {
    lines.push('', '| outcome | check | requirement | message | how to fix |', '|---|---|---|---|---|');
    for (const r of bad.slice(0, ROWS_MAX))
      lines.push(`| ${r.outcome.toUpperCase()} | ${markdownCell(r.id)} | ${markdownCell(`${r.level} ${r.requirements.join(', ')}`)} | ${markdownCell(clip(r.message.replace(/\r?\n/g, ' '), 300))} | ${r.outcome === 'error' ? '' : fixLink(r.id)} |`); // our URL (an encoded id): GitHub links it
    if (bad.length > ROWS_MAX) lines.push('', `${bad.length - ROWS_MAX} more in the report files.`);
  }
  lines.push('', `target ${markdownCell(report.target)}, profile ${markdownCell(report.profile)}, seed ${report.seed}`);
  return `${lines.join('\n')}\n`;
}
