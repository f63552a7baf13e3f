// The template the apps reference's in-memory databases are loaded from (openEmbeddedFromTemplate):
// databases opened while no cached dump exists yet, several at once in this process and in two
// other processes at once, all have one state, the migrations' applied_at and the session's
// settings included. (The PGlite pool of the apps matrix refuses a database whose state differs
// from the first one it opened; a CI run beside two CPU hogs had each of six runs opening at once
// make and place its own dump, and every later run of the matrix was refused.)
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openEmbeddedFromTemplate, type Db } from '../../reference/apps/store.js';
import { fileURLToPath } from 'node:url';
import { stateOf } from '../helpers/pglite-pool.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];
const freshDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'gwc-template-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const MIGRATIONS = 'SELECT name, applied_at FROM schema_migrations ORDER BY 1';

/** The migrations' record of a database opened from the template by another process whose temporary directory is `dir` (the built store, as an installed package has it). */
function childRecord(dir: string): Promise<string> {
  const code = `import(${JSON.stringify(join(ROOT, 'dist', 'reference', 'apps', 'store.js'))}).then(async (m) => { const db = await m.openEmbeddedFromTemplate(); process.stdout.write(JSON.stringify((await db.query(${JSON.stringify(MIGRATIONS)})).rows)); await db.close(); })`;
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['-e', code], { env: { ...process.env, TMPDIR: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (b: Buffer) => (out += b));
    p.stderr.on('data', (b: Buffer) => (err += b));
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`child exited ${code}: ${err.slice(0, 500)}`))));
  });
}

describe('the apps store template', () => {
  it('gives databases opened at once, while no dump is cached, one state; and one opened afterwards the same', async () => {
    const cacheDir = freshDir();
    const first = await Promise.all([1, 2, 3].map(() => openEmbeddedFromTemplate({ cacheDir })));
    const later = await openEmbeddedFromTemplate({ cacheDir });
    const all: Db[] = [...first, later];
    try {
      const states = await Promise.all(all.map((db) => stateOf(db)));
      for (const s of states.slice(1)) expect(s).toBe(states[0]);
      expect(states[0]).toContain('002_spend_records.sql');
      expect(readdirSync(cacheDir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    } finally {
      await Promise.all(all.map((db) => db.close()));
    }
  });

  it('gives two processes that open one at once, while no dump is cached, the same migrations record, and this process too', async () => {
    const dir = freshDir();
    const [a, b] = await Promise.all([childRecord(dir), childRecord(dir)]);
    expect(JSON.parse(a)).toHaveLength(2);
    expect(b).toBe(a);
    const here = await openEmbeddedFromTemplate({ cacheDir: dir });
    try {
      expect(JSON.stringify((await here.query(MIGRATIONS)).rows)).toBe(a);
    } finally {
      await here.close();
    }
  });
});
