// The test tree mirrors what it tests (test/README.md): every test file is in one of the listed
// folders, each unit folder names a source folder that exists, and the vitest projects are made
// from folders, not from lists of file names.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const TEST = join(ROOT, 'test');
/** The folders a test file may be in, and where each unit folder's sources are. */
const FOLDERS = ['cli', 'apps', 'docs', 'project', 'detection', 'load', 'timing'];
const REAL = ['nginx', 'haproxy', 'caddy', 'proxies', 'clients', 'mcp'];
const UNIT_SOURCES: Record<string, string> = { suites: 'suites', reference: 'reference', mocks: 'mocks' };
const unitSource = (folder: string) => UNIT_SOURCES[folder] ?? `src/${folder}`;

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return n === 'helpers' || n === 'fixtures' || n === 'schemas' ? [] : testFiles(p);
    return n.endsWith('.test.ts') ? [relative(TEST, p)] : [];
  });
}

/** Where a test file may be: null when it is in no folder of the tree. */
function placeOf(file: string): string | null {
  const [top, sub, ...rest] = file.split('/');
  if (FOLDERS.includes(top) && sub && !rest.length) return top;
  if (top === 'real' && REAL.includes(sub) && rest.length === 1) return `real/${sub}`;
  if (top === 'unit' && rest.length === 1 && existsSync(join(ROOT, unitSource(sub)))) return `unit/${sub}`;
  return null;
}

describe('the test tree', () => {
  it('every test file is in a folder of test/README.md, and every unit folder names a source folder', () => {
    const files = testFiles(TEST);
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((f) => placeOf(f) === null)).toEqual([]);
  });

  it('tells a file out of place (a test at the top, a unit folder of no source folder)', () => {
    expect(placeOf('mask.test.ts')).toBeNull();
    expect(placeOf('unit/nowhere/mask.test.ts')).toBeNull();
    expect(placeOf('real/varnish/varnish.test.ts')).toBeNull();
    expect(placeOf('unit/core/mask.test.ts')).toBe('unit/core');
  });

  it('the README lists every folder, and the vitest projects are made from folders', () => {
    const readme = readFileSync(join(TEST, 'README.md'), 'utf8');
    for (const f of [...FOLDERS, ...REAL.map((r) => `real/${r}`)]) expect(readme, f).toContain(`\`${f}`);
    const config = readFileSync(join(ROOT, 'vitest.config.ts'), 'utf8');
    const lists = [...config.matchAll(/^const (MATRIX|TIMING) = (\[.*\]);$/gm)].map((m) => m[2]);
    expect(lists).toHaveLength(2);
    for (const l of lists) expect(l, 'a project is a folder glob (test/<folder>/**/*.test.ts)').toMatch(/^\['test\/[a-z]+\/\*\*\/\*\.test\.ts'(, 'test\/[a-z]+\/\*\*\/\*\.test\.ts')*\]$/);
  });
});
