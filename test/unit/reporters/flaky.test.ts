// Flaky as an outcome (a check whose attempts disagree is neither a pass nor a fail), proven with the reference fault flaky-count-tokens: it
// breaks count_tokens on the 1st, 3rd, ... answer it serves, so a check's attempts disagree.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { junitXml } from '../../../src/reporters/junit.js';
import { htmlReport } from '../../../src/reporters/html/page.js';
import { combineAttempts } from '../../../src/runner/repeat.js';
import type { CheckResult, RunReport } from '../../../src/report/shared/types.js';
import { demoRun } from '../../helpers/demo.js';
import { ROOT } from '../../helpers/cli.js';

const ID = 'messages.count-tokens.passthrough';
const haveXmllint = spawnSync('xmllint', ['--version']).status === 0;
/**
 * The JUnit files are checked against the XSDs with xmllint. Without it those tests are skipped,
 * and say so; with GWC_REQUIRE_TOOLS=1 (CI) they run, and fail for want of it.
 */
const withXmllint = it.skipIf(!haveXmllint && process.env.GWC_REQUIRE_TOOLS !== '1');
const requireXmllint = () => expect(haveXmllint, 'xmllint is required with GWC_REQUIRE_TOOLS=1 (apt-get install libxml2-utils)').toBe(true);
function validAgainst(xsd: string, xml: string): { status: number | null; stderr: string } {
  const f = join(mkdtempSync(join(tmpdir(), 'gwc-flaky-')), 'junit.xml');
  writeFileSync(f, xml);
  return spawnSync('xmllint', ['--noout', '--schema', join(ROOT, 'test', 'schemas', xsd), f], { encoding: 'utf8' });
}
const xpath = (xml: string, expr: string) => {
  const f = join(mkdtempSync(join(tmpdir(), 'gwc-flaky-')), 'junit.xml');
  writeFileSync(f, xml);
  return spawnSync('xmllint', ['--xpath', expr, f], { encoding: 'utf8' }).stdout.trim();
};

const result = (outcome: CheckResult['outcome']): CheckResult => ({ id: 'a.b', title: 'a', area: 'a', requirements: ['MSG-CT-1'], level: 'MUST', outcome, message: outcome, expected: null, actual: null, evidence: {}, durationMs: 2 });

describe('combining attempts', () => {
  it('agreeing attempts keep their outcome; disagreeing ones are flaky with every verdict', () => {
    expect(combineAttempts([result('fail'), result('fail')]).outcome).toBe('fail');
    const f = combineAttempts([result('pass'), result('fail'), result('pass')]);
    expect(f.outcome).toBe('flaky');
    expect(f.evidence.attempts).toEqual([
      { attempt: 1, outcome: 'pass', message: 'pass', durationMs: 2 },
      { attempt: 2, outcome: 'fail', message: 'fail', durationMs: 2 },
      { attempt: 3, outcome: 'pass', message: 'pass', durationMs: 2 },
    ]);
    expect(f.message).toMatch(/^verdicts differ across 3 attempts \(#1 pass, #2 fail, #3 pass\)/);
  });
});

/** Each demo run once, shared by the tests that read it. */
const once = <T>(f: () => Promise<T>) => {
  let p: Promise<T> | undefined;
  return () => (p ??= f());
};
const flakyRun = once((): Promise<RunReport> => demoRun('flaky-count-tokens', { only: ['messages'], repeat: '2' }));
const steadyRun = once((): Promise<RunReport> => demoRun('count-tokens-invented', { only: [ID], repeat: '2' }));

describe('a check that fails every other time (fault flaky-count-tokens)', () => {
  it('--repeat 2: the check is flaky, each attempt in the evidence, and the run fails', async () => {
    const r = await flakyRun();
    const bad = r.results.filter((x) => x.outcome !== 'pass');
    expect(bad.map((x) => [x.id, x.outcome])).toEqual([[ID, 'flaky']]);
    expect((bad[0].evidence.attempts as Array<{ outcome: string }>).map((a) => a.outcome)).toEqual(['fail', 'pass']);
    expect(r.summary.flaky).toBe(1);
    expect(r.repeat).toEqual({ attempts: 2, failuresOnly: false });
    expect(r.exitCode).toBe(1);
    const html = htmlReport(r);
    expect(html).toMatch(/<span class="badge o-flaky">FLAKY<\/span>/);
    expect(html).toMatch(/<h3>Attempts<\/h3><table class="diff"><tbody><tr><td>#1<\/td><td>fail<\/td>/);

    // Default JUnit: valid for Jenkins (no flakyFailure there), the flaky check a failure of type "flaky" listing the attempts.
    const jenkins = junitXml(r);
    expect(jenkins).not.toContain('flakyFailure');
    expect(jenkins).toMatch(/<failure message="verdicts differ[^"]*" type="flaky">[^<]*attempts:\n {2}#1 fail \(\d+ ms\): count_tokens returned/);
  });

  withXmllint('--repeat 2: both JUnit dialects are valid against their XSD, surefire with a flakyFailure (xmllint; skipped without it)', async () => {
    requireXmllint();
    const r = await flakyRun();
    const jenkins = junitXml(r);
    const surefire = junitXml(r, 'surefire');
    expect(validAgainst('jenkins-junit.xsd', jenkins).status).toBe(0);
    expect(validAgainst('surefire-junit.xsd', surefire).status).toBe(0);
    // The surefire output is not valid for Jenkins' junit-10 constraints: that is why it is not the default.
    expect(validAgainst('jenkins-junit.xsd', surefire).status).not.toBe(0);
    // Surefire dialect: flakyFailure for the failed attempt.
    expect(xpath(surefire, `count(//testcase[starts-with(@name,"${ID}")]/flakyFailure)`)).toBe('1');
    expect(xpath(surefire, `string(//testcase[starts-with(@name,"${ID}")]/flakyFailure/@type)`)).toBe('fail');
  });

  it('--allow-flaky: the flaky check does not fail the run', async () => {
    const r = await demoRun('flaky-count-tokens', { only: [ID], repeat: '2', allowFlaky: true });
    expect(r.results.map((x) => x.outcome)).toEqual(['flaky']);
    expect(r.exitCode).toBe(0);
    expect(junitXml(r)).toMatch(/failures="0"/);
  });

  it('--repeat-failures 3: only the failing check runs again, and its verdicts differ', async () => {
    const r = await demoRun('flaky-count-tokens', { only: ['messages'], repeatFailures: '3' });
    const ct = r.results.find((x) => x.id === ID)!;
    expect(ct.outcome).toBe('flaky');
    // A check that did not pass runs again up to 3 attempts in all: fail, pass, fail.
    expect((ct.evidence.attempts as Array<{ outcome: string }>).map((a) => a.outcome)).toEqual(['fail', 'pass', 'fail']);
    // Checks that passed ran once: no attempts in their evidence.
    expect(r.results.filter((x) => x.id !== ID).every((x) => x.evidence.attempts === undefined)).toBe(true);
    expect(r.repeat).toEqual({ attempts: 3, failuresOnly: true });
  });

  it('a steady failure repeated stays a failure; surefire marks its re-runs rerunFailure', async () => {
    const r = await steadyRun();
    expect(r.results.map((x) => x.outcome)).toEqual(['fail']);
    expect(r.exitCode).toBe(1);
    expect(junitXml(r, 'surefire')).toContain('<rerunFailure');
  });

  withXmllint('the steady failure\'s surefire JUnit, with its rerunFailure, is valid against the XSD (xmllint; skipped without it)', async () => {
    requireXmllint();
    expect(validAgainst('surefire-junit.xsd', junitXml(await steadyRun(), 'surefire')).status).toBe(0);
  });
});
