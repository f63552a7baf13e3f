// The house rules of the tree: imports run one way, checked by dependency-cruiser with
// .dependency-cruiser.cjs (each rule proven to fire on a planted breach); every check file is
// registered; every check's id is its file name.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../suites/index.js';
import { ROOT } from '../helpers/cli.js';

const DEPCRUISE = join(ROOT, 'node_modules/.bin/depcruise');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const RULES: string[] = (createRequire(import.meta.url)(CONFIG) as { forbidden: { name: string }[] }).forbidden.map((r) => r.name);
/** The folders `npm run lint:imports` cruises (package.json holds them; this test reads them there). */
const CRUISED: string[] = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['lint:imports'].match(/depcruise ((?:[\w-]+ )+)--config/)![1].trim().split(' ');

/** One breach of each rule: the rule, and the import (from -> to) that breaks it (a CLI file planted here imports nothing, so no breach closes a cycle). */
const BREACHES: [rule: string, from: string, to: string][] = [
  ['no-cycles', 'suites/streaming/x.ts', 'suites/streaming/y.ts'],
  ['nothing-imports-the-cli', 'src/runner/a.ts', 'cli/keygen/action.ts'],
  ['nothing-imports-the-cli', 'suites/native/d.ts', 'cli/list/list.ts'],
  ['nothing-imports-the-cli', 'mocks/upstream/b.ts', 'cli/shared/usage.ts'],
  ['nothing-imports-the-cli', 'reference/apps/r.ts', 'cli/matrix/action.ts'],
  ['nothing-imports-the-cli', 'bench/z.ts', 'cli/compare/action.ts'],
  ['src-stands-alone', 'src/runner/a.ts', 'mocks/upstream/b.ts'],
  ['no-cross-area-suite-imports', 'suites/chat/c.ts', 'suites/native/d.ts'],
  ['shared-suite-layer-imports-no-area', 'suites/shared/e.ts', 'suites/messages/f.ts'],
  ['checks-see-the-upstream-interface-only', 'suites/errors/h.ts', 'reference/apps/r.ts'],
  ['mocks-and-reference-apart', 'mocks/oidc/i.ts', 'suites/shared/s.ts'],
  ['reference-not-mocks', 'reference/apps/r.ts', 'mocks/upstream/b.ts'],
  ['core-is-the-bottom', 'src/core/k.ts', 'src/client/l.ts'],
  ['client-and-upstream-below-the-checks', 'src/upstream/u.ts', 'src/check/ch.ts'],
  ['check-interface-below-the-runner', 'src/check/ch.ts', 'src/config/o.ts'],
  ['protocol-records-below-the-client', 'src/protocols/index.ts', 'src/config/o.ts'],
  ['protocol-records-below-the-client', 'src/protocols/chat/record.ts', 'src/upstream/u.ts'],
  ['upstream-data-below-the-protocols', 'src/upstream/scenario.ts', 'src/protocols/responses/index.ts'],
  ['protocols-through-their-index', 'suites/chat/c.ts', 'src/protocols/chat/replies.ts'],
  ['protocols-through-their-index', 'suites/native/d.ts', 'src/protocols/record.ts'],
  ['protocols-through-their-index', 'mocks/upstream/b.ts', 'src/protocols/translate.ts'],
  ['protocols-through-their-index', 'src/client/l.ts', 'src/protocols/registry.ts'],
  ['protocols-meet-through-their-index', 'src/protocols/vertex/record.ts', 'src/protocols/messages/replies.ts'],
  ['reports-see-no-run', 'src/reporters/j.ts', 'src/config/o.ts'],
  ['reports-see-no-run', 'src/report/run/t.ts', 'src/runner/q.ts'],
  ['reports-see-no-run', 'src/report/certify/z.ts', 'src/config/o.ts'],
  ['report-shared-below-its-parts', 'src/report/shared/s.ts', 'src/report/across-runs/m.ts'],
  ['lint-sees-no-reports', 'src/lint/f.ts', 'src/reporters/j.ts'],
  ['checks-see-no-run', 'suites/errors/h.ts', 'src/runner/q.ts'],
  ['checks-see-no-run', 'suites/chat/c.ts', 'src/report/run/t.ts'],
];

/** Imports the rules allow, beside the breaches: none of them may be reported. */
const ALLOWED: [from: string, to: string][] = [
  // Alone allowed; with x -> y above, a cycle (reported once, on the edge that closes it).
  ['suites/streaming/y.ts', 'suites/streaming/x.ts'],
  ['cli/main.ts', 'cli/program.ts'],
  ['cli/program.ts', 'cli/run/command.ts'],
  ['cli/run/command.ts', 'suites/native/d.ts'],
  ['cli/profiles/demo.ts', 'mocks/upstream/b.ts'],
  ['cli/profiles/demo.ts', 'reference/apps/r.ts'],
  ['cli/run/command.ts', 'src/runner/run.ts'],
  ['src/runner/run.ts', 'src/runner/q.ts'],
  ['bench/y.ts', 'src/runner/run.ts'],
  ['bench/y.ts', 'mocks/upstream/b.ts'],
  ['src/runner/q.ts', 'src/check/ch.ts'],
  ['src/check/ch.ts', 'src/client/l.ts'],
  ['src/check/ch.ts', 'src/core/k.ts'],
  ['src/client/l.ts', 'src/upstream/v.ts'],
  ['src/client/l.ts', 'src/protocols/index.ts'],
  ['src/protocols/index.ts', 'src/protocols/registry.ts'],
  ['src/protocols/index.ts', 'src/upstream/scenario.ts'],
  ['src/protocols/index.ts', 'src/core/names.ts'],
  ['src/protocols/registry.ts', 'src/protocols/chat/index.ts'],
  ['src/protocols/chat/index.ts', 'src/protocols/chat/replies.ts'],
  ['src/protocols/chat/record.ts', 'src/protocols/record.ts'],
  ['src/protocols/vertex/record.ts', 'src/protocols/messages/index.ts'],
  ['mocks/upstream/b.ts', 'src/protocols/index.ts'],
  ['suites/chat/c.ts', 'src/protocols/chat/index.ts'],
  ['src/reporters/j.ts', 'src/report/run/t.ts'],
  ['src/report/run/t.ts', 'src/report/shared/s.ts'],
  ['src/report/certify/z.ts', 'src/report/run/t.ts'],
  ['src/report/shared/s.ts', 'src/core/k.ts'],
  ['src/lint/f.ts', 'src/core/k.ts'],
  ['suites/native/d.ts', 'suites/shared/e.ts'],
  ['suites/native/d.ts', 'src/check/ch.ts'],
  ['suites/native/d.ts', 'src/upstream/v.ts'],
  ['mocks/upstream/b.ts', 'src/upstream/v.ts'],
  ['reference/apps/r.ts', 'src/client/l.ts'],
];

/** Writes a tree whose files import as the edges say, and cruises it with the project's rules. */
function cruise(edges: [string, string][]): { violations: string[]; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gwc-rules-'));
  const files = new Map<string, string[]>();
  for (const [from, to] of edges) {
    files.set(from, [...(files.get(from) ?? []), to]);
    if (!files.has(to)) files.set(to, []);
  }
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }));
  for (const [file, imports] of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    const lines = imports.map((to) => {
      const path = relative(dirname(file), to).replace(/\.ts$/, '.js');
      return `import '${path.startsWith('.') ? path : `./${path}`}';`;
    });
    writeFileSync(join(dir, file), `${lines.join('\n')}\nexport {};\n`);
  }
  // JSON names each breach's rule and both files (it exits 0 either way; the real tree's test reads the exit code).
  const r = spawnSync(DEPCRUISE, [...CRUISED, '--config', CONFIG, '--output-type', 'json'], { cwd: dir, encoding: 'utf8' });
  const report = JSON.parse(r.stdout) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
  return { violations: report.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort(), out: `${r.stdout.slice(0, 2000)}${r.stderr}` };
}

describe('architecture', () => {
  it('imports run one way in the real tree: no rule of .dependency-cruiser.cjs is broken', () => {
    const r = spawnSync(DEPCRUISE, [...CRUISED, '--config', CONFIG, '--output-type', 'err'], { cwd: ROOT, encoding: 'utf8' });
    expect(`${r.stdout}${r.stderr}`).toMatch(/no dependency violations found/);
    expect(r.status).toBe(0);
  });

  it('lint:imports cruises the CLI, the harness, its systems, the checks and the benchmarks', () => {
    expect([...CRUISED].sort()).toEqual(['bench', 'cli', 'mocks', 'reference', 'src', 'suites']);
  });

  it('no script imports the CLI: scripts/ read the built tree (dist/), which the cruise leaves out, so they are read here', () => {
    const naming = readdirSync(join(ROOT, 'scripts')).filter((f) => /\.m?js$/.test(f) && /dist\/cli\//.test(readFileSync(join(ROOT, 'scripts', f), 'utf8')));
    expect(naming).toEqual([]);
  });

  it('every rule has a planted breach here (a rule that cannot fail proves nothing)', () => {
    expect([...new Set(BREACHES.map(([rule]) => rule))].sort()).toEqual([...RULES].sort());
  });

  it('each planted breach is reported by its rule, and nothing else is', () => {
    const r = cruise([...BREACHES.map(([, from, to]): [string, string] => [from, to]), ...ALLOWED]);
    expect(r.violations, r.out).toEqual(BREACHES.map(([rule, from, to]) => `${rule}: ${from} -> ${to}`).sort());
  });

  it('a tree with only allowed imports passes', () => {
    const r = cruise(ALLOWED);
    expect(r.violations, r.out).toEqual([]);
  });

  it('every check file under suites/ is registered, and every registered check has its file', () => {
    const files: string[] = [];
    for (const area of readdirSync(join(ROOT, 'suites'), { withFileTypes: true })) {
      if (!area.isDirectory() || area.name === 'shared') continue;
      for (const f of readdirSync(join(ROOT, 'suites', area.name))) if (f.startsWith(`${area.name}.`) && f.endsWith('.ts')) files.push(f.replace(/\.ts$/, ''));
    }
    expect(files.length).toBeGreaterThan(0);
    expect(CHECKS.map((c) => c.id).sort()).toEqual(files.sort());
  });
});
