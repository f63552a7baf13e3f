// The house rules of the tree: imports run one way, checked by dependency-cruiser
// with .dependency-cruiser.cjs; every check file is registered; every check's id is its file name.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../suites/index.js';
import { ROOT } from './helpers/cli.js';

describe('architecture', () => {
  it('imports run one way: no cycles, src/ stands alone, no area imports another', () => {
    const r = spawnSync(join(ROOT, 'node_modules/.bin/depcruise'), ['src', 'mocks', 'reference', 'suites', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], { cwd: ROOT, encoding: 'utf8' });
    expect(`${r.stdout}${r.stderr}`).toMatch(/no dependency violations found/);
    expect(r.status).toBe(0);
  });

  it('the rules catch each kind of breach (a rule that cannot fail proves nothing)', () => {
    // A small tree with one breach of each rule, cruised with the project's configuration.
    const dir = mkdtempSync(join(tmpdir(), 'gwc-rules-'));
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }),
      'src/core/a.ts': "import { b } from '../../mocks/upstream/b.js';\nexport const a = b;\n",
      'mocks/upstream/b.ts': 'export const b = 1;\n',
      'suites/chat/c.ts': "import { d } from '../native/d.js';\nexport const c = d;\n",
      'suites/native/d.ts': "import { e } from '../shared/e.js';\nexport const d = e;\n",
      'suites/shared/e.ts': "import { f } from '../messages/f.js';\nexport const e = f;\n",
      'suites/messages/f.ts': "import { g } from './g.js';\nexport const f = g;\n",
      'suites/messages/g.ts': "import { f } from './f.js';\nexport const g = () => f;\n",
    };
    for (const [f, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, f)), { recursive: true });
      writeFileSync(join(dir, f), text);
    }
    const r = spawnSync(join(ROOT, 'node_modules/.bin/depcruise'), ['src', 'mocks', 'suites', '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'err'], { cwd: dir, encoding: 'utf8' });
    const out = `${r.stdout}${r.stderr}`;
    expect(r.status).not.toBe(0);
    for (const rule of ['src-stands-alone', 'no-cross-area-suite-imports', 'shared-suite-layer-imports-no-area', 'no-cycles']) expect(out, rule).toContain(rule);
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
