// CONTRIBUTING.md is held to the tree: every repository path it names exists, every `npm run`
// script it names is in package.json, every GWC_ variable it names is read by the code, and "How
// to add a check" names a file at each step, files that exist, and exactly the fields of
// defineCheck's spec (src/check/check.ts, read with the TypeScript compiler), required and not.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { LANES } from '../helpers/lane-setup.js';
import { PARTS } from '../helpers/matrix-parts.js';

const doc = readFileSync(path.join(ROOT, 'CONTRIBUTING.md'), 'utf8');
/** The folders of the repository a path in the guide may start with (dist/ and .cache/ are made by runs). */
const TOP = ['.ci', 'bench', 'bin', 'catalog', 'docs', 'examples', 'fixtures', 'mocks', 'reference', 'schemas', 'scripts', 'src', 'suites', 'test'];
/** A placeholder's stand-in: a real area and a real check of it. */
const STAND_IN: Record<string, string> = { '<area>': 'messages', '<id>': 'messages.headers.version' };

/** The repository paths a text names (`src/core/mask.ts`, `suites/<area>/`...), placeholders filled in, globs and braces left out. */
function pathsIn(text: string): string[] {
  const found = new Set<string>();
  const re = new RegExp(`(?<![\\w./<>-])(?:${TOP.map((t) => t.replace('.', '\\.')).join('|')})/[\\w./<>*{},-]*`, 'g');
  for (const m of text.matchAll(re)) {
    let p = m[0].replace(/[.,]+$/, '');
    if (/[*{]/.test(p)) p = p.slice(0, p.search(/[*{]/)).replace(/[^/]*$/, '');
    for (const [k, v] of Object.entries(STAND_IN)) p = p.split(k).join(v);
    if (p.includes('<')) p = p.slice(0, p.indexOf('<')).replace(/[^/]*$/, '');
    found.add(p);
  }
  return [...found].sort();
}
const missing = (paths: string[]) => paths.filter((p) => !existsSync(path.join(ROOT, p)));

/** The `### ...` or `## ...` section of the guide that starts with `heading`, to the next heading of its level. */
function section(heading: string): string {
  const start = doc.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const rest = doc.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`\\n${heading.match(/^#+/)![0]} `));
  return end < 0 ? rest : rest.slice(0, end);
}

/** The fields of CheckSpec, the type defineCheck takes, as the compiler sees them: required and optional. */
function specFields(): { required: string[]; optional: string[] } {
  const file = path.join(ROOT, 'src', 'check', 'check.ts');
  const program = ts.createProgram([file], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, noEmit: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const alias = source.statements.find((s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === 'CheckSpec');
  expect(alias, 'src/check/check.ts declares CheckSpec').toBeDefined();
  const props = checker.getPropertiesOfType(checker.getTypeAtLocation(alias!.name));
  const optional = (p: ts.Symbol) => (p.flags & ts.SymbolFlags.Optional) !== 0;
  return { required: props.filter((p) => !optional(p)).map((p) => p.name).sort(), optional: props.filter(optional).map((p) => p.name).sort() };
}

/** The GWC_ variables read by the tree's code and tests (any file but Markdown). */
function variablesRead(): Set<string> {
  const out = new Set<string>();
  const walk = (dir: string): void => {
    for (const e of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (/\.(ts|mjs|js|cjs|sh|yml)$|^run$/.test(e.name) && statSync(path.join(ROOT, rel)).size < 1_000_000)
        for (const m of readFileSync(path.join(ROOT, rel), 'utf8').matchAll(/GWC_[A-Z0-9_]+/g)) out.add(m[0]);
    }
  };
  for (const d of ['src', 'suites', 'mocks', 'reference', 'bench', 'scripts', 'test', 'bin', '.ci']) walk(d);
  for (const f of ['vitest.config.ts', 'action.yml', 'package.json']) for (const m of readFileSync(path.join(ROOT, f), 'utf8').matchAll(/GWC_[A-Z0-9_]+/g)) out.add(m[0]);
  return out;
}

describe('CONTRIBUTING names what is there', () => {
  it('every repository path it names exists', () => {
    const paths = pathsIn(doc);
    expect(paths.length).toBeGreaterThan(50);
    expect(missing(paths)).toEqual([]);
  });

  it('the path scan finds a path that is not there, fills placeholders and leaves globs and build output', () => {
    expect(missing(pathsIn('see `src/core/no-such.ts`, `suites/<area>/<id>.ts` and test/helpers/lane.ts.'))).toEqual(['src/core/no-such.ts']);
    expect(pathsIn('`suites/<area>/<id>.ts`')).toEqual(['suites/messages/messages.headers.version.ts']);
    expect(pathsIn('`test/helpers/self-costs*.ts`, `examples/haproxy/expected{,-streaming}.json`, `dist/src/cli.js`, /usr/bin/time')).toEqual(['examples/haproxy/', 'test/helpers/']);
  });

  it('every `npm run` script it names is in package.json', () => {
    const scripts = Object.keys((JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    const named = [...new Set([...doc.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]))];
    expect(named).toContain('baselines:update');
    expect(named.filter((s) => !scripts.includes(s))).toEqual([]);
  });

  it('every GWC_ variable it names is read by the code or the tests', () => {
    const read = variablesRead();
    const named = [...new Set([...doc.matchAll(/GWC_[A-Z0-9_]+/g)].map((m) => m[0]))];
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((v) => !read.has(v))).toEqual([]);
  });
});

describe('CONTRIBUTING states the schedule the config has', () => {
  const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
  const said = (pattern: RegExp) => {
    const m = pattern.exec(doc);
    expect(m, String(pattern)).not.toBeNull();
    return WORDS.indexOf(m![1]);
  };

  it('the worker pool, the matrix\'s parts and the timing lane', () => {
    const workers = Number(/const WORKERS = (\d+);/.exec(readFileSync(path.join(ROOT, 'vitest.config.ts'), 'utf8'))?.[1]);
    expect(said(/one pool of (\w+) worker processes/)).toBe(workers);
    expect(said(/the detection matrix's (\w+) files/)).toBe(PARTS);
    expect(said(/timing lane\*\* while it runs \((\w+) at once/)).toBe(LANES.timing);
  });
});

describe('"How to add a check" is the way a check is added', () => {
  const howTo = section('## How to add a check');
  const steps = [...howTo.matchAll(/^(\d+)\. \*\*([^*]+)\*\*: ([^]*?)(?=^\d+\. |(?![^]))/gm)];

  it('each step is a file, and the files it names exist', () => {
    expect(steps.map((s) => Number(s[1]))).toEqual(steps.map((_, i) => i + 1));
    expect(steps.length).toBeGreaterThanOrEqual(6);
    for (const [, n, name, body] of steps) {
      const files = pathsIn(body);
      expect(files.length, `step ${n} (${name}) names a file`).toBeGreaterThan(0);
      expect(missing(files), `step ${n} (${name})`).toEqual([]);
    }
  });

  it('lists exactly the fields of defineCheck\'s spec, the required ones as always', () => {
    /** The fields a bullet of step 2 names, what its parentheses say left out. */
    const list = (label: string) => {
      const line = new RegExp(`\\n\\s*- ${label}: ([^]*?)(?:\\n\\s*- |\\n\\n)`).exec(howTo);
      expect(line, `"${label}:" line`).not.toBeNull();
      return [...line![1].replace(/\([^)]*\)/g, '').matchAll(/`(\w+)`/g)].map((m) => m[1]).sort();
    };
    const { required, optional } = specFields();
    expect(required).toContain('run');
    expect(list('always')).toEqual(required);
    expect(list('when they apply')).toEqual(optional);
  });

  it('the checks, faults and rows it describes are laid out so: a check per file of its area, a fault file and a row file per area', () => {
    const areas = readdirSync(path.join(ROOT, 'suites'), { withFileTypes: true }).filter((d) => d.isDirectory() && d.name !== 'shared').map((d) => d.name);
    for (const a of areas) expect(existsSync(path.join(ROOT, 'suites', a, 'index.ts')), `suites/${a}/index.ts`).toBe(true);
    const faultFiles = readdirSync(path.join(ROOT, 'reference', 'faults')).filter((f) => f.endsWith('.ts') && !['index.ts', 'types.ts', 'routes.ts'].includes(f));
    for (const f of faultFiles) expect(existsSync(path.join(ROOT, 'test', 'detection', f.replace(/\.ts$/, '.json'))), `test/detection/ row file of reference/faults/${f}`).toBe(true);
  });
});
