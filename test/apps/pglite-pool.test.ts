// The PGlite pool of the apps detection matrix (test/helpers/pglite-pool.ts): a database given
// back after rows in every table and a session's leftovers (settings, a temporary table, a
// prepared statement, a channel, an advisory lock) is taken again as fresh as one from the
// template; what emptying does not undo (a table of its own, a row in the migrations' record, a
// column added) makes take() throw, naming it; a run's handle answers nothing once given back.
import { afterAll, describe, expect, it } from 'vitest';
import { openEmbeddedFromTemplate } from '../../reference/apps/store.js';
import { PglitePool, stateOf } from '../helpers/pglite-pool.js';

/** One row in each of the gateway's tables (reference/apps/migrations), as a run leaves them. */
const ROWS = [
  `INSERT INTO devices (device_code, user_code, expires_at) VALUES ('d', 'u', 1)`,
  `INSERT INTO refresh_tokens (token_hash, sid, claims, created_at) VALUES ('h', 's', '{}', 1)`,
  `INSERT INTO revoked_sessions (sid, revoked_at) VALUES ('s', 1)`,
  `INSERT INTO spend_limits (id, user_id, amount_cents, period, created_at) VALUES ('l', 'u', 1, 'daily', 1)`,
  `INSERT INTO spend (principal, period_key, cents) VALUES ('p', 'k', 1)`,
  `INSERT INTO spend_records (request_id, principal, model, input_tokens, output_tokens, cache_creation_tokens, cache_read_tokens, estimated, cents, at) VALUES ('r', 'p', 'm', 1, 1, 0, 0, false, 1, 1)`,
];

describe('PGlite pool', () => {
  const pool = new PglitePool();
  afterAll(() => pool.close());

  it('hands a database given back with rows and session leftovers out again as fresh as one from the template', async () => {
    const first = await pool.take();
    // Each leftover shows in the state read (so it is one the comparison would catch).
    for (const sql of [...ROWS, "SET statement_timeout = '1234'", 'SET search_path = pg_catalog, public', 'CREATE TEMP TABLE scratch (x int)', 'PREPARE p1 AS SELECT 1', 'LISTEN gwc_channel', 'SELECT pg_advisory_lock(42)']) {
      const before = await stateOf(first);
      await first.query(sql);
      expect(await stateOf(first), sql).not.toBe(before);
    }
    const dirty = await stateOf(first);
    await first.close();
    await expect(first.query('SELECT 1')).rejects.toThrow(/given back/);

    const again = await pool.take();
    expect(pool.counts).toEqual({ opened: 1, reused: 1 });
    const fresh = await openEmbeddedFromTemplate();
    try {
      const want = await stateOf(fresh);
      expect(await stateOf(again)).toBe(want);
      expect(dirty).not.toBe(want);
      // The state read shows the gateway's tables and the migrations applied.
      expect(want).toContain('spend_records');
      expect(want).toContain('001_init.sql');
    } finally {
      await fresh.close();
    }
    await again.close();
  });

  it('refuses to hand out a database that emptying did not make fresh, naming what differs', async () => {
    const db = await pool.take();
    await db.query('CREATE TABLE left_behind (x int)');
    await db.close();
    await expect(pool.take()).rejects.toThrow(/not as fresh.*relations.*left_behind/);
    const other = await pool.take();
    await other.query("INSERT INTO schema_migrations (name, applied_at) VALUES ('999_extra.sql', 1)");
    await other.close();
    await expect(pool.take()).rejects.toThrow(/not as fresh.*rows public\.schema_migrations/);
    const third = await pool.take();
    await third.query('ALTER TABLE spend ADD COLUMN extra int');
    await third.close();
    await expect(pool.take()).rejects.toThrow(/not as fresh.*columns.*extra/);
  });
});
