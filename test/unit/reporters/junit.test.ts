// The JUnit reporter: valid against the constraints of the Jenkins xunit plugin's junit-10.xsd
// (test/schemas/jenkins-junit.xsd), whatever text a gateway puts into the evidence.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { junitXml } from '../../../src/reporters/junit.js';
import { xmlAttr, xmlText } from '../../../src/core/inert.js';
import { summarize, type CheckResult, type RunReport } from '../../../src/report/shared/types.js';
import { ROOT } from '../../helpers/cli.js';

const XSD = join(ROOT, 'test', 'schemas', 'jenkins-junit.xsd');
const haveXmllint = spawnSync('xmllint', ['--version']).status === 0;
const requireXmllint = () => expect(process.env.GWC_REQUIRE_TOOLS, 'xmllint is required in CI (apt-get install libxml2-utils)').not.toBe('1');

// What a hostile or broken gateway may send back, as the evidence carries it: several CDATA
// terminators, every kind of character XML 1.0 forbids, markup, quotes, and a valid emoji.
const NASTY = 'a]]>b]]>]]>c <x a="1"> & \u0000\u0007\u000B\u000C\u001B\u001F \uFFFE\uFFFF lone \uD800 and \uDC00 ok 😀 tab\tnl\ncr\r';

function result(id: string, outcome: CheckResult['outcome'], level: CheckResult['level'] = 'MUST'): CheckResult {
  return {
    id,
    title: `title of ${id} ${NASTY}`,
    area: 'messages',
    requirements: ['MSG-1', 'MSG-2'],
    level,
    outcome,
    message: `message ${NASTY}`,
    expected: outcome === 'fail' ? `expected ${NASTY}` : null,
    actual: outcome === 'fail' ? `actual ${NASTY}` : null,
    evidence: { body: NASTY },
    durationMs: 12.3456,
  };
}

function report(results: CheckResult[], strict = false): RunReport {
  return {
    schemaVersion: '1.0.0',
    harness: { name: 'gw-conformance', version: '0.0.0' },
    target: `http://127.0.0.1:1/${NASTY}`,
    upstream: null,
    profile: 'default',
    declared: { protocols: ['messages'] },
    seed: 1,
    strict,
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:01.000Z',
    durationMs: 1000,
    summary: summarize(results),
    exitCode: 1,
    results,
    unmatchedRequests: [],
  };
}

const ALL = [
  result('c.pass', 'pass'),
  result('c.fail', 'fail'),
  result('c.warn', 'warn', 'SHOULD'),
  result('c.info', 'info', 'INFO'),
  result('c.skip', 'skip'),
  result('c.error', 'error'),
  result('c.timeout', 'timeout'),
  result('c.timeout-info', 'timeout', 'INFO'),
];

function xmllint(args: string[], xml: string) {
  const f = join(mkdtempSync(join(tmpdir(), 'gwc-junit-')), 'junit.xml');
  writeFileSync(f, xml);
  return spawnSync('xmllint', [...args, f], { encoding: 'utf8' });
}
const xpath = (xml: string, expr: string) => xmllint(['--xpath', expr], xml).stdout;

describe('junit escaping', () => {
  it('element text: no CDATA terminator survives, forbidden characters are written visibly', () => {
    const t = xmlText(NASTY);
    expect(t).not.toContain(']]>');
    expect(t).not.toMatch(/[<&](?!amp;|lt;|gt;)/);
    expect(t).toContain('\\u0000\\u0007\\u000B\\u000C\\u001B\\u001F \\uFFFE\\uFFFF lone \\uD800 and \\uDC00 ok 😀');
    // A bare carriage return is shown, as on the console and in HTML (it would hide the text before it).
    expect(t).toContain('tab\tnl\ncr\\u000D');
  });

  it('attribute values keep tabs and line feeds as character references, quotes escaped', () => {
    const a = xmlAttr('say "hi"\tthen\nmore\r');
    expect(a).toBe('say &quot;hi&quot;&#9;then&#10;more\\u000D');
  });
});

describe('junit.xml', () => {
  const xml = junitXml(report(ALL));

  it('counts failures, errors and skips the way the exit code reads them', () => {
    expect(xml).toMatch(/<testsuites name="gw-conformance" tests="8" failures="2" errors="1" time="1\.000">/);
    expect(xml).toMatch(/<testsuite [^>]*tests="8" failures="2" errors="1" skipped="1"/);
    // strict: the SHOULD failure becomes a JUnit failure too
    expect(junitXml(report(ALL, true))).toMatch(/<testsuites [^>]*failures="3"/);
  });

  it('carries level, requirements and outcome in the text, never as testcase properties', () => {
    expect(xml.match(/<properties>/g)).toHaveLength(1);
    expect(xml).toContain('outcome: fail; level: MUST; requirements: MSG-1, MSG-2');
  });

  it('validates against the junit-10 constraints with hostile evidence, and reads back intact', () => {
    if (!haveXmllint) return requireXmllint();
    const v = xmllint(['--noout', '--schema', XSD], xml);
    expect(v.status, v.stderr).toBe(0);
    const failure = xpath(xml, 'string(//testcase[starts-with(@name, "c.fail:")]/failure)');
    expect(failure.match(/\]\]>/g)).toHaveLength(4 * 3); // message, expected, actual, evidence: three each
    expect(failure).toContain('\\u0007');
    expect(failure).toContain('😀');
    expect(xpath(xml, 'string(//testcase[starts-with(@name, "c.fail:")]/failure/@message)')).toContain('a]]>b]]>]]>c <x a="1"> &');
    expect(xpath(xml, 'string(//testcase[starts-with(@name, "c.warn:")]/system-out)')).toMatch(/^outcome: warn; level: SHOULD; requirements: MSG-1, MSG-2\nWARN \(SHOULD\): message a\]\]>b/);
    expect(xpath(xml, 'count(//testcase/skipped)').trim()).toBe('1');
    expect(xpath(xml, 'count(//testcase/error[@type="harness-error"])').trim()).toBe('1');
  });

  it('the schema has teeth: testcase properties and a skipped count on testsuites are refused', () => {
    if (!haveXmllint) return requireXmllint();
    const bad = xml
      .replace('<testsuites name="gw-conformance"', '<testsuites skipped="1" name="gw-conformance"')
      .replace('<system-out>', '<properties><property name="level" value="MUST"/></properties><system-out>');
    const v = xmllint(['--noout', '--schema', XSD], bad);
    expect(v.status).not.toBe(0);
    expect(v.stderr).toMatch(/attribute 'skipped': The attribute 'skipped' is not allowed/);
    expect(v.stderr).toMatch(/Element 'properties': This element is not expected/);
  });
});
