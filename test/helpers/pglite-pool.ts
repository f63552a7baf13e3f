// In-memory PGlite databases handed from one apps run to the next (the apps detection matrix): a
// run takes one, a database an earlier run gave back or a new one from the template
// (openEmbeddedFromTemplate), and gives it back by closing it. Given back, it is emptied: the
// session's leftovers undone (cursors, prepared statements, channels, advisory locks, temporary
// tables, settings: reset, then the ones PGlite sets for a fresh session, such as search_path,
// set again) and every table but schema_migrations truncated. Taken again,
// its whole state must equal that of a database fresh from the template, or take() throws: every
// relation of every schema with its columns, constraints and indexes, every function, every row
// of every table, the session's own settings, prepared statements, channels listened on and
// advisory locks. So a run starts from what a fresh database would give it, and one that does not
// is an error, never a verdict. Opening one from the template took 0.9 to 2.2 s of CPU here (a
// run's largest single cost); emptying and comparing take about 0.3 s.
// A database given back answers no more queries through the handle its run had (as a closed one
// would), so a stopped gateway's late query cannot land in the next run's store.
import { openEmbeddedFromTemplate, type Db } from '../../reference/apps/store.js';

const USER_SCHEMAS = `n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'`;

/** The tables of the user schemas, as quoted names. */
async function tables(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ t: string }>(
    `SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE ${USER_SCHEMAS} AND c.relkind IN ('r', 'p') ORDER BY 1`,
  );
  return rows.map((r) => r.t);
}

/** Everything of the database a gateway could tell apart, as one text (equal texts: the same state). */
export async function stateOf(db: Db): Promise<string> {
  const parts: Record<string, unknown> = {};
  const q = async (name: string, sql: string) => void (parts[name] = (await db.query(sql)).rows);
  await q('relations', `SELECT n.nspname, c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE ${USER_SCHEMAS} ORDER BY 1, 2`);
  await q('columns', `SELECT c.oid::regclass::text AS rel, a.attname, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull, pg_get_expr(d.adbin, d.adrelid) AS def FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum WHERE ${USER_SCHEMAS} AND a.attnum > 0 AND NOT a.attisdropped ORDER BY 1, 2`);
  await q('constraints', `SELECT c.conrelid::regclass::text AS rel, c.conname, pg_get_constraintdef(c.oid) AS def FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE ${USER_SCHEMAS} ORDER BY 1, 2`);
  await q('indexes', `SELECT schemaname, tablename, indexname, indexdef FROM pg_indexes WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2, 3`);
  await q('functions', `SELECT n.nspname, p.proname, pg_get_function_identity_arguments(p.oid) AS args FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE ${USER_SCHEMAS} ORDER BY 1, 2, 3`);
  await q('sequences', `SELECT schemaname, sequencename, last_value FROM pg_sequences ORDER BY 1, 2`);
  await q('settings', `SELECT name, setting, source FROM pg_settings WHERE source <> 'default' ORDER BY 1`);
  await q('role', `SELECT current_user, session_user`);
  await q('prepared', `SELECT name, statement FROM pg_prepared_statements ORDER BY 1`);
  await q('channels', `SELECT pg_listening_channels() AS channel ORDER BY 1`);
  await q('locks', `SELECT classid, objid, objsubid FROM pg_locks WHERE locktype = 'advisory' ORDER BY 1, 2, 3`);
  for (const t of await tables(db)) await q(`rows ${t}`, `SELECT coalesce(json_agg(x ORDER BY x::text), '[]')::text AS rows FROM ${t} x`);
  return JSON.stringify(parts);
}

/** The settings a fresh session has of its own (PGlite sets search_path), as set_config's arguments. */
type Settings = Array<{ name: string; setting: string }>;
const sessionSettings = async (db: Db): Promise<Settings> => (await db.query<{ name: string; setting: string }>(`SELECT name, setting FROM pg_settings WHERE source = 'session' ORDER BY 1`)).rows;

/**
 * Empties a database a run gave back: what DISCARD ALL undoes, but the settings reset to those of
 * a fresh session (`fresh`) rather than to the server's (which would leave search_path at
 * pg_catalog), and every table but the migrations' record truncated.
 */
async function empty(db: Db, fresh: Settings): Promise<void> {
  for (const sql of ['CLOSE ALL', 'RESET SESSION AUTHORIZATION', 'DEALLOCATE ALL', 'UNLISTEN *', 'SELECT pg_advisory_unlock_all()', 'DISCARD PLANS', 'DISCARD TEMP', 'DISCARD SEQUENCES', 'RESET ALL']) await db.query(sql);
  for (const s of fresh) await db.query('SELECT set_config($1, $2, false)', [s.name, s.setting]);
  const data = (await tables(db)).filter((t) => t !== 'public.schema_migrations');
  if (data.length) await db.query(`TRUNCATE TABLE ${data.join(', ')} RESTART IDENTITY`);
}

/** The first part in which two states (stateOf) differ, with what only the fresh one has and what only the other has, for the error. */
function firstDifference(want: string, got: string): string {
  const a = JSON.parse(want) as Record<string, unknown[]>;
  const b = JSON.parse(got) as Record<string, unknown[]>;
  const key = [...new Set([...Object.keys(a), ...Object.keys(b)])].find((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  if (key === undefined) return 'none found';
  const items = (x: unknown[] | undefined) => (x ?? []).map((v) => JSON.stringify(v));
  const [fa, fb] = [items(a[key]), items(b[key])];
  const only = (xs: string[], ys: string[]) => xs.filter((x) => !ys.includes(x)).join(', ').slice(0, 300) || 'nothing';
  return `${key}: only fresh has ${only(fa, fb)}; only the one given back has ${only(fb, fa)}`;
}

export class PglitePool {
  private readonly idle: Db[] = [];
  private readonly all: Db[] = [];
  /** The state of a database fresh from the template, and its session's own settings (read off the first one opened). */
  private fresh: { state: string; settings: Settings } | undefined;
  /** How many databases were opened from the template, and how many takes were served by one given back. */
  readonly counts = { opened: 0, reused: 0 };

  /** A database as fresh as one from the template, for one run; its close() gives it back. */
  async take(): Promise<Db> {
    let db = this.idle.pop();
    if (db) this.counts.reused++;
    else {
      db = await openEmbeddedFromTemplate();
      this.counts.opened++;
      this.all.push(db);
    }
    const state = await stateOf(db);
    this.fresh ??= { state, settings: await sessionSettings(db) };
    if (state !== this.fresh.state) throw new Error(`PGlite pool: a database given back is not as fresh as one from the template (${firstDifference(this.fresh.state, state)})`);
    return this.lease(db, this.fresh.settings);
  }

  /** Closes every database (after the last run gave its back). */
  async close(): Promise<void> {
    await Promise.all(this.all.map((d) => d.close()));
    this.all.length = 0;
    this.idle.length = 0;
  }

  private lease(db: Db, settings: Settings): Db {
    let open = true;
    return {
      kind: db.kind,
      query: <T>(sql: string, params?: unknown[]) => (open ? db.query<T>(sql, params) : Promise.reject(new Error('PGlite pool: this database was given back (closed)'))),
      close: async () => {
        if (!open) return;
        open = false;
        await empty(db, settings);
        this.idle.push(db);
      },
    };
  }
}
