// The github reporter: one workflow command per check that did not pass, with the requirement in
// its title; a job summary in Markdown appended to GITHUB_STEP_SUMMARY; on by default in GitHub
// Actions. A hostile gateway message can neither start a second workflow command nor add markup
// to the summary, and a secret never reaches either.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { annotations, jobSummary } from '../../../src/reporters/github.js';
import { writeReports } from '../../../src/reporters/index.js';
import { reportersFor } from '../../../src/reporters/names.js';
import { finishRun } from '../../../src/runner/finish.js';
import { CHECKS } from '../../../suites/index.js';
import { resolveConfig } from '../../../src/config/config.js';
import { markdownCell, terminalSafe, workflowData } from '../../../src/core/inert.js';
import { summarize, type CheckResult, type RunReport } from '../../../src/report/shared/types.js';

const HOSTILE = 'lost 50%\r\n::add-mask::x\n::error title=forged::injected\u2028::warning::x | <img src=x onerror=alert(1)> [link](http://evil.example) `code` *em* \x1b[2J';
const res = (id: string, outcome: CheckResult['outcome'], level: CheckResult['level'], message = `m ${id}`): CheckResult => ({ id, title: 't', area: 'x', requirements: ['MSG-HDR-2', 'MSG-HDR-3'], level, outcome, message, expected: null, actual: null, evidence: {}, durationMs: 1 });
const results = [res('a.pass', 'pass', 'MUST'), res('a.fail', 'fail', 'MUST', HOSTILE), res('a.warn', 'warn', 'SHOULD'), res('a.info', 'info', 'INFO'), res('a.skip', 'skip', 'MUST'), res('a.broke', 'error', 'MUST')];
const report = { harness: { version: '0.1.0' }, target: 'http://127.0.0.1:1', profile: 'default', seed: 3, strict: false, declared: { protocols: [] }, durationMs: 2500, summary: summarize(results), exitCode: 2, results, unmatchedRequests: [] } as unknown as RunReport;

/** The runner's reading of a workflow command line (command, properties, message unescaped). */
function parseCommand(line: string): { command: string; props: Record<string, string>; message: string } {
  const m = /^::([a-z-]+)(?: ([^:]*))?::(.*)$/.exec(line);
  if (!m) throw new Error(`not a workflow command: ${line}`);
  const unProp = (s: string) => s.replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
  const props = Object.fromEntries((m[2] ?? '').split(',').filter(Boolean).map((p) => [p.slice(0, p.indexOf('=')), unProp(p.slice(p.indexOf('=') + 1))]));
  return { command: m[1], props, message: m[3].replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%') };
}

/** The cells of a Markdown table row (split on the bars that are not escaped). */
const cells = (row: string) => row.replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
const decode = (s: string) => s.replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)));

describe('github reporter: annotations', () => {
  it('one command per check that did not pass: error for MUST, warning for SHOULD, notice for INFO; the title holds the id, level and requirements', () => {
    const lines = annotations(report).split('\n');
    expect(lines).toHaveLength(4);
    const parsed = lines.map(parseCommand);
    expect(parsed.map((p) => [p.command, p.props.title])).toEqual([
      ['error', 'a.fail [MUST MSG-HDR-2, MSG-HDR-3]'],
      ['warning', 'a.warn [SHOULD MSG-HDR-2, MSG-HDR-3]'],
      ['notice', 'a.info [INFO MSG-HDR-2, MSG-HDR-3]'],
      ['error', 'a.broke [MUST MSG-HDR-2, MSG-HDR-3]'],
    ]);
    expect(parsed[2].message).toMatch(/^m a\.info\nfix: \S*docs\/checks\.md#a\.info$/);
    expect(parsed[3].message).not.toContain('fix:');
  });

  it('a hostile message stays inside its own command: no line break, no second command, read back as the inert text', () => {
    const out = annotations(report);
    expect(out.split('\n').filter((l) => l.startsWith('::'))).toHaveLength(4);
    expect(out).not.toMatch(/[\r\u2028\x1b]/);
    const fail = parseCommand(out.split('\n')[0]);
    expect(fail.message.split('\nfix:')[0]).toBe(terminalSafe(HOSTILE));
    expect(workflowData('a%0Ab')).toBe('a%250Ab');
  });
});

describe('github reporter: the job summary', () => {
  it('has the counts, then a table of the checks that did not pass with requirement, message and fix link; gateway text adds no markup', () => {
    const md = jobSummary(report, ['out/report.json']);
    const lines = md.trimEnd().split('\n');
    expect(lines[0]).toBe('## gw-conformance 0.1.0');
    const counts = lines.findIndex((l) => l.startsWith('| pass |'));
    expect(cells(lines[counts])).toEqual(['pass', 'fail', 'warn', 'info', 'error', 'skip', 'seconds']);
    expect(cells(lines[counts + 2])).toEqual(['1', '1', '1', '1', '1', '1', '2.5']);
    const head = lines.findIndex((l) => l.startsWith('| outcome |'));
    const rows = lines.slice(head + 2).filter((l) => l.startsWith('|')).map(cells);
    expect(rows.map((r) => r.length)).toEqual([5, 5, 5, 5]);
    // What fails the run first, then the harness's error, then SHOULD and INFO (the run's order was FAIL, WARN, INFO, ERROR).
    expect(rows.map((r) => r[0])).toEqual(['FAIL', 'ERROR', 'WARN', 'INFO']);
    expect(rows[0][2]).toBe('MUST MSG-HDR-2, MSG-HDR-3');
    expect(decode(rows[0][4])).toMatch(/docs\/checks\.md#a\.fail$/);
    // The hostile message: on one line, every character Markdown or HTML acts on escaped.
    expect(rows[0][3]).not.toMatch(/[<>`*[\]\x1b]|http:\/\//);
    expect(decode(rows[0][3])).toBe(markdownCell(HOSTILE.replace(/\r?\n/g, ' ')).replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n))));
  });

  it('is appended to GITHUB_STEP_SUMMARY by writeReports; it is on by default when GITHUB_ACTIONS=true, beside the chosen reporters', () => {
    expect(reportersFor(['json'], { GITHUB_ACTIONS: 'true' })).toEqual(['json', 'github']);
    expect(reportersFor(['json', 'github'], { GITHUB_ACTIONS: 'true' })).toEqual(['json', 'github']);
    expect(reportersFor(['json'], {})).toEqual(['json']);
    const dir = mkdtempSync(join(tmpdir(), 'gwc-gh-'));
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, 'earlier step\n');
    const printed: string[] = [];
    writeReports(report, ['github'], dir, (s) => printed.push(s), { stepSummary: summary });
    expect(readFileSync(summary, 'utf8')).toBe(`earlier step\n${jobSummary(report, [])}`);
    expect(printed).toEqual([annotations(report)]);
  });

  it('finishRun adds it in GitHub Actions, masks the credential, and prints the one-line result on stderr without the console reporter', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gwc-gh-'));
    const summary = join(dir, 'summary.md');
    const secret = 'sk-live-secret-1234';
    const cfg = resolveConfig({ reporter: ['json'], out: dir, token: secret }, {}, {});
    const leaky = { ...report, results: report.results.map((r) => ({ ...r, message: `${r.message} ${secret}` })) };
    const out: string[] = [];
    const err: string[] = [];
    finishRun(leaky, cfg, { out: (s) => out.push(s), err: (s) => err.push(s), env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } }, CHECKS);
    const md = readFileSync(summary, 'utf8');
    expect(md).toContain('| FAIL | a.fail |');
    expect(out.join('\n')).toMatch(/^::error title=a\.fail/);
    for (const text of [md, out.join('\n'), err.join('\n')]) expect(text).not.toContain(secret);
    expect(err[0]).toBe(`gw-conformance: 1 pass, 1 fail, 1 warn, 1 info, 1 error, 1 skip in 2.5 s: the harness broke on a check (outcome error): its verdicts cannot be trusted; this is not the gateway's fault; report: ${join(dir, 'report.json')}`);
  });
});
