// The console reporter: a line per check as the run goes, and a summary with the findings. What
// the gateway sent (messages, expected and actual, unmatched URLs) is made inert here, so no
// escape sequence of a gateway acts on the terminal or the CI log whoever prints this.
import { terminalSafe } from '../core/inert.js';
import type { CheckResult, RunReport } from '../report/types.js';
import { waiverLines } from '../report/waivers.js';
import { capabilityLines } from './capabilities.js';

const MARK: Record<CheckResult['outcome'], string> = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', info: 'INFO', skip: 'SKIP', error: 'ERROR', timeout: 'TIMEOUT', waived: 'WAIVED', flaky: 'FLAKY' };

/** One line per finished check, printed as the run goes. */
export function progressLine(r: CheckResult): string {
  const head = `${MARK[r.outcome].padEnd(7)} ${r.id.padEnd(36)} ${r.requirements.join(',').padEnd(12)} ${String(r.durationMs).padStart(6)} ms`;
  return terminalSafe(r.outcome === 'pass' ? head : `${head}\n        ${r.message.split('\n')[0]}`);
}

/** The summary printed at the end of a run: counts, findings, unmatched requests, the verdict. */
export function consoleSummary(report: RunReport, files: string[]): string {
  const s = report.summary;
  const lines = [
    '',
    `gw-conformance ${report.harness.version}: ${s.total} checks against ${report.target} (profile ${report.profile}, seed ${report.seed})`,
    `  declared: ${[...report.declared.protocols, ...(report.declared.features ?? [])].join(', ') || 'no protocol'} (checks that need anything else are skipped as not declared)`,
    `  ${s.pass} pass, ${s.fail} fail, ${s.warn} warn, ${s.info} info, ${s.timeout} timeout, ${s.error} error, ${s.skip} skip${s.waived ? `, ${s.waived} waived` : ''}${s.flaky ? `, ${s.flaky} flaky${report.allowFlaky ? ' (allowed)' : ''}` : ''}  (${(report.durationMs / 1000).toFixed(1)} s)`,
  ];
  if (report.shard) lines.push(`  shard ${report.shard.index}/${report.shard.count} (${report.shard.balancedBy === 'duration' ? 'balanced by recorded durations' : 'by check id hash'})`);
  if (report.waivers) lines.push('  waivers:', ...waiverLines(report.waivers).map((l) => `  ${l}`));
  lines.push(...capabilityLines(report));
  const bad = report.results.filter((r) => r.outcome !== 'pass' && r.outcome !== 'skip');
  if (bad.length) {
    lines.push('', 'Findings:');
    for (const r of bad) {
      lines.push(`  ${MARK[r.outcome]} ${r.id} [${r.level} ${r.requirements.join(', ')}]`, `    ${r.message.split('\n')[0]}`);
      if (r.expected) lines.push(`    expected: ${r.expected.split('\n')[0]}`);
      if (r.actual) lines.push(`    actual:   ${r.actual.split('\n')[0]}`);
      if (r.waiver) lines.push(`    waived until ${r.waiver.expires} (was ${r.waiver.waivedOutcome}): ${r.waiver.reason}${r.waiver.link ? ` (${r.waiver.link})` : ''}`);
    }
  }
  if (report.unmatchedRequests.length) {
    lines.push('', `The upstream received ${report.unmatchedRequests.length} request(s) it could not tie to a check:`);
    for (const u of report.unmatchedRequests.slice(0, 10)) lines.push(`  ${u.method} ${u.url}: ${u.reason}`);
  }
  if (files.length) lines.push('', `Reports: ${files.join(', ')}`);
  lines.push(
    report.exitCode === 0
      ? 'Result: every MUST check passed.'
      : report.exitCode === 2
        ? 'Result: the harness broke on a check (outcome error): its verdicts cannot be trusted; this is not the gateway\'s fault.'
        : `Result: FAILED (${report.strict ? 'a MUST or SHOULD check' : 'a MUST check'} did not pass${s.flaky && !report.allowFlaky ? ', or was flaky' : ''}).`,
  );
  return terminalSafe(lines.join('\n'));
}
