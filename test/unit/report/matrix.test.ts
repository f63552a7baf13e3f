// `gw-conformance matrix`: synthetic reports of three gateways (one named by its report, one by a
// label, one by its folder; different harness versions; a check one run lacks; capability cells in
// one run only) through the CLI (called in this process): the JSON against its published schema, the HTML inert,
// sortable and linked to each run's report.html anchors by relative paths, the Markdown's shape,
// and bad input as one line and exit 2.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { MATRIX_SCRIPT } from '../../../src/report/across-runs/matrix-assets.js';
import type { Matrix } from '../../../src/report/across-runs/matrix.js';
import type { CapabilityCell, CellState } from '../../../src/core/capabilities.js';
import { SCHEMA_VERSION, type CheckResult, type RunReport } from '../../../src/report/shared/types.js';
import { madeUpReport } from '../../helpers/made-up-report.js';
import { htmlReport } from '../../../src/reporters/html/page.js';
import { hasChromium, launchChromium, requireChromium, watchPage } from '../../helpers/chromium.js';
import { freePort, ROOT } from '../../helpers/cli.js';
import { cliInProcess } from '../../helpers/in-process.js';
import { DEMO_UPSTREAM_TIMEOUT_MS, ReferenceGateway } from '../../../reference/gateway.js';
import { cleanupAfterAll } from '../../helpers/cleanup.js';

const { tempDir } = cleanupAfterAll();
const EVIL = '<script>window.__pwned=1</script><img src=x onerror=alert(1)>';

function result(id: string, outcome: CheckResult['outcome'], over: Partial<CheckResult> = {}): CheckResult {
  return { id, title: `title of ${id}`, area: id.split('.')[0], requirements: ['MSG-BODY-1'], level: 'MUST', outcome, message: `${outcome} message`, expected: null, actual: null, evidence: {}, durationMs: 3, ...over };
}

const report = (results: CheckResult[], over: Partial<RunReport> = {}): RunReport => madeUpReport(results, { startedAt: '2026-11-20T10:00:00.000Z', finishedAt: '2026-11-20T10:00:01.000Z', ...over });

const cells = (state: CellState): { cells: CapabilityCell[] } => ({ cells: [{ protocol: 'messages', route: 'default', feature: 'tools', mode: 'json', state: 'pass', required: false, evidence: [] }, { protocol: 'messages', route: 'default', feature: 'tools', mode: 'stream', state, required: true, evidence: state === 'pass' ? [] : ['lost'] }] });

/** Writes report.json and its report.html (the real HTML reporter) into DIR. */
function writeRun(dir: string, r: RunReport): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'report.json'), JSON.stringify(r));
  writeFileSync(path.join(dir, 'report.html'), htmlReport(r, []));
}

let base = '';
let out = '';
beforeAll(() => {
  base = tempDir('gwc-matrix-');
  out = path.join(base, 'out');
  writeRun(path.join(base, 'runs', 'alpha'), report([result('messages.path.preserved', 'pass'), result('messages.headers.beta', 'fail', { message: EVIL }), result('capabilities.messages', 'fail', { area: 'capabilities', evidence: cells('fail') })], { gateway: { name: 'alpha-gw', version: '2.1' } }));
  writeRun(path.join(base, 'runs', 'beta'), report([result('messages.path.preserved', 'pass'), result('messages.headers.beta', 'skip')], { harness: { name: 'gw-conformance', version: '0.0.9' }, startedAt: '2026-10-01T08:00:00.000Z' }));
  writeRun(path.join(base, 'runs', 'gamma|<b>'), report([result('messages.path.preserved', 'warn'), result('messages.headers.beta', 'pass')]));
});

const DIRS = () => ['alpha', 'beta', 'gamma|<b>'].map((d) => path.join(base, 'runs', d));
const LABEL = () => `--label=${path.join(base, 'runs', 'beta')}=beta-proxy@${EVIL}`;

describe('matrix: the JSON output', () => {
  it('matches src/report/across-runs/matrix.schema.json; runs keyed by gateway, version, harness, catalog and date; n/a is not a skip', async () => {
    const r = await cliInProcess(['matrix', ...DIRS(), LABEL(), '--format', 'json', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const m = JSON.parse(readFileSync(path.join(out, 'matrix.json'), 'utf8')) as Matrix;
    const validate = new Ajv({ allErrors: true }).compile(JSON.parse(readFileSync(path.join(ROOT, 'src', 'report', 'across-runs', 'matrix.schema.json'), 'utf8')));
    expect(validate(m), JSON.stringify(validate.errors)).toBe(true);
    expect(m.runs.map((x) => [x.gateway.name, x.gateway.version, x.harness, x.date])).toEqual([
      ['alpha-gw', '2.1', '0.1.0', '2026-11-20'],
      ['beta-proxy', EVIL, '0.0.9', '2026-10-01'],
      ['gamma|<b>', null, '0.1.0', '2026-11-20'],
    ]);
    expect(m.runs[0].key).toBe('alpha-gw@2.1 · harness 0.1.0 · catalog 0.1.0 · 2026-11-20');
    const row = (id: string) => m.checks.find((c) => c.id === id)!.cells.map((c) => c.value);
    expect(row('messages.headers.beta')).toEqual(['fail', 'skip', 'pass']);
    expect(row('capabilities.messages')).toEqual(['fail', 'not-applicable', 'not-applicable']);
    expect(m.capabilities.map((c) => [c.mode, c.cells.map((x) => x.value)])).toEqual([
      ['json', ['pass', 'not-applicable', 'not-applicable']],
      ['stream', ['fail', 'not-applicable', 'not-applicable']],
    ]);
    // The schema refuses a cell value it does not know.
    m.checks[0].cells[0].value = 'n/a' as never;
    expect(validate(m)).toBe(false);
  });
});

describe('matrix: the HTML page', () => {
  let html = '';
  beforeAll(async () => {
    const r = await cliInProcess(['matrix', ...DIRS(), LABEL(), '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^matrix: 3 runs × 3 checks, 2 capability cells: .*matrix\.html\n$/);
    html = readFileSync(path.join(out, 'matrix.html'), 'utf8');
  });

  it('keeps everything from the reports inert: the one script is the page\'s own', () => {
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain(`<script>${MATRIX_SCRIPT}</script>`);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt;');
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-/);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('has sortable tables and a filter box', () => {
    expect(html.match(/<table class="sortable"/g)).toHaveLength(3);
    expect(html).toContain('<input type="search" id="filter"');
    expect(MATRIX_SCRIPT).toContain("addEventListener('click'");
    expect(MATRIX_SCRIPT).toContain('rows.sort(');
  });

  it('links each cell to its check in that run\'s report.html by a relative path, and the anchor exists there', () => {
    const links = [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
    expect(links.length).toBeGreaterThanOrEqual(9);
    for (const href of links) {
      expect(href, href).not.toMatch(/^([a-z]+:|\/)/i);
      const [file, anchor] = href.split('#');
      const target = readFileSync(path.join(out, decodeURIComponent(file)), 'utf8');
      if (anchor !== undefined) expect(target, href).toContain(`id="${decodeURIComponent(anchor)}"`);
    }
    expect(links).toContain('../runs/gamma%7C%3Cb%3E/report.html#messages.headers.beta');
    // A check the run lacks is n/a, without a link.
    expect(html).toMatch(/<td class="v o-not-applicable" data-sort="10">n\/a<\/td>/);
  });
});

describe('matrix: the HTML page in chromium (file://)', () => {
  it.skipIf(!hasChromium && !requireChromium)('sorts by a column, filters rows, runs no gateway text, loads nothing, logs no error', async () => {
    const r = await cliInProcess(['matrix', ...DIRS(), LABEL(), '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const { requests, errors, dialogs } = watchPage(page);
      const url = `file://${path.join(out, 'matrix.html')}`;
      await page.goto(url, { waitUntil: 'load' });
      const column = (i: number) => page.evaluate((k) => Array.from((document.getElementById('checks') as HTMLTableElement).tBodies[0].rows).filter((x) => !x.hidden).map((x) => x.cells[k].textContent), i);
      // Column 5 is the third run's: warn sorts before pass, and a second click turns the order.
      await page.locator('#checks thead th').nth(5).locator('button').click();
      expect(await column(5)).toEqual(['warn', 'pass', 'n/a']);
      await page.locator('#checks thead th').nth(5).locator('button').click();
      expect(await column(5)).toEqual(['n/a', 'pass', 'warn']);
      await page.fill('#filter', 'beta');
      expect(await column(0)).toEqual(['messages.headers.beta']);
      expect(await page.locator('#shown').textContent()).toMatch(/ of /);
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned ?? null)).toBeNull();
      expect({ requests, errors, dialogs }).toEqual({ requests: [url], errors: [], dialogs: [] });
    } finally {
      await browser.close();
    }
  }, 90_000);
});

describe('matrix: the Markdown output', () => {
  it('one row per check, a column per run; gateway text escaped so it cannot split a cell or add markup', async () => {
    const r = await cliInProcess(['matrix', ...DIRS(), '--format', 'markdown', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const md = readFileSync(path.join(out, 'matrix.md'), 'utf8');
    const table = md.split('\n').filter((l) => l.startsWith('| `') || l.startsWith('| check'));
    expect(table[0]).toBe('| check | level | alpha-gw 2.1 | beta | gamma\\|&lt;b&gt; |');
    expect(table.slice(1)).toEqual(['| `messages.path.preserved` | MUST | pass | pass | **warn** |', '| `messages.headers.beta` | MUST | **fail** | skip | pass |', '| `capabilities.messages` | MUST | **fail** | n/a | n/a |']);
    expect(md).toContain('| messages default tools | streamed | **fail** (required) | n/a | n/a |');
  });
});

describe('matrix: bad input', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['a folder without report.json', ['nowhere'], /^gw-conformance: error GWC-BAD-REPORT: .*nowhere\/report\.json: not a readable JSON report \(ENOENT\)$/],
    ['a label without NAME', ['alpha', '--label', 'alpha='], /^gw-conformance: error GWC-BAD-FLAG: --label: expected DIR=NAME@VERSION \(or DIR=NAME\), got "alpha="$/],
    ['a label for no report given', ['alpha', '--label', 'zeta=z@1'], /^gw-conformance: error GWC-BAD-FLAG: --label zeta=\.\.\.: zeta is none of the reports given/],
    ['an unknown format', ['alpha', '--format', 'pdf'], /^gw-conformance: error GWC-USAGE: option '--format <name>' argument 'pdf' is invalid\./],
  ];
  for (const [what, args, line] of cases)
    it(`${what}: one line, exit 2`, async () => {
      const r = await cliInProcess(['matrix', ...args.map((a) => (a === 'alpha' || a === 'nowhere' ? path.join(base, 'runs', a) : a)), '--out', out]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
      expect(r.stderr.trim().replace(`${path.join(base, 'runs')}/`, '')).toMatch(line);
    });

  it('a report.json that is not a report: one line, exit 2', async () => {
    const dir = path.join(base, 'runs', 'broken');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'report.json'), JSON.stringify({ schemaVersion: SCHEMA_VERSION, results: 'x' }));
    const r = await cliInProcess(['matrix', dir, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/report\.json: the report does not match its schema/);
  });
});

describe('run --gateway-name, --gateway-version: the report names its gateway, and the matrix takes it', () => {
  it('a demo run records them in report.json; the matrix names its column by them', async () => {
    const run = path.join(base, 'runs', 'named');
    const r = await cliInProcess(['demo', '--only', 'messages.path.preserved', '--seed', '1', '--reporter', 'json', '--out', run, '--gateway-name', 'reference', '--gateway-version', '9.9']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(run, 'report.json'), 'utf8')).gateway).toEqual({ name: 'reference', version: '9.9' });
    const m = await cliInProcess(['matrix', run, '--format', 'json', '--out', out]);
    expect(m.code, m.stderr).toBe(0);
    const runs = (JSON.parse(readFileSync(path.join(out, 'matrix.json'), 'utf8')) as Matrix).runs;
    expect(runs.map((x) => [x.gateway, x.evidence])).toEqual([[{ name: 'reference', version: '9.9' }, null]]);
  });

  it('a certify folder without them is named by its implementation', async () => {
    const run = path.join(base, 'runs', 'certified');
    // The reference gateway in this process, forwarding to the port the certify run's recording upstream takes.
    const port = await freePort();
    const gw = new ReferenceGateway({ upstream: `http://127.0.0.1:${port}`, upstreamTimeoutMs: DEMO_UPSTREAM_TIMEOUT_MS });
    const target = await gw.start();
    const c = await cliInProcess(['certify', '--target', target, '--upstream-listen', `127.0.0.1:${port}`, '--only', 'messages.path.preserved', '--seed', '1', '--implementation-name', 'refgw', '--implementation-version', '3.0', '--out', run]).finally(() => gw.stop());
    expect(c.code, c.stderr).toBe(0);
    const m = await cliInProcess(['matrix', run, '--format', 'json', '--out', out]);
    expect(m.code, m.stderr).toBe(0);
    const [r] = (JSON.parse(readFileSync(path.join(out, 'matrix.json'), 'utf8')) as Matrix).runs;
    expect([r.gateway, r.catalog, r.evidence]).toEqual([{ name: 'refgw', version: '3.0' }, r.harness, '../runs/certified/report.html']);
  });

  it('a version without a name: one line, exit 2', async () => {
    const r = await cliInProcess(['demo', '--only', 'messages.path.preserved', '--gateway-version', '9.9', '--reporter', 'json', '--out', path.join(base, 'unused')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('gw-conformance: error GWC-BAD-FLAG: --gateway-version: give --gateway-name too (the version of which gateway?)');
  });
});
