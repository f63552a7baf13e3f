// Waivers (a known problem accepted until a date, so CI stays green meanwhile): a waived problem does not fail the run and is shown with its reason
// and expiry; an expired waiver no longer applies and the report says so; an unused one is
// reported; a bad file is named with its line.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { applyWaivers, parseWaivers } from '../../../src/report/run/waivers.js';
import { exitCodeOf, isFailure } from '../../../src/report/shared/policy.js';
import { junitXml } from '../../../src/reporters/junit.js';
import { htmlReport } from '../../../src/reporters/html/page.js';
import { consoleSummary } from '../../../src/reporters/console.js';
import type { CheckResult } from '../../../src/report/shared/types.js';
import { demoRun } from '../../helpers/demo.js';
import { ROOT } from '../../helpers/cli.js';

const result = (id: string, outcome: CheckResult['outcome'], requirements = ['MSG-CT-1']): CheckResult => ({
  id,
  title: id,
  area: id.split('.')[0],
  requirements,
  level: 'MUST',
  outcome,
  message: `${id} ${outcome}`,
  expected: null,
  actual: null,
  evidence: {},
  durationMs: 1,
});

const dir = mkdtempSync(join(tmpdir(), 'gwc-waivers-'));
const file = (name: string, text: string) => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};

describe('waivers file', () => {
  it('reads the entries of a waivers file and of a gwc.yaml `waivers:` key', () => {
    const text = 'target: http://127.0.0.1:1\nwaivers:\n  - check: a.b\n    reason: known\n    expires: 2030-01-31\n    link: https://example.invalid/1\n  - requirement: MSG-CT-1\n    reason: r\n    expires: 2030-01-01\n';
    expect(parseWaivers(text, 'gwc.yaml')).toEqual([
      { check: 'a.b', reason: 'known', expires: '2030-01-31', link: 'https://example.invalid/1' },
      { requirement: 'MSG-CT-1', reason: 'r', expires: '2030-01-01' },
    ]);
  });

  it.each([
    ['an unknown key', 'waivers:\n  - check: a.b\n    reason: r\n    expires: 2030-01-01\n    colour: red\n', /^w\.yaml:5: waiver waivers\.0: unknown key "colour"/],
    ['a missing reason', 'waivers:\n  - check: a.b\n    expires: 2030-01-01\n', /^w\.yaml:2: waiver waivers\.0: missing `reason`/],
    ['an impossible date', 'waivers:\n  - check: a.b\n    reason: r\n    expires: 2030-02-31\n', /^w\.yaml:4: waiver waivers\.0\.expires: must match format "date"/],
    ['both check and requirement', 'waivers:\n  - check: a.b\n    requirement: MSG-CT-1\n    reason: r\n    expires: 2030-01-01\n', /^w\.yaml:2: waiver waivers\.0: name exactly one of `check` or `requirement`/],
    ['the second entry', 'waivers:\n  - check: a.b\n    reason: r\n    expires: 2030-01-01\n  - check: c.d\n    reason: ""\n    expires: 2030-01-01\n', /^w\.yaml:6: waiver waivers\.1\.reason:/],
  ])('names the line of %s', (_, text, re) => {
    expect(() => parseWaivers(text, 'w.yaml')).toThrow(re);
  });
});

describe('applying waivers', () => {
  const waivers = [
    { check: 'm.applied', reason: 'vendor bug 42', expires: '2030-01-31', link: 'https://example.invalid/42' },
    { requirement: 'REQ-OLD-1', reason: 'was fixed', expires: '2029-12-31' },
    { check: 'm.nothing', reason: 'never fails', expires: '2030-06-01' },
  ];
  const results = [result('m.applied', 'fail'), result('m.expired', 'fail', ['REQ-OLD-1']), result('m.pass', 'pass'), result('m.err', 'error', ['REQ-OLD-1'])];

  it('waives a covered failure through its expiry day, and not the day after', () => {
    const on = applyWaivers(results, waivers, '2030-01-31', 'w.yaml');
    expect(on.results[0]).toMatchObject({ outcome: 'waived', waiver: { reason: 'vendor bug 42', expires: '2030-01-31', waivedOutcome: 'fail' } });
    const after = applyWaivers(results, waivers, '2030-02-01', 'w.yaml');
    expect(after.results[0].outcome).toBe('fail');
    expect(after.summary.expired.map((w) => w.check)).toContain('m.applied');
  });

  it('an expired waiver does not apply and the result says so; an unused one is listed; a harness error is never waived', () => {
    const { results: out, summary } = applyWaivers(results, waivers, '2030-01-15', 'w.yaml');
    expect(out.map((r) => r.outcome)).toEqual(['waived', 'fail', 'pass', 'error']);
    expect(out[1].message).toMatch(/waiver expired on 2029-12-31: no longer applies/);
    expect(summary.applied).toEqual([{ ...waivers[0], checks: ['m.applied'] }]);
    expect(summary.expired).toEqual([{ ...waivers[1], checks: ['m.expired'] }]);
    expect(summary.unused).toEqual([waivers[2]]);
  });

  it('a waived result is not a failure for the exit code', () => {
    const { results: out } = applyWaivers([result('m.applied', 'fail')], waivers, '2030-01-01', 'w.yaml');
    expect(isFailure(out[0], true)).toBe(false);
    expect(exitCodeOf(out, false)).toBe(0);
    expect(exitCodeOf([result('m.applied', 'fail')], false)).toBe(1);
  });
});

describe('a run with waivers (reference gateway, fault count-tokens-invented)', () => {
  const waiversFile = file(
    'waivers.yaml',
    [
      'waivers:',
      '  - check: messages.count-tokens.passthrough',
      '    reason: the gateway estimates counts; fix due in 2.4',
      '    expires: 2999-12-31',
      '    link: https://example.invalid/issues/42',
      '  - requirement: MSG-CT-1',
      '    reason: an old waiver',
      '    expires: 2020-01-01',
      '  - check: messages.body.bytes',
      '    reason: nothing fails there',
      '    expires: 2999-01-01',
      '',
    ].join('\n'),
  );
  const expiredFile = file('expired.yaml', 'waivers:\n  - check: messages.count-tokens.passthrough\n    reason: fixed long ago\n    expires: 2020-01-01\n');

  it('the waived check is `waived` with its reason and expiry in every reporter, and the run passes', async () => {
    const r = await demoRun('count-tokens-invented', { only: ['messages'], waivers: waiversFile });
    const ct = r.results.find((x) => x.id === 'messages.count-tokens.passthrough')!;
    expect(ct.outcome).toBe('waived');
    expect(ct.waiver).toMatchObject({ reason: 'the gateway estimates counts; fix due in 2.4', expires: '2999-12-31', waivedOutcome: 'fail' });
    expect(r.summary.waived).toBe(1);
    expect(r.exitCode).toBe(0);
    expect(r.waivers!.applied.map((w) => w.check)).toEqual(['messages.count-tokens.passthrough']);
    expect(r.waivers!.expired.map((w) => [w.requirement, w.checks])).toEqual([['MSG-CT-1', ['messages.count-tokens.passthrough']]]);
    expect(r.waivers!.unused.map((w) => w.check)).toEqual(['messages.body.bytes']);
    const xml = junitXml(r);
    expect(xml).toContain('<skipped message="waived until 2999-12-31 (was fail): the gateway estimates counts; fix due in 2.4 https://example.invalid/issues/42"/>');
    expect(xml).toMatch(/failures="0"/);
    const text = consoleSummary(r, []);
    expect(text).toMatch(/WAIVED messages\.count-tokens\.passthrough/);
    expect(text).toMatch(/waiver EXPIRED on 2020-01-01, no longer applied: requirement MSG-CT-1/);
    expect(text).toMatch(/waiver unused \(nothing in this run matched it\): messages\.body\.bytes/);
    const html = htmlReport(r);
    expect(html).toContain('<b>Waived</b> until 2999-12-31 (the check was fail): the gateway estimates counts; fix due in 2.4');
    expect(html).toContain('<td>expired: no longer applied</td>');
    if (spawnSync('xmllint', ['--version']).status === 0) {
      const f = file('junit.xml', xml);
      expect(spawnSync('xmllint', ['--noout', '--schema', join(ROOT, 'test', 'schemas', 'jenkins-junit.xsd'), f], { encoding: 'utf8' }).status).toBe(0);
    } else expect(process.env.GWC_REQUIRE_TOOLS, 'xmllint is required in CI').not.toBe('1');
  });

  it('with only an expired waiver the failure counts, and the report says the waiver expired', async () => {
    const r = await demoRun('count-tokens-invented', { only: ['messages.count-tokens.passthrough'], waivers: expiredFile });
    expect(r.results[0].outcome).toBe('fail');
    expect(r.results[0].message).toMatch(/\[waiver expired on 2020-01-01: no longer applies\]$/);
    expect(r.waivers!.expired).toHaveLength(1);
    expect(r.exitCode).toBe(1);
  });
});
