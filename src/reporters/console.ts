// The console reporter: a line per check as the run goes, a summary with the findings (what fails
// the run first; each with how to reproduce it and where the fix is described), and the one-line
// result. Columns are as
// wide as the run's longest id and requirement list. What the gateway sent (messages, expected
// and actual, unmatched URLs) is made inert here, so no escape sequence of a gateway acts on the
// terminal or the CI log whoever prints this; colour is added afterwards by `colourConsole`, on
// the console's own marks only, so no gateway text decides a colour.
import { routeLines, translated } from '../report/run/routes.js';
import { basename } from 'node:path';
import { terminalSafe } from '../core/inert.js';
import type { CheckResult, RunReport } from '../report/shared/types.js';
import { waiverLines } from '../report/run/waivers.js';
import { findingsInOrder, GONE_NOT_RUN, isCutShort, isGoneNotRun, isHungNotRun } from '../report/shared/policy.js';
import { capabilityLines } from './capabilities.js';
import { transportLines } from './transports.js';
import { fixLink } from '../core/links.js';
import type { Colour } from './style.js';
import { plural } from '../core/words.js';

const MARK: Record<CheckResult['outcome'], string> = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', info: 'INFO', skip: 'SKIP', error: 'ERROR', timeout: 'TIMEOUT', waived: 'WAIVED', flaky: 'FLAKY' };
const MARK_COLOUR: Record<string, Colour> = { PASS: 'green', FAIL: 'red', WARN: 'yellow', INFO: 'blue', SKIP: 'gray', ERROR: 'magenta', TIMEOUT: 'red', WAIVED: 'cyan', FLAKY: 'yellow' };
const MARK_WIDTH = Math.max(...Object.values(MARK).map((m) => m.length));

/** The widths of the id and requirement columns: those of the longest the run has (capped, so one very long id does not push every line off a screen). */
export interface Columns {
  id: number;
  requirements: number;
}
const ID_CAP = 56;
const REQ_CAP = 32;

/** Columns fitting every check of the run. */
export function columnsFor(checks: ReadonlyArray<{ id: string; requirements: readonly string[] }>): Columns {
  const widest = (f: (c: (typeof checks)[number]) => string, cap: number) => Math.min(cap, Math.max(0, ...checks.map((c) => f(c).length)));
  return { id: widest((c) => c.id, ID_CAP), requirements: widest((c) => c.requirements.join(','), REQ_CAP) };
}

/** A cell at least `width` wide, and always followed by a space (a longer text moves the rest right rather than running into it). */
const cell = (s: string, width: number) => `${s.padEnd(width)} `;

/** One line per finished check, printed as the run goes; a check that did not pass adds its message's first line. */
export function progressLine(r: CheckResult, columns: Columns = columnsFor([r])): string {
  const head = `${cell(MARK[r.outcome], MARK_WIDTH)}${cell(r.id, columns.id)}${cell(r.requirements.join(','), columns.requirements)}${String(r.durationMs).padStart(6)} ms`;
  return terminalSafe(r.outcome === 'pass' ? head : `${head}\n${' '.repeat(MARK_WIDTH + 1)}${r.message.split('\n')[0]}`);
}

const REPLAY_OUTCOMES = new Set<CheckResult['outcome']>(['fail', 'warn', 'info', 'error', 'timeout', 'flaky']);

/** How to see a finding again and how to fix it: the replay command, the HTML report's anchor, the checks reference. */
export function findingHelp(r: CheckResult, files: readonly string[]): string[] {
  const lines: string[] = [];
  const command = r.evidence.replay?.command;
  if (REPLAY_OUTCOMES.has(r.outcome) && typeof command === 'string') lines.push(`    reproduce: ${command}`);
  const html = files.find((f) => basename(f) === 'report.html');
  if (html) lines.push(`    details:   ${html}#${encodeURIComponent(r.id)}`);
  // The harness's own error is not the gateway's to fix.
  if (r.outcome !== 'error') lines.push(`    fix:       ${fixLink(r.id)}`);
  return lines;
}

function findings(report: RunReport, files: readonly string[]): string[] {
  const bad = findingsInOrder(report.results, { strict: report.strict, allowFlaky: report.allowFlaky });
  if (!bad.length) return [];
  const lines = ['', 'Findings:'];
  for (const r of bad) {
    lines.push(`  ${MARK[r.outcome]} ${r.id} [${r.level} ${r.requirements.join(', ')}]`, `    ${r.message.split('\n')[0]}`);
    if (r.expected) lines.push(`    expected: ${r.expected.split('\n')[0]}`);
    if (r.actual) lines.push(`    actual:   ${r.actual.split('\n')[0]}`);
    if (r.waiver) lines.push(`    waived until ${r.waiver.expires} (was ${r.waiver.waivedOutcome}): ${r.waiver.reason}${r.waiver.link ? ` (${r.waiver.link})` : ''}`);
    if (r.outcome !== 'waived') lines.push(...findingHelp(r, files));
  }
  return lines;
}

/** The verdict in words, as the summary and the one-line result end. */
function verdict(report: RunReport): string {
  const s = report.summary;
  if (report.interrupted) return 'INTERRUPTED (Ctrl-C): the checks that finished are above; the rest did not run, so this is no verdict';
  if (report.exitCode === 0) return 'every MUST check passed';
  if (report.exitCode === 2) return "the harness broke on a check (outcome error): its verdicts cannot be trusted; this is not the gateway's fault";
  const cut = report.results.filter(isCutShort);
  const gone = cut.find(isGoneNotRun);
  const why = gone ? `the gateway is gone (${gone.message.slice(GONE_NOT_RUN.length + 1)})` : cut.some(isHungNotRun) ? 'the gateway hung' : cut[0]?.message.slice('not run: '.length).split(': ')[0];
  if (cut.length) return `FAILED, INCOMPLETE: ${plural(cut.length, 'check')} not run because ${why}`;
  return `FAILED (${report.strict ? 'a MUST or SHOULD check' : 'a MUST check'} did not pass${s.flaky && !report.allowFlaky ? ', or was flaky' : ''})`;
}

/** The summary printed at the end of a run: counts, findings, unmatched requests, the verdict. */
export function consoleSummary(report: RunReport, files: string[]): string {
  const s = report.summary;
  const lines = [
    '',
    `gw-conformance ${report.harness.version}: ${plural(s.total, 'check')} against ${report.target} (profile ${report.profile}, seed ${report.seed})`,
    `  declared: ${[...report.declared.protocols, ...(report.declared.features ?? [])].join(', ') || 'no protocol'} (checks that need anything else are skipped as not declared)`,
    `  ${s.pass} pass, ${s.fail} fail, ${s.warn} warn, ${s.info} info, ${s.timeout} timeout, ${s.error} error, ${s.skip} skip${s.waived ? `, ${s.waived} waived` : ''}${s.flaky ? `, ${s.flaky} flaky${report.allowFlaky ? ' (allowed)' : ''}` : ''}  (${(report.durationMs / 1000).toFixed(1)} s)`,
  ];
  if (report.shard) lines.push(`  shard ${report.shard.index}/${report.shard.count} (${report.shard.balancedBy === 'load' ? 'one of the load processes' : report.shard.balancedBy === 'duration' ? 'balanced by recorded durations' : 'by check id hash'})`);
  if (report.waivers) lines.push('  waivers:', ...waiverLines(report.waivers).map((l) => `  ${l}`));
  // The routes only when one was translated: a pass-through's routes say nothing new.
  if (report.routes?.some(translated)) lines.push('  routes (client protocol → the protocol the upstream was addressed in):', ...routeLines(report.routes).map((l) => `    ${l}`));
  lines.push(...capabilityLines(report));
  lines.push(...transportLines(report));
  lines.push(...findings(report, files));
  if (report.unmatchedRequests.length) {
    lines.push('', `The upstream received ${plural(report.unmatchedRequests.length, 'request')} it could not tie to a check:`);
    for (const u of report.unmatchedRequests.slice(0, 10)) lines.push(`  ${u.method} ${u.url}: ${u.reason}`);
  }
  if (files.length) lines.push('', `Reports: ${files.join(', ')}`);
  lines.push(`Result: ${verdict(report)}.`);
  return terminalSafe(lines.join('\n'));
}

/**
 * The result in one line, for standard error (printed whatever reporters were chosen): the
 * counts that are not zero, the time, the verdict and the first report file.
 */
export function resultLine(report: RunReport, files: readonly string[]): string {
  const s = report.summary;
  const counts = (['pass', 'fail', 'warn', 'info', 'timeout', 'error', 'flaky', 'waived', 'skip'] as const).filter((k) => s[k] > 0).map((k) => `${s[k]} ${k}`);
  const main = files.find((f) => basename(f) === 'report.json') ?? files[0];
  return terminalSafe(`gw-conformance: ${counts.join(', ') || 'no checks'} in ${(report.durationMs / 1000).toFixed(1)} s: ${verdict(report)}${main ? `; report: ${main}` : ''}`);
}

/** Colours the console's own marks in text already made inert: outcome marks at their places, the verdict, the help labels. */
export function colourConsole(text: string, paint: (c: Colour | Colour[], s: string) => string): string {
  return text
    .split('\n')
    .map((line) => {
      const mark = /^( {0,2})(PASS|FAIL|WARN|INFO|SKIP|ERROR|TIMEOUT|WAIVED|FLAKY)( .*)$/.exec(line);
      if (mark) return `${mark[1]}${paint(['bold', MARK_COLOUR[mark[2]]], mark[2])}${mark[3]}`;
      const result = /^(Result: |gw-conformance: .* s: )(every MUST check passed|FAILED|INTERRUPTED|the harness broke)(.*)$/.exec(line);
      if (result) return `${result[1]}${paint(['bold', result[2] === 'every MUST check passed' ? 'green' : 'red'], result[2])}${result[3]}`;
      const help = /^( {4})(reproduce:|details: {3}|fix: {7})(.*)$/.exec(line);
      if (help) return `${help[1]}${paint('dim', help[2])}${paint('cyan', help[3])}`;
      return line;
    })
    .join('\n');
}
