// JUnit XML: one testcase per check, classname = area. The output validates against the
// Jenkins xunit plugin's junit-10.xsd (test/schemas/jenkins-junit.xsd encodes its constraints):
// properties only at testsuite level, testcase attributes name/classname/time only, testsuites
// attributes name/tests/failures/errors/time only. What a check's level, requirements and
// outcome would have carried as testcase properties is the first line of its <system-out>.
//
// Written here rather than with a JUnit library: the one used before (junit-report-builder over
// xmlbuilder) split only the first "]]>" of a CDATA section and threw on control characters,
// and both occur in evidence a gateway sends. Text is escaped, never put in CDATA, so any
// number of "]]>" is plain text; characters XML 1.0 forbids are written visibly as \uXXXX.
import type { CheckResult, RunReport } from '../report/types.js';
import { isFailure, isHarnessError } from '../report/policy.js';
import { attrs, xmlText } from './xml.js';

const seconds = (ms: number) => (Math.max(0, ms) / 1000).toFixed(3);

type Verdict = { kind: 'failure' | 'error'; type: string } | { kind: 'skipped' } | { kind: 'out'; prefix: string };

/** What a result becomes in JUnit; whether it fails the build is the policy's call (src/report/policy.ts). */
function verdict(r: Pick<CheckResult, 'outcome' | 'level'>, strict: boolean): Verdict {
  if (isHarnessError(r)) return { kind: 'error', type: 'harness-error' };
  if (isFailure(r, strict)) return { kind: 'failure', type: r.outcome };
  if (r.outcome === 'skip') return { kind: 'skipped' };
  if (r.outcome === 'pass') return { kind: 'out', prefix: '' };
  const why = r.outcome === 'warn' ? ' (SHOULD)' : r.outcome === 'timeout' ? ` (${r.level})` : '';
  return { kind: 'out', prefix: `${r.outcome.toUpperCase()}${why}: ` };
}

export function junitXml(report: RunReport): string {
  const cases: string[] = [];
  let failures = 0;
  let errors = 0;
  let skipped = 0;
  for (const r of report.results) {
    const detail = [r.message, r.expected && `expected: ${r.expected}`, r.actual && `actual: ${r.actual}`, `evidence: ${JSON.stringify(r.evidence, null, 2)}`].filter(Boolean).join('\n');
    const header = `outcome: ${r.outcome}; level: ${r.level}; requirements: ${r.requirements.join(', ')}`;
    const v = verdict(r, report.strict);
    const body: string[] = [];
    let out = r.message;
    if (v.kind === 'failure' || v.kind === 'error') {
      if (v.kind === 'failure') failures++;
      else errors++;
      body.push(`      <${v.kind}${attrs({ message: r.message, type: v.type })}>${xmlText(detail)}</${v.kind}>`);
    } else if (v.kind === 'skipped') {
      skipped++;
      body.push(`      <skipped${attrs({ message: r.message })}/>`);
    } else if (v.kind === 'out' && v.prefix) out = `${v.prefix}${detail}`;
    body.push(`      <system-out>${xmlText(`${header}\n${out}`)}</system-out>`);
    cases.push(`    <testcase${attrs({ classname: r.area, name: `${r.id}: ${r.title}`, time: seconds(r.durationMs) })}>\n${body.join('\n')}\n    </testcase>`);
  }
  const counts = { tests: report.results.length, failures, errors };
  const suite = { name: `gw-conformance ${report.target}`, ...counts, skipped, time: seconds(report.durationMs), timestamp: report.startedAt };
  const props = { seed: String(report.seed), profile: report.profile, strict: String(report.strict), harness: `${report.harness.name} ${report.harness.version}` };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: 'gw-conformance', ...counts, time: seconds(report.durationMs) })}>`,
    `  <testsuite${attrs(suite)}>`,
    '    <properties>',
    ...Object.entries(props).map(([name, value]) => `      <property${attrs({ name, value })}/>`),
    '    </properties>',
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
