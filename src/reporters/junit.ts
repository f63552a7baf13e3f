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
import type { RunReport } from '../report/types.js';

/** Characters XML 1.0 does not allow (section 2.2), lone surrogates included. */
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const visible = (s: string) => s.replace(FORBIDDEN, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);

/** Element content: & < > escaped (so "]]>" cannot occur), forbidden characters made visible. */
export function xmlText(s: string): string {
  return visible(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Attribute value in double quotes; tab and line breaks as character references so they survive. */
export function xmlAttr(s: string): string {
  return xmlText(s).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

const attrs = (a: Record<string, string | number>) =>
  Object.entries(a)
    .map(([k, v]) => ` ${k}="${xmlAttr(String(v))}"`)
    .join('');
const seconds = (ms: number) => (Math.max(0, ms) / 1000).toFixed(3);

type Verdict = { kind: 'failure' | 'error'; type: string } | { kind: 'skipped' } | { kind: 'out'; prefix: string };

function verdict(outcome: string, level: string, strict: boolean): Verdict {
  switch (outcome) {
    case 'fail':
      return { kind: 'failure', type: 'fail' };
    case 'timeout':
      return level === 'INFO' ? { kind: 'out', prefix: 'TIMEOUT (INFO): ' } : { kind: 'failure', type: 'timeout' };
    case 'warn':
      return strict ? { kind: 'failure', type: 'warn' } : { kind: 'out', prefix: 'WARN (SHOULD): ' };
    case 'info':
      return { kind: 'out', prefix: 'INFO: ' };
    case 'error':
      return { kind: 'error', type: 'harness-error' };
    case 'skip':
      return { kind: 'skipped' };
    default:
      return { kind: 'out', prefix: '' };
  }
}

export function junitXml(report: RunReport): string {
  const cases: string[] = [];
  let failures = 0;
  let errors = 0;
  let skipped = 0;
  for (const r of report.results) {
    const detail = [r.message, r.expected && `expected: ${r.expected}`, r.actual && `actual: ${r.actual}`, `evidence: ${JSON.stringify(r.evidence, null, 2)}`].filter(Boolean).join('\n');
    const header = `outcome: ${r.outcome}; level: ${r.level}; requirements: ${r.requirements.join(', ')}`;
    const v = verdict(r.outcome, r.level, report.strict);
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
