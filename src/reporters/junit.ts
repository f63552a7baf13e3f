// JUnit XML: one testcase per check, classname = area. The default output validates against the
// Jenkins xunit plugin's junit-10.xsd (test/schemas/jenkins-junit.xsd encodes its constraints):
// properties only at testsuite level, testcase attributes name/classname/time only, testsuites
// attributes name/tests/failures/errors/time only. What a check's level, requirements and
// outcome would have carried as testcase properties is the first line of its <system-out>.
//
// Two dialects (--junit-format): `jenkins` (the default) has no element for a flaky verdict, so
// a flaky check that fails the run is a <failure type="flaky"> whose text lists every attempt;
// `surefire` (Maven Surefire's rerun report) adds <flakyFailure> for each failed attempt of a
// flaky check and <rerunFailure> for each failed re-run of a check that failed every time. The
// default stays the one every CI reads; surefire is for tools that understand reruns (GitLab,
// the Jenkins JUnit plugin), and is checked against test/schemas/surefire-junit.xsd.
//
// A waived check is <skipped> with the waiver's reason and expiry: it does not fail the build.
//
// Written here rather than with a JUnit library: the one used before (junit-report-builder over
// xmlbuilder) split only the first "]]>" of a CDATA section and threw on control characters,
// and both occur in evidence a gateway sends. Text is escaped, never put in CDATA, so any
// number of "]]>" is plain text; characters XML 1.0 forbids are written visibly as \uXXXX.
import type { CheckResult, RunReport } from '../report/shared/types.js';
import { isFailure, isHarnessError, isNotRun, type Judgement } from '../report/shared/policy.js';
import type { Attempt } from '../core/evidence.js';
import type { JunitFormat } from './names.js';
import { xmlAttrs, xmlText } from '../core/inert.js';
import { capabilityTestcases } from './capabilities.js';

const seconds = (ms: number) => (Math.max(0, ms) / 1000).toFixed(3);

type Verdict = { kind: 'failure' | 'error'; type: string } | { kind: 'skipped'; message: string } | { kind: 'out'; prefix: string };

/** What a result becomes in JUnit; whether it fails the build is the policy's call (src/report/shared/policy.ts). */
function verdict(r: Pick<CheckResult, 'outcome' | 'level' | 'message' | 'waiver'>, how: Judgement): Verdict {
  if (isHarnessError(r)) return { kind: 'error', type: 'harness-error' };
  // Ctrl-C stopped it: the build must not read the run as passed.
  if (isNotRun(r)) return { kind: 'error', type: 'interrupted' };
  if (isFailure(r, how)) return { kind: 'failure', type: r.outcome };
  if (r.outcome === 'skip') return { kind: 'skipped', message: r.message };
  if (r.outcome === 'waived' && r.waiver) return { kind: 'skipped', message: `waived until ${r.waiver.expires} (was ${r.waiver.waivedOutcome}): ${r.waiver.reason}${r.waiver.link ? ` ${r.waiver.link}` : ''}` };
  if (r.outcome === 'pass') return { kind: 'out', prefix: '' };
  const why = r.outcome === 'warn' ? ' (SHOULD)' : r.outcome === 'timeout' ? ` (${r.level})` : r.outcome === 'flaky' ? ' (allowed)' : '';
  return { kind: 'out', prefix: `${r.outcome.toUpperCase()}${why}: ` };
}

const attemptsOf = (r: CheckResult): Attempt[] => (Array.isArray(r.evidence.attempts) ? r.evidence.attempts : []);
const failedAttempt = (a: Attempt) => a.outcome !== 'pass' && a.outcome !== 'skip';

/** Surefire's rerun elements: flakyFailure for a flaky check's failed attempts, rerunFailure for the re-runs of a check that failed each time. */
function surefireReruns(r: CheckResult, failed: boolean): string[] {
  const attempts = attemptsOf(r);
  if (attempts.length < 2) return [];
  const el = (name: string, a: Attempt) => `      <${name}${xmlAttrs({ message: a.message, type: a.outcome })}>${xmlText(`attempt ${a.attempt}: ${a.outcome}: ${a.message}`)}</${name}>`;
  if (r.outcome === 'flaky') return attempts.filter(failedAttempt).map((a) => el('flakyFailure', a));
  if (failed) return attempts.slice(1).filter(failedAttempt).map((a) => el('rerunFailure', a));
  return [];
}

export function junitXml(report: RunReport, format: JunitFormat = 'jenkins'): string {
  const cases: string[] = [];
  const how: Judgement = { strict: report.strict, allowFlaky: report.allowFlaky };
  let failures = 0;
  let errors = 0;
  let skipped = 0;
  for (const r of report.results) {
    const attempts = attemptsOf(r);
    const attemptLines = attempts.length > 1 ? `attempts:\n${attempts.map((a) => `  #${a.attempt} ${a.outcome} (${a.durationMs} ms): ${a.message}`).join('\n')}` : '';
    const waiverLine = r.waiver ? `waiver: ${r.waiver.reason}; expires ${r.waiver.expires}; was ${r.waiver.waivedOutcome}${r.waiver.link ? `; ${r.waiver.link}` : ''}` : '';
    const fixLines = r.fix ? `fix: ${r.fix.text}\nsee: ${r.fix.link}` : '';
    const detail = [r.message, r.expected && `expected: ${r.expected}`, r.actual && `actual: ${r.actual}`, fixLines, attemptLines, waiverLine, `evidence: ${JSON.stringify(r.evidence, null, 2)}`].filter(Boolean).join('\n');
    const header = `outcome: ${r.outcome}; level: ${r.level}; requirements: ${r.requirements.join(', ')}`;
    const v = verdict(r, how);
    const body: string[] = [];
    let out = r.message;
    if (v.kind === 'failure' || v.kind === 'error') {
      if (v.kind === 'failure') failures++;
      else errors++;
      body.push(`      <${v.kind}${xmlAttrs({ message: r.message, type: v.type })}>${xmlText(detail)}</${v.kind}>`);
    } else if (v.kind === 'skipped') {
      skipped++;
      body.push(`      <skipped${xmlAttrs({ message: v.message })}/>`);
      if (r.outcome === 'waived') out = detail;
    } else if (v.kind === 'out' && v.prefix) out = `${v.prefix}${detail}`;
    if (format === 'surefire') body.push(...surefireReruns(r, v.kind === 'failure'));
    body.push(`      <system-out>${xmlText(`${header}\n${out}`)}</system-out>`);
    cases.push(`    <testcase${xmlAttrs({ classname: r.area, name: `${r.id}: ${r.title}`, time: seconds(r.durationMs) })}>\n${body.join('\n')}\n    </testcase>`);
  }
  // The capability matrix's required cells: a testcase each, so CI names the feature that is missing.
  const capability = capabilityTestcases(report);
  cases.push(...capability.xml);
  failures += capability.failures;
  const counts = { tests: report.results.length + capability.xml.length, failures, errors };
  const suite = { name: `gw-conformance ${report.target}`, ...counts, skipped, time: seconds(report.durationMs), timestamp: report.startedAt };
  const props = { seed: String(report.seed), profile: report.profile, strict: String(report.strict), harness: `${report.harness.name} ${report.harness.version}` };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${xmlAttrs({ name: 'gw-conformance', ...counts, time: seconds(report.durationMs) })}>`,
    `  <testsuite${xmlAttrs(suite)}>`,
    '    <properties>',
    ...Object.entries(props).map(([name, value]) => `      <property${xmlAttrs({ name, value })}/>`),
    '    </properties>',
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
