// The fix of every finding reaches report.json (schema-valid), junit.xml's failure text and
// report.html, not only the console and the github reporter: the advice of the finding's check
// (its `fix`) and its anchor in docs/checks.md. A pass, a skip and the harness's own error carry
// none.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withFixes } from '../../../src/runner/fixes.js';
import { type CheckResult, type RunReport } from '../../../src/report/shared/types.js';
import { madeUpReport } from '../../helpers/made-up-report.js';
import { assertValidReport } from '../../../src/report/shared/validate.js';
import { htmlReport } from '../../../src/reporters/html/page.js';
import { junitXml } from '../../../src/reporters/junit.js';
import { fixLink } from '../../../src/core/links.js';
import { CHECKS } from '../../../suites/index.js';
import { cliInProcess } from '../../helpers/in-process.js';

/** The advice a check's own file states. */
const fixOf = (id: string): string => CHECKS.find((c) => c.id === id)!.fix;

const result = (id: string, outcome: CheckResult['outcome']): CheckResult => ({ id, title: id, area: 'messages', requirements: ['MSG-PATH-1'], level: 'MUST', outcome, message: `${outcome} message`, expected: null, actual: null, evidence: {}, durationMs: 1 });

const report = (results: CheckResult[]): RunReport => madeUpReport(results, { harness: { name: 'gw-conformance', version: '0' }, target: 'http://127.0.0.1:1', startedAt: '2026-11-27T00:00:00.000Z', finishedAt: '2026-11-27T00:00:01.000Z' });

describe('the fix of a finding in every report file', () => {
  const r = withFixes(report([result('messages.path.preserved', 'fail'), result('messages.headers.version', 'warn'), result('messages.body.bytes', 'pass'), result('messages.headers.beta', 'error'), result('messages.body.arrays', 'skip')]), CHECKS);

  it('report.json: each finding has the advice and its link, valid against the schema; a pass, an error and a skip have none', () => {
    assertValidReport(r);
    expect(r.results[0].fix).toEqual({ text: fixOf('messages.path.preserved'), link: fixLink('messages.path.preserved') });
    expect(r.results[1].fix?.text).toBe(fixOf('messages.headers.version'));
    expect(r.results.slice(2).map((x) => x.fix)).toEqual([undefined, undefined, undefined]);
  });

  it('a report that does not match its schema says where, which keys the object had, and what else is wrong', () => {
    const { target: _t, ...rest } = r;
    expect(() => assertValidReport({ ...rest, '***': 'http://127.0.0.1:1' } as unknown as RunReport)).toThrow(/at \/: must have required property 'target' \(its keys: schemaVersion, harness, upstream,.*\*\*\*\); 1 more: \/ must NOT have additional properties \*\*\*/);
  });

  it('junit.xml: the failure text carries the fix and its link', () => {
    const xml = junitXml(r);
    const failure = /<failure[^>]*>([\s\S]*?)<\/failure>/.exec(xml)![1];
    // The advice's start ("Forward the path as received. In nginx, `proxy_pass ...") holds no character XML escapes.
    expect(failure).toContain(`fix: ${fixOf('messages.path.preserved').slice(0, 50)}`);
    expect(failure).toContain(`see: ${fixLink('messages.path.preserved')}`);
  });

  it('report.html: "How to fix" with the advice under each finding, none under a pass', () => {
    const html = htmlReport(r);
    const row = (id: string) => new RegExp(`<details class="check" id="${id.replace(/\./g, '\\.')}"[\\s\\S]*?</details>`).exec(html)![0];
    expect(row('messages.path.preserved')).toContain('<h3>How to fix</h3>');
    expect(row('messages.path.preserved')).toContain('proxy_pass http://upstream;');
    expect(row('messages.path.preserved')).toContain(`${fixLink('messages.path.preserved')}`);
    expect(row('messages.body.bytes')).not.toContain('How to fix');
  });

  it('a demo run writes them: report.json, junit.xml and report.html of a fault', async () => {
    const out = mkdtempSync(join(tmpdir(), 'gwc-fix-'));
    const run = await cliInProcess(['demo', '--fault', 'double-v1-path', '--only', 'messages.path.preserved', '--out', out], { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(1);
    const json = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunReport;
    expect(json.results[0].fix?.text).toBe(fixOf('messages.path.preserved'));
    expect(json.results[0].fix?.link).toMatch(/docs\/checks\.md#messages\.path\.preserved$/);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(/see: \S*docs\/checks\.md#messages\.path\.preserved/);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('<h3>How to fix</h3>');
  }, 60_000);
});
