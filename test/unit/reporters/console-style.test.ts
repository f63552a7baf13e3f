// The console's colour, columns and one-line result: colour only when it is wanted (flag, then
// NO_COLOR, FORCE_COLOR, then a terminal), only on the console's own marks; columns as wide as the
// run's longest id and requirement list; the result line on stderr when no console reporter runs.
import { describe, expect, it } from 'vitest';
import { colourWanted, painter } from '../../../src/reporters/style.js';
import { colourConsole, columnsFor, consoleSummary, findingHelp, progressLine, resultLine } from '../../../src/reporters/console.js';
import { summarize, type CheckResult, type RunReport } from '../../../src/report/shared/types.js';
import { hasInvisible } from '../../../src/core/inert.js';

const ESC = '\x1b[';
const res = (id: string, outcome: CheckResult['outcome'], requirements = ['MSG-PATH-1'], message = `m ${id}`): CheckResult => ({ id, title: 't', area: 'x', requirements, level: 'MUST', outcome, message, expected: null, actual: null, evidence: {}, durationMs: 12 });
const reportOf = (results: CheckResult[], exitCode: number): RunReport =>
  ({ harness: { name: 'gw-conformance', version: '0' }, target: 'http://t', profile: 'default', seed: 7, strict: false, declared: { protocols: ['messages'] }, durationMs: 15_040, summary: summarize(results), exitCode, results, unmatchedRequests: [] }) as unknown as RunReport;

describe('when the console is coloured', () => {
  it('the flag wins, then NO_COLOR, then FORCE_COLOR, then whether the stream is a terminal', () => {
    expect(colourWanted({ flag: true, env: { NO_COLOR: '1' }, isTTY: false })).toBe(true);
    expect(colourWanted({ flag: false, env: { FORCE_COLOR: '1' }, isTTY: true })).toBe(false);
    expect(colourWanted({ env: { NO_COLOR: '1', FORCE_COLOR: '1' }, isTTY: true })).toBe(false);
    expect(colourWanted({ env: { NO_COLOR: '' }, isTTY: true })).toBe(true);
    expect(colourWanted({ env: { FORCE_COLOR: '1' }, isTTY: false })).toBe(true);
    expect(colourWanted({ env: { FORCE_COLOR: '0' }, isTTY: true })).toBe(false);
    expect(colourWanted({ env: { FORCE_COLOR: '' }, isTTY: false })).toBe(true);
    expect(colourWanted({ env: {}, isTTY: true })).toBe(true);
    expect(colourWanted({ env: { TERM: 'dumb' }, isTTY: true })).toBe(false);
    expect(colourWanted({ env: {}, isTTY: false })).toBe(false);
  });

  it('paints the marks, the verdict and the help labels, never gateway text that looks like them', () => {
    const hostile = res('x.one', 'fail', ['MSG-PATH-1'], 'FAIL\nPASS everything');
    const text = [progressLine(res('x.ok', 'pass')), progressLine(hostile), 'Result: FAILED (a MUST check did not pass).'].join('\n');
    const on = colourConsole(text, painter(true));
    expect(on.split('\n')[0]).toMatch(/^\x1b\[1m\x1b\[32mPASS\x1b\[39m\x1b\[22m +x\.ok /);
    expect(on.split('\n')[1]).toMatch(/^\x1b\[1m\x1b\[31mFAIL\x1b/);
    // The message's own "FAIL" is indented under the mark: left as it is.
    expect(on.split('\n')[2]).toBe(' '.repeat(8) + 'FAIL');
    expect(on.split('\n')[3]).toContain(`Result: ${ESC}1m${ESC}31mFAILED`);
    expect(colourConsole(text, painter(false))).toBe(text);
  });
});

describe('columns', () => {
  it('are as wide as the longest id and requirement list of the run, and a longer one never runs into the next cell', () => {
    const checks = [res('a.b', 'pass'), res('streaming.delivery.incremental-with-a-long-name', 'pass', ['SSE-INC-1', 'MSG-PATH-1', 'ERR-DOWN-1'])];
    const cols = columnsFor(checks);
    expect(cols).toEqual({ id: 'streaming.delivery.incremental-with-a-long-name'.length, requirements: 'SSE-INC-1,MSG-PATH-1,ERR-DOWN-1'.length });
    const lines = checks.map((c) => progressLine(c, cols));
    // The duration column starts at the same place on every line.
    expect(new Set(lines.map((l) => l.indexOf('12 ms'))).size).toBe(1);
    const tooLong = progressLine(res('x'.repeat(80), 'pass', ['A-1', 'B-2']), cols);
    expect(tooLong).toMatch(/x{80} A-1,B-2 +12 ms$/);
    expect(columnsFor([res('y'.repeat(200), 'pass')]).id).toBe(56);
  });
});

describe('the result line and the help of a finding', () => {
  it('counts what is not zero, the time, the verdict and the JSON report', () => {
    const results = [...Array.from({ length: 54 }, (_, i) => res(`p.${i}`, 'pass')), ...Array.from({ length: 5 }, (_, i) => res(`f.${i}`, 'fail')), res('w', 'warn'), res('s', 'skip')];
    expect(resultLine(reportOf(results, 1), ['reports/junit.xml', 'reports/report.json'])).toBe('gw-conformance: 54 pass, 5 fail, 1 warn, 1 skip in 15.0 s: FAILED (a MUST check did not pass); report: reports/report.json');
    expect(resultLine(reportOf([res('p', 'pass')], 0), [])).toBe('gw-conformance: 1 pass in 15.0 s: every MUST check passed');
    expect(hasInvisible(resultLine(reportOf([res('p', 'pass')], 0), ['out\x1b[2J/report.json']))).toBe(false);
  });

  it('says how to reproduce (the replay command, the HTML anchor) and where the fix is; the harness\'s own error has no fix link', () => {
    const failed = { ...res('messages.headers.beta', 'fail'), evidence: { replay: { command: 'gw-conformance run --target http://t --only messages.headers.beta --seed 7', curl: [], credential: '' } } };
    const help = findingHelp(failed, ['reports/report.json', 'reports/report.html']);
    expect(help).toEqual([
      '    reproduce: gw-conformance run --target http://t --only messages.headers.beta --seed 7',
      '    details:   reports/report.html#messages.headers.beta',
      expect.stringMatching(/^ {4}fix: {7}(.*\/)?docs\/checks\.md#messages\.headers\.beta$/),
    ]);
    expect(findingHelp({ ...failed, outcome: 'error' }, []).join('\n')).not.toContain('fix:');
    const summary = consoleSummary(reportOf([failed], 1), ['reports/report.html']);
    expect(summary).toContain('reproduce: gw-conformance run');
    expect(summary).toMatch(/fix: +\S*docs\/checks\.md#messages\.headers\.beta/);
  });
});
