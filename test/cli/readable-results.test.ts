// Reading the results as a user does: the console's findings in the order that matters (what
// fails the run first), words instead of machine tokens, a quoted HTML error page on one line
// with its line breaks shown, numbers that agree with their nouns, the list's JSON versioned.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { consoleSummary } from '../../src/reporters/console.js';
import { jobSummary } from '../../src/reporters/github.js';
import { summarize, type CheckResult, type RunReport } from '../../src/report/shared/types.js';
import { DELIVERY_WORDS, type Delivery } from '../../src/core/oracle.js';
import { demoRun } from '../helpers/demo.js';
import { htmlReport } from '../../src/reporters/html/page.js';
import { oneLine, xmlText } from '../../src/core/inert.js';
import { plural } from '../../src/core/words.js';
import { percentilesText } from '../../src/core/histogram.js';
import { limitText } from '../../src/core/limits.js';
import { main } from '../../cli/program.js';
import { LIST_SCHEMA_VERSION } from '../../cli/list/list.js';
import { COMMAND_OPTIONS } from '../../src/config/commands.js';
import { SCRIPT } from '../../src/reporters/html/script.js';
import { ROOT } from '../helpers/cli.js';

const result = (id: string, outcome: CheckResult['outcome'], level: CheckResult['level']): CheckResult => ({ id, title: 't', area: 'x', requirements: ['MSG-PATH-1'], level, outcome, message: `${id} went wrong`, expected: null, actual: null, evidence: {}, durationMs: 1 });

/** A report of these results, in this (the run's) order. */
const reportOf = (results: CheckResult[], over: Partial<RunReport> = {}) =>
  ({ schemaVersion: '1.8.0', harness: { name: 'gw-conformance', version: '0' }, target: 'http://t', upstream: null, profile: 'default', seed: 1, startedAt: 'now', strict: false, declared: { protocols: ['messages'] }, durationMs: 1, summary: summarize(results), exitCode: 1, results, unmatchedRequests: [], ...over }) as unknown as RunReport;

describe('findings in the order that matters', () => {
  // The run's order: registry order, which says nothing of severity.
  const results = [result('a.info', 'info', 'INFO'), result('b.warn', 'warn', 'SHOULD'), result('c.fail', 'fail', 'MUST'), result('d.error', 'error', 'MUST'), result('e.timeout', 'timeout', 'MUST'), result('f.waived', 'waived', 'MUST'), result('g.fail', 'fail', 'MUST'), result('h.pass', 'pass', 'MUST')];
  const ids = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[1]);

  it('the console: what fails the run first (MUST failures, time-outs), then harness errors, SHOULD, INFO, waived', () => {
    const out = consoleSummary(reportOf(results), []);
    expect(ids(out, /^ {2}[A-Z]+ ([a-z]\.[a-z]+) \[/gm)).toEqual(['c.fail', 'g.fail', 'e.timeout', 'd.error', 'b.warn', 'a.info', 'f.waived']);
  });

  it('under --strict a SHOULD failure fails the run, and comes before the harness errors', () => {
    const out = consoleSummary(reportOf(results, { strict: true }), []);
    expect(ids(out, /^ {2}[A-Z]+ ([a-z]\.[a-z]+) \[/gm)).toEqual(['c.fail', 'g.fail', 'e.timeout', 'b.warn', 'd.error', 'a.info', 'f.waived']);
  });

  it('the job summary the same way; report.json keeps the run order', () => {
    const report = reportOf(results);
    expect(ids(jobSummary(report, []), /^\| [A-Z]+ \| ([a-z]\.[a-z]+) \|/gm)).toEqual(['c.fail', 'g.fail', 'e.timeout', 'd.error', 'b.warn', 'a.info', 'f.waived']);
    expect(report.results.map((r) => r.id)).toEqual(['a.info', 'b.warn', 'c.fail', 'd.error', 'e.timeout', 'f.waived', 'g.fail', 'h.pass']);
  });
});

describe('results say in words what happened', () => {
  it('a buffered stream: `actual` says how it was delivered in words, not the oracle token', { timeout: 60_000 }, async () => {
    // What the checks say, not whether they fail: a 4 KiB buffer makes the stream arrive in blocks.
    const report = await demoRun('buffer-4k', { only: ['streaming.delivery.incremental', 'chat.stream.incremental'] });
    expect(report.results).toHaveLength(2);
    for (const r of report.results) {
      const token = (r.evidence as { delivery?: Delivery }).delivery!;
      expect(Object.keys(DELIVERY_WORDS)).toContain(token);
      expect(r.actual, r.id).toBe(DELIVERY_WORDS[token]);
      expect(r.actual, r.id).not.toMatch(/\b[a-z]+-[a-z]+-[a-z]+\b/);
    }
  });
});

describe('a quoted HTML error page stays on its line, its control characters shown alike everywhere', () => {
  it('oneLine: line breaks, tabs and invisible characters as the escapes the HTML report uses', () => {
    expect(oneLine('<html>\r\n<head>\tx\x1b[2J\u202e')).toBe('<html>\\r\\n<head>\\tx\\e[2J\\u202e');
    expect(oneLine('plain text — ünïcode')).toBe('plain text — ünïcode');
  });

  it("a gateway's HTML 502 page: the message and actual quote it on one line, and the console, HTML and JUnit show the same", { timeout: 60_000 }, async () => {
    const report = await demoRun('html-502-upstream-down', { only: ['errors.upstream.unreachable'] });
    const [r] = report.results;
    expect(r.outcome).toBe('fail');
    const page = '<html>\\r\\n<head><title>502 Bad Gateway</title></head>\\r\\n<body>';
    expect(r.message).toContain(page);
    expect(r.actual).toContain(page);
    expect(`${r.message}${r.actual}`).not.toMatch(/[\r\n]/);
    const console = consoleSummary(report, []);
    expect(console).not.toContain('\\x0d');
    expect(console).toContain(`    actual:   502 an HTML page (content-type text/html): ${page}`);
    expect(htmlReport(report, [])).toContain('&lt;html&gt;\\r\\n&lt;head&gt;&lt;title&gt;502 Bad Gateway');
    expect(xmlText(r.message)).toContain('&lt;html&gt;\\r\\n&lt;head&gt;');
  });
});

describe('numbers agree with their nouns', () => {
  it('plural: one, many, a plural of its own, a number written otherwise', () => {
    expect([plural(1, 'request'), plural(2, 'request'), plural(0, 'check'), plural(1, 'try', 'tries'), plural(3, 'try', 'tries'), plural(1200, 'answer', 'answers', '1,200')]).toEqual(['1 request', '2 requests', '0 checks', '1 try', '3 tries', '1,200 answers']);
  });

  it('the console, the HTML title, the load figures and the declared limit say "1 request", "1 check"', () => {
    const one = reportOf([result('c.fail', 'fail', 'MUST')], { unmatchedRequests: [{ method: 'GET', url: '/x', reason: 'no case token', receivedWall: 'w' }] } as unknown as Partial<RunReport>);
    const out = consoleSummary(one, []);
    expect(out).toContain('gw-conformance 0: 1 check against http://t');
    expect(out).toContain('The upstream received 1 request it could not tie to a check:');
    expect(htmlReport(one, [])).toContain('<title>gw-conformance: failed, 1 check against http://t</title>');
    expect(percentilesText({ count: 1, p50: 1, p95: 1, p99: 1, p999: 1, max: 1 } as Parameters<typeof percentilesText>[0])).toMatch(/\(1 request\)$/);
    expect(limitText({ kind: 'rps', count: 1, windowS: 1 })).toBe('1 request per 1 s per credential');
  });

  it('merge-reports of one report: "1 report, 1 check"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gwc-plural-'));
    mkdirSync(join(dir, 'a'));
    writeFileSync(join(dir, 'a', 'report.json'), JSON.stringify(await demoRun(undefined, { only: ['messages.path.preserved'] })));
    const out: string[] = [];
    const code = await main(['merge-reports', join(dir, 'a'), '--out', join(dir, 'merged'), '--reporter', 'json'], { out: (x) => out.push(x), err: () => {}, env: {}, untilStopped: async () => {} });
    expect(code).toBe(0);
    expect(out[0]).toBe('merge-reports: 1 report, 1 check');
  });
});

describe('list --json says which shape it is', () => {
  it('a schemaVersion beside the checks and the coverage, the one its --json help (docs/cli.md) states', async () => {
    const out: string[] = [];
    expect(await main(['list', '--json'], { out: (x) => out.push(x), err: () => {}, env: {}, untilStopped: async () => {} })).toBe(0);
    const doc = JSON.parse(out.join('\n')) as { schemaVersion: string; checks: unknown[]; coverage: object };
    expect(Object.keys(doc)).toEqual(['schemaVersion', 'checks', 'coverage']);
    expect(doc.schemaVersion).toBe(LIST_SCHEMA_VERSION);
    expect(LIST_SCHEMA_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    const help = COMMAND_OPTIONS.find((o) => o.name === 'json' && o.commands!.includes('list'))!.help;
    expect(help).toContain(`\`schemaVersion\` ${LIST_SCHEMA_VERSION}`);
  });
});

describe("each command's help says what holds for it", () => {
  it('certify --help: --target is required unless the harness starts the gateway, not "required for run"', async () => {
    for (const command of ['certify', 'run']) {
      const out: string[] = [];
      expect(await main([command, '--help'], { out: (x) => out.push(x), err: () => {}, env: {}, untilStopped: async () => {} })).toBe(0);
      const help = out.join('\n').replace(/\s+/g, ' ');
      expect(help, command).not.toContain('required for run');
      expect(help, command).toContain('--target <url> base URL of the gateway under test [env GWC_TARGET] (required, unless --gateway-cmd or --gateway-image starts the gateway)');
    }
  });
});

describe("docs/reports.md describes the HTML report's search, address and copy buttons as the page's script has them", () => {
  it('the search, the address parameters, the presets and the copy button words are in both', () => {
    const doc = readFileSync(join(ROOT, 'docs/reports.md'), 'utf8');
    const html = doc.slice(doc.indexOf('## The HTML report'), doc.indexOf('## Routes'));
    expect(html).toMatch(/\*\*Search\*\*: a row stays when every word typed/);
    expect(html).toContain('report.html?q=stream&outcome=fail,warn&level=MUST');
    for (const param of ["'q'", "'outcome'", "'area'", "'level'"]) expect(SCRIPT).toContain(param === "'q'" ? "p.set('q'" : param);
    expect(html).toContain('"problems only"');
    expect(htmlReport(reportOf([result('c.fail', 'fail', 'MUST')]), [])).toContain('>problems only</button>');
    for (const words of ['copied', 'select the text', 'checks shown']) {
      expect(html, words).toContain(words);
      expect(SCRIPT, words).toContain(words);
    }
  });
});
