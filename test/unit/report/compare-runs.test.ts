// `gw-conformance compare BASE NEW`: every transition of a check and of a capability cell on
// synthetic report pairs, the exit codes, the ignore options, checks renamed between harness
// versions, gateway text kept inert in every format, bad input in one line; then two real demo
// runs (clean, and with a fault) compared through the CLI, in this process. (test/unit/core/compare.test.ts is the
// lossless JSON comparison of src/core/json-diff.ts.)
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { compareReports, type CompareOptions } from '../../../src/report/across-runs/compare.js';
import type { Capability, CellMode, CellState } from '../../../src/core/capabilities.js';
import { consoleText, githubText, markdownText } from '../../../src/report/across-runs/compare-format.js';
import { NOT_RUN } from '../../../src/report/shared/policy.js';
import { SCHEMA_VERSION, type CheckResult, type RunReport } from '../../../src/report/shared/types.js';
import { madeUpReport } from '../../helpers/made-up-report.js';
import { assertValidReport } from '../../../src/report/shared/validate.js';
import { main } from '../../../cli/program.js';
import { ROOT } from '../../helpers/cli.js';
import { cliInProcess } from '../../helpers/in-process.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'gwc-compare-'));

function result(id: string, outcome: CheckResult['outcome'], o: Partial<CheckResult> = {}): CheckResult {
  return { id, title: id, area: id.split('.')[0], requirements: [`REQ-${id.split('.').pop()!.toUpperCase()}-1`], level: 'MUST', outcome, message: `${id} ${outcome}`, expected: null, actual: null, evidence: {}, durationMs: 1, ...o };
}

/** A report that passes the run report's schema (as `compare` reads it). */
function report(results: CheckResult[], o: Partial<RunReport> = {}): RunReport {
  const r = madeUpReport(results, o);
  assertValidReport(r);
  return r;
}

const SOURCES = { base: 'base/', new: 'new/' };
const cmp = (b: CheckResult[], n: CheckResult[], opts: CompareOptions = {}, ro: { base?: Partial<RunReport>; now?: Partial<RunReport> } = {}) => compareReports(report(b, ro.base), report(n, ro.now), SOURCES, opts);
const changeOf = (c: ReturnType<typeof cmp>, id: string) => c.checks.find((r) => r.id === id)?.change;

/** A capability check's result holding cells. */
const capability = (cells: Array<{ feature: Capability; mode: CellMode; state: CellState; required?: boolean; evidence?: string[] }>) =>
  result('capabilities.messages', 'pass', { area: 'capabilities', evidence: { cells: cells.map((c) => ({ protocol: 'messages', route: 'claude-sonnet-4-5', required: false, evidence: [], ...c })) } });

describe('compare: what changed per check', () => {
  it('names every transition; only a check that passed (or warned) and now fails is a regression', () => {
    const pairs: Array<[string, CheckResult['outcome'] | null, CheckResult['outcome'] | null, string]> = [
      ['a.pass-fail', 'pass', 'fail', 'regression'],
      ['a.warn-fail', 'warn', 'fail', 'regression'],
      ['a.pass-timeout', 'pass', 'timeout', 'regression'],
      ['a.fail-pass', 'fail', 'pass', 'fixed'],
      ['a.fail-warn', 'fail', 'warn', 'fixed'],
      ['a.pass-warn', 'pass', 'warn', 'changed'],
      ['a.warn-pass', 'warn', 'pass', 'changed'],
      ['a.pass-error', 'pass', 'error', 'changed'],
      ['a.pass-waived', 'pass', 'waived', 'changed'],
      ['a.pass-skip', 'pass', 'skip', 'skipped'],
      ['a.skip-pass', 'skip', 'pass', 'unskipped'],
      ['a.skip-fail', 'skip', 'fail', 'unskipped'],
      ['a.pass-pass', 'pass', 'pass', 'unchanged'],
      ['a.fail-fail', 'fail', 'fail', 'unchanged'],
      ['a.skip-skip', 'skip', 'skip', 'unchanged'],
      ['a.added', null, 'fail', 'new'],
      ['a.removed', 'pass', null, 'gone'],
    ];
    const base = pairs.filter((p) => p[1]).map(([id, b]) => result(id, b!, { level: b === 'warn' ? 'SHOULD' : 'MUST' }));
    const now = pairs.filter((p) => p[2]).map(([id, , n]) => result(id, n!, { level: n === 'warn' || id === 'a.warn-fail' ? 'SHOULD' : 'MUST' }));
    const c = cmp(base, now);
    for (const [id, , , want] of pairs) expect(changeOf(c, id), id).toBe(want);
    expect(c.regressions).toBe(3);
    expect(c.exitCode).toBe(1);
    // NEW's message is shown for what did not pass there, and the listing starts with the regressions.
    expect(c.checks.find((r) => r.id === 'a.pass-fail')).toMatchObject({ base: 'pass', now: 'fail', message: 'a.pass-fail fail' });
    expect(c.checks.find((r) => r.id === 'a.fail-pass')!.message).toBeUndefined();
    expect(c.checks.slice(0, 3).map((r) => r.change)).toEqual(['regression', 'regression', 'regression']);
    expect(c.counts.checks).toMatchObject({ regression: 3, fixed: 2, changed: 4, skipped: 1, unskipped: 2, unchanged: 3, new: 1, gone: 1 });
  });

  it('pass -> warn is a change, a regression with --fail-on warn; an INFO timeout or a flaky check allowed to be flaky is none', () => {
    const base = [result('b.warn', 'pass', { level: 'SHOULD' }), result('b.info', 'pass', { level: 'INFO' }), result('b.flaky', 'pass')];
    const now = [result('b.warn', 'warn', { level: 'SHOULD' }), result('b.info', 'timeout', { level: 'INFO' }), result('b.flaky', 'flaky')];
    expect(cmp(base, now, {}, { now: { allowFlaky: true } })).toMatchObject({ regressions: 0, exitCode: 0 });
    const strict = cmp(base, now, { failOn: 'warn' }, { now: { allowFlaky: true } });
    expect([changeOf(strict, 'b.warn'), changeOf(strict, 'b.info'), changeOf(strict, 'b.flaky')]).toEqual(['regression', 'changed', 'regression']);
    // Without --allow-flaky in NEW's run, a flaky MUST check fails it: a regression.
    expect(changeOf(cmp(base, now), 'b.flaky')).toBe('regression');
  });

  it('checks NEW did not run because Ctrl-C stopped it are skipped, never passes', () => {
    const base = [result('c.one', 'pass'), result('c.two', 'pass')];
    const now = [result('c.one', 'pass'), result('c.two', 'skip', { message: NOT_RUN })];
    const c = cmp(base, now, {}, { now: { interrupted: true } });
    expect(c.checks.find((r) => r.id === 'c.two')).toMatchObject({ change: 'skipped', now: 'not-run' });
    expect(c.new.interrupted).toBe(true);
    expect(c.notes.join('\n')).toMatch(/NEW run was interrupted.*1 of its checks did not run.*never as passes/);
  });
});

describe('compare: capability cells', () => {
  it('pairs cells by protocol, route, feature and mode: pass -> fail is a regression, a required feature no longer offered too', () => {
    const base = [capability([{ feature: 'tools', mode: 'json', state: 'pass' }, { feature: 'tools', mode: 'stream', state: 'pass' }, { feature: 'images', mode: 'json', state: 'fail' }, { feature: 'images', mode: 'stream', state: 'pass' }, { feature: 'thinking', mode: 'json', state: 'pass' }, { feature: 'citations', mode: 'json', state: 'pass' }])];
    const now = [capability([{ feature: 'tools', mode: 'json', state: 'pass' }, { feature: 'tools', mode: 'stream', state: 'fail', evidence: ['tool_use input lost'] }, { feature: 'images', mode: 'json', state: 'pass' }, { feature: 'images', mode: 'stream', state: 'not-offered', evidence: ['400 images not supported'] }, { feature: 'thinking', mode: 'json', state: 'not-offered', required: true }, { feature: 'documents', mode: 'json', state: 'pass' }])];
    const c = cmp(base, now);
    const cell = (feature: string, mode: string) => c.cells.find((r) => r.feature === feature && r.mode === mode);
    expect(cell('tools', 'stream')).toMatchObject({ change: 'regression', base: 'pass', now: 'fail', evidence: 'tool_use input lost' });
    expect(cell('tools', 'json')!.change).toBe('unchanged');
    expect(cell('images', 'json')!.change).toBe('fixed');
    expect(cell('images', 'stream')).toMatchObject({ change: 'changed', now: 'not-offered' });
    expect(cell('thinking', 'json')).toMatchObject({ change: 'regression', required: true });
    expect([cell('documents', 'json')!.change, cell('citations', 'json')!.change]).toEqual(['new', 'gone']);
    // The capability check itself passed in both runs; its cells carry the regressions.
    expect(changeOf(c, 'capabilities.messages')).toBe('unchanged');
    expect(c).toMatchObject({ regressions: 2, exitCode: 1 });
    expect(consoleText(c)).toMatch(/REGRESSION capability tools · messages claude-sonnet-4-5 · stream: pass -> fail\n\s+tool_use input lost/);
    expect(githubText(c).split('\n')).toHaveLength(2);
  });
});

describe('compare: matching and ignoring', () => {
  const base = [result('d.old-name', 'pass', { requirements: ['DUP-1'] }), result('d.kept', 'pass'), result('d.split-a', 'pass', { requirements: ['SPLIT-1'] })];
  const now = [result('d.new-name', 'fail', { requirements: ['DUP-1'] }), result('d.kept', 'pass'), result('d.split-b', 'pass', { requirements: ['SPLIT-1'] }), result('d.split-c', 'pass', { requirements: ['SPLIT-1'] })];

  it('across harness versions a renamed check is the same row (by requirement ID), said at the top; same versions match by id only', () => {
    const across = cmp(base, now, {}, { now: { harness: { name: 'gw-conformance', version: '0.2.0' } } });
    expect(across.matchedBy).toBe('requirement-id');
    expect(across.checks.find((r) => r.id === 'd.new-name')).toMatchObject({ change: 'regression', baseId: 'd.old-name' });
    // One requirement now proved by two checks: no pairing is certain, so they stay new and gone.
    expect([changeOf(across, 'd.split-b'), changeOf(across, 'd.split-c'), changeOf(across, 'd.split-a')]).toEqual(['new', 'new', 'gone']);
    expect(consoleText(across).split('\n')[2]).toMatch(/^note: different harness versions \(BASE 0\.1\.0, NEW 0\.2\.0\)/);
    expect(markdownText(across)).toMatch(/> different harness versions/);
    const same = cmp(base, now);
    expect(same.matchedBy).toBe('check-id');
    expect([changeOf(same, 'd.new-name'), changeOf(same, 'd.old-name')]).toEqual(['new', 'gone']);
    expect(same.exitCode).toBe(0);
  });

  it('--ignore and --ignore-level leave checks out (named in the output), so their regressions do not count', () => {
    const b = [result('e.must', 'pass'), result('e.info', 'pass', { level: 'INFO' }), capability([{ feature: 'tools', mode: 'json', state: 'pass' }])];
    const n = [result('e.must', 'fail'), result('e.info', 'fail', { level: 'INFO' }), capability([{ feature: 'tools', mode: 'json', state: 'fail' }])];
    expect(cmp(b, n).regressions).toBe(3);
    const c = cmp(b, n, { ignore: ['e.must', 'capabilities.messages'] });
    expect(c).toMatchObject({ regressions: 1, ignored: ['capabilities.messages', 'e.must'], cells: [] });
    expect(cmp(b, n, { ignore: ['e.must', 'capabilities.messages'], ignoreLevels: ['INFO'] })).toMatchObject({ regressions: 0, exitCode: 0 });
    expect(consoleText(c)).toMatch(/^ignored: capabilities\.messages, e\.must$/m);
  });
});

describe('compare: gateway text stays inert', () => {
  const hostile = 'boom\u001b]8;;http://evil.example\u0007click\u001b[31m red\r\n::error::forged <img src=x onerror=alert(1)> | cell [link](https://evil.example) `code` **bold**';
  const c = cmp([result('f.x', 'pass')], [result('f.x', 'fail', { message: hostile })]);

  it('console: escapes shown, never acted on', () => {
    const text = consoleText(c);
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(text).toContain('\\x1b]8;;');
    expect(text).toContain('\\x1b[31m');
  });

  it('Markdown: no markup, link, HTML or table cell of its own', () => {
    const md = markdownText(c);
    const row = md.split('\n').find((l) => l.startsWith('| REGRESSION'))!;
    expect(row.split(/(?<!&#124;)\|/).length).toBe(8); // 6 cells, as the header has
    expect(md).not.toMatch(/<img|\[link\]\(|https:\/\/evil|`code`|\*\*bold|\u001b/);
    expect(md).toContain('&#60;img');
  });

  it('GitHub: one annotation line per regression; the message can start no command of its own', () => {
    const lines = githubText(c).split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^::error title=regression%3A f\.x \[MUST REQ-X-1\]::pass -> fail: boom\\x1b/);
    expect(lines[0].indexOf('::', 2)).toBe(lines[0].indexOf('::pass'));
  });
});

/** Two report folders for the CLI, and the file of each. */
function folders(base: RunReport, now: RunReport): { dir: string; base: string; now: string } {
  const dir = tmp();
  for (const [name, r] of [['base', base], ['new', now]] as const) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'report.json'), JSON.stringify(r));
  }
  return { dir, base: join(dir, 'base'), now: join(dir, 'new') };
}

/** The program in this process (commander, the command, the exit-code mapping), for the cases that need no process of their own. */
async function inProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const [out, err]: string[][] = [[], []];
  const code = await main(args, { out: (s) => out.push(s), err: (s) => err.push(s), env: {}, untilStopped: () => new Promise<void>(() => {}) });
  return { code, stdout: out.map((l) => `${l}\n`).join(''), stderr: err.map((l) => `${l}\n`).join('') };
}

function oneLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
  return lines[0];
}

describe('gw-conformance compare (the command line)', () => {
  const clean = report([result('g.one', 'pass'), result('g.two', 'pass')]);
  const broken = report([result('g.one', 'pass'), result('g.two', 'fail', { message: 'g.two lost its header' })]);

  it('exit 1 on a regression, 0 without; --format json matches its published schema', async () => {
    const f = folders(clean, broken);
    const r = await cliInProcess(['compare', f.base, f.now]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/REGRESSION g\.two \[MUST REQ-TWO-1\]: pass -> fail\n\s+g\.two lost its header/);
    expect(r.stdout.trim()).toMatch(/Result: REGRESSED: 1 check that passed now fails\.$/);
    const back = await inProcess(['compare', f.now, join(f.base, 'report.json')]);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toMatch(/FIXED\s+g\.two/);
    const json = await inProcess(['compare', f.base, f.now, '--format', 'json']);
    expect(json.code).toBe(1);
    const ajv = new Ajv({ allErrors: true, strict: true });
    addFormats.default(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'src/report/across-runs/compare.schema.json'), 'utf8')));
    const doc = JSON.parse(json.stdout);
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(doc).toMatchObject({ regressions: 1, exitCode: 1, checks: [{ id: 'g.two', change: 'regression', message: 'g.two lost its header' }, { id: 'g.one', change: 'unchanged' }] });
    // The schema is strict: a row with a field it does not know is refused.
    expect(validate({ ...doc, checks: [{ ...doc.checks[0], extra: 1 }] })).toBe(false);
  });

  it('--format markdown --out FILE writes the comparison, standard output gets the result line; --format github one annotation', async () => {
    const f = folders(clean, broken);
    const out = join(f.dir, 'comparison.md');
    const r = await inProcess(['compare', f.base, f.now, '--format', 'markdown', '--out', out]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout.trim()).toBe(`compare: REGRESSED: 1 check that passed now fails; markdown written to ${out}`);
    const md = readFileSync(out, 'utf8');
    expect(md).toMatch(/^## gw-conformance compare\n/);
    expect(md).toContain('| REGRESSION | g.two | MUST REQ-TWO-1 | pass | fail | g.two lost its header |');
    const gh = await inProcess(['compare', f.base, f.now, '--format', 'github', '--ignore-level', 'should']);
    expect(gh.stdout.trim().split('\n')).toEqual(['::error title=regression%3A g.two [MUST REQ-TWO-1]::pass -> fail: g.two lost its header']);
    const ignored = await inProcess(['compare', f.base, f.now, '--ignore', 'g.two']);
    expect(ignored.code, ignored.stderr).toBe(0);
  });

  it('a report of an earlier minor schema (an earlier harness) is compared, by requirement ID; a later or another major one is refused', async () => {
    const older = { ...report([result('g.one', 'pass'), result('g.renamed', 'pass', { requirements: ['REQ-TWO-1'] })], { harness: { name: 'gw-conformance', version: '0.0.9' } }), schemaVersion: '1.0.0' };
    const f = folders(older as RunReport, broken);
    const r = await inProcess(['compare', f.base, f.now]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/note: different harness versions \(BASE 0\.0\.9, NEW /);
    expect(r.stdout).toMatch(/REGRESSION g\.two \(was g\.renamed\) \[MUST REQ-TWO-1\]: pass -> fail/);
    for (const v of ['9.0.0', `${SCHEMA_VERSION.split('.')[0]}.999.0`]) {
      const g = folders({ ...clean, schemaVersion: v } as RunReport, broken);
      const bad = await inProcess(['compare', g.base, g.now]);
      expect(bad.code).toBe(2);
      expect(oneLine(bad.stderr)).toContain(`report schema "${v}", this harness reads ${SCHEMA_VERSION} and earlier`);
    }
  });

  it('bad input: one line, no stack trace, exit 2, before any comparison', async () => {
    const f = folders(clean, broken);
    writeFileSync(join(f.dir, 'not.json'), '{ nope');
    writeFileSync(join(f.dir, 'other.json'), JSON.stringify({ hello: 'world' }));
    const cases: Array<[string[], RegExp]> = [
      [['compare', join(f.dir, 'missing'), f.now], /missing\/report\.json: not a readable JSON report \(ENOENT\)/],
      [['compare', f.base, join(f.dir, 'not.json')], /not\.json: not a readable JSON report/],
      [['compare', f.base, join(f.dir, 'other.json')], /other\.json: report schema undefined, this harness reads/],
      [['compare', f.base, f.now, '--ignore', 'g.tow'], /--ignore: unknown check "g\.tow"; did you mean "g\.two"\?/],
      [['compare', f.base, f.now, '--ignore-level', 'MAY'], /--ignore-level: unknown level "MAY"/],
      [['compare', f.base, f.now, '--out', join(f.dir, 'not.json', 'x.md')], /--out .*not a folder/],
    ];
    for (const [args, want] of cases) {
      const r = await inProcess(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(oneLine(r.stderr)).toMatch(want);
      expect(r.stdout).toBe('');
    }
    // And as a process of its own: the same one line, no stack trace.
    const r = await cliInProcess(cases[1][0]);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(cases[1][1]);
  });

  it('an interrupted NEW is not a complete run: exit 2 unless --allow-partial, and then its unfinished checks are skipped', async () => {
    const stopped = report([result('g.one', 'pass'), result('g.two', 'skip', { message: NOT_RUN })], { interrupted: true });
    const f = folders(clean, stopped);
    const r = await inProcess(['compare', f.base, f.now]);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(/the NEW run .* was interrupted \(Ctrl-C; 1 of 2 checks did not run\): not a complete run \(--allow-partial/);
    const partial = await inProcess(['compare', f.base, f.now, '--allow-partial']);
    expect(partial.code, partial.stderr).toBe(0);
    expect(partial.stdout).toMatch(/SKIPPED\s+g\.two \[MUST REQ-TWO-1\]: pass -> not-run/);
    expect(partial.stdout).toMatch(/note: the NEW run was interrupted/);
  });

  it('two real demo runs, clean and with a fault: exit 1, the regression named with its message', { timeout: 120_000 }, async () => {
    const dir = tmp();
    const only = ['--only', 'messages.headers.beta', '--only', 'messages.body.semantic', '--reporter', 'json', '--seed', '7'];
    const [a, b] = await Promise.all([cliInProcess(['demo', ...only, '--out', join(dir, 'clean')]), cliInProcess(['demo', '--fault', 'drop-anthropic-beta', ...only, '--out', join(dir, 'fault')])]);
    expect([a.code, b.code], a.stderr + b.stderr).toEqual([0, 1]);
    const r = await cliInProcess(['compare', join(dir, 'clean'), join(dir, 'fault')]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/REGRESSION messages\.headers\.beta \[MUST MSG-HDR-2\]: pass -> fail\n\s+.*anthropic-beta lost claude-code-20250219/);
    expect(r.stdout).toMatch(/checks: 1 regression, 1 unchanged/);
  });
});
