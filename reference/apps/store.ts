// Storage of the reference apps gateway through one narrow interface, `query(sql, params)`,
// which `pg`'s Pool and PGlite both offer: a real PostgreSQL when the configuration names one
// (`store.postgres_url`), an embedded PGlite otherwise (in memory, or in a data directory so
// that state survives a restart). The schema comes from the SQL migrations beside this file.
// Both drivers are optional packages, imported when a store of their kind opens.
import { createHash } from 'node:crypto';
import { existsSync, linkSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importOptional, installedVersion } from '../../src/core/optional.js';
import { rootPath } from '../../src/core/paths.js';

export interface Db {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  close(): Promise<void>;
  readonly kind: 'postgres' | 'pglite';
}

function migrationsDir(): string {
  const here = fileURLToPath(new URL('./migrations/', import.meta.url));
  return existsSync(here) ? here : rootPath('reference', 'apps', 'migrations');
}

/** Applies the migrations not applied yet, in file-name order, each once. */
export async function migrate(db: Db): Promise<string[]> {
  await db.query('CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)');
  const done = new Set((await db.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name));
  const dir = migrationsDir();
  const applied: string[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.sql')).sort()) {
    if (done.has(name)) continue;
    const sql = readFileSync(join(dir, name), 'utf8');
    for (const stmt of sql.split(/;\s*(?:\n|$)/).map((s) => s.replace(/^\s*--.*$/gm, '').trim()).filter(Boolean)) await db.query(stmt);
    await db.query('INSERT INTO schema_migrations (name, applied_at) VALUES ($1, $2)', [name, Date.now()]);
    applied.push(name);
  }
  return applied;
}

/** Opens the store: PostgreSQL at `postgresUrl`, else PGlite in `dataDir` (in memory without one). */
export async function openStore(opts: { postgresUrl?: string; dataDir?: string }): Promise<Db> {
  let db: Db;
  if (opts.postgresUrl) {
    const { default: pg } = await importOptional('postgres', () => import('pg'));
    const pool = new pg.Pool({ connectionString: opts.postgresUrl, max: 5, connectionTimeoutMillis: 5000 });
    db = {
      kind: 'postgres',
      query: async <T>(sql: string, params?: unknown[]) => ({ rows: (await pool.query(sql, params)).rows as T[] }),
      close: () => pool.end(),
    };
  } else {
    const { PGlite } = await importOptional('apps', () => import('@electric-sql/pglite'));
    const lite = opts.dataDir ? new PGlite(opts.dataDir) : new PGlite();
    db = {
      kind: 'pglite',
      query: async <T>(sql: string, params?: unknown[]) => ({ rows: (await lite.query<T>(sql, params)).rows }),
      close: () => lite.close(),
    };
  }
  await migrate(db);
  return db;
}

/** The dump of the empty, migrated database, by cache file: one making of it per process. */
const templates = new Map<string, Promise<Blob>>();

/**
 * The template's dump at `cache`, made there first if no process has made it yet. The cache is
 * placed by a hard link, which fails when the file is there already: the first dump placed stays
 * and every database, in every process, loads that one. (Placed by a rename, each process that
 * found no cache replaced the last one's, and databases loaded before and after differed in the
 * migrations' applied_at; a database made by initdb also differs in its settings from one
 * loaded from a dump.)
 */
async function templateDump(cache: string): Promise<Blob> {
  if (existsSync(cache)) return new Blob([readFileSync(cache)]);
  const { PGlite } = await importOptional('apps', () => import('@electric-sql/pglite'));
  const lite = await PGlite.create();
  try {
    await migrate({ kind: 'pglite', query: async <T>(sql: string, params?: unknown[]) => ({ rows: (await lite.query<T>(sql, params)).rows }), close: () => lite.close() });
    const blob = await lite.dumpDataDir('gzip');
    const tmp = `${cache}.${process.pid}.tmp`;
    writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
    try {
      linkSync(tmp, cache);
    } catch (e) {
      // EEXIST: another process placed its dump first, and that one is used. A file system
      // without hard links falls back to a rename (the race above returns there).
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' && !existsSync(cache)) renameSync(tmp, cache);
    } finally {
      rmSync(tmp, { force: true });
    }
  } finally {
    await lite.close();
  }
  return new Blob([readFileSync(cache)]);
}

/**
 * An in-memory PGlite with the migrations applied, loaded from a cached dump of the empty,
 * migrated database (PGlite's initdb in WebAssembly takes seconds; loading its dump takes one).
 * The cache sits in the temporary directory (or `cacheDir`), keyed by the PGlite version and the
 * migrations; it holds no data, only the empty schema. Every database opened from one cache file
 * has the same state, the migrations' applied_at included.
 */
export async function openEmbeddedFromTemplate(opts: { cacheDir?: string } = {}): Promise<Db> {
  const { PGlite } = await importOptional('apps', () => import('@electric-sql/pglite'));
  const dir = migrationsDir();
  const hash = createHash('sha256');
  // The installed PGlite's version (an installed package has no lock file to read it from).
  hash.update(installedVersion('@electric-sql/pglite') ?? '');
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.sql')).sort()) hash.update(name).update(readFileSync(join(dir, name)));
  const cache = join(opts.cacheDir ?? tmpdir(), `gwc-pglite-template-${hash.digest('hex').slice(0, 16)}.tar.gz`);
  let dump = templates.get(cache);
  if (!dump) {
    dump = templateDump(cache);
    templates.set(cache, dump);
    dump.catch(() => templates.delete(cache));
  }
  const lite = await PGlite.create({ loadDataDir: await dump });
  const db: Db = { kind: 'pglite', query: async <T>(sql: string, params?: unknown[]) => ({ rows: (await lite.query<T>(sql, params)).rows }), close: () => lite.close() };
  await migrate(db);
  return db;
}
