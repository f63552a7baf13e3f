// The apps profile against the reference apps gateway on a real PostgreSQL (Debian's
// postgresql, started here on loopback in a temporary cluster), the gateway's restart included:
// every apps check passes, and the state is in PostgreSQL's tables. Runs when PostgreSQL's
// binaries are installed; GWC_REQUIRE_POSTGRES=1 (set by .ci/run) makes their absence a failure.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { runAppsDemo } from '../../cli/main.js';
import { resolveConfig } from '../../src/config/config.js';

const BIN = process.env.GWC_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const have = existsSync(join(BIN, 'initdb')) && existsSync(join(BIN, 'pg_ctl'));
if (process.env.GWC_REQUIRE_POSTGRES === '1' && !have) throw new Error(`GWC_REQUIRE_POSTGRES=1 but no PostgreSQL binaries in ${BIN}`);

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe.runIf(have)('apps profile on a real PostgreSQL', () => {
  let dir = '';
  let port = 0;
  // initdb refuses to run as root: the cluster belongs to the postgres user when we are root.
  const asPg = (cmd: string, args: string[]) => execFileSync(process.getuid?.() === 0 ? 'runuser' : cmd, process.getuid?.() === 0 ? ['-u', 'postgres', '--', cmd, ...args] : args, { stdio: 'pipe' });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gwc-pg-'));
    if (process.getuid?.() === 0) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), Number(execFileSync('id', ['-g', 'postgres']).toString().trim()));
    port = await freePort();
    asPg(join(BIN, 'initdb'), ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres']);
    asPg(join(BIN, 'pg_ctl'), ['-D', join(dir, 'data'), '-l', join(dir, 'log'), '-o', `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir}`, '-w', 'start']);
    const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
    await admin.connect();
    await admin.query('CREATE DATABASE gateway');
    await admin.end();
  }, 60_000);

  afterAll(() => {
    if (dir && existsSync(join(dir, 'data', 'postmaster.pid'))) asPg(join(BIN, 'pg_ctl'), ['-D', join(dir, 'data'), '-m', 'fast', '-w', 'stop']);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('passes every apps check, restart included, with the state in PostgreSQL', async () => {
    const url = `postgres://postgres@127.0.0.1:${port}/gateway`;
    const r = await runAppsDemo(resolveConfig({ seed: '1', reporter: ['json'], profile: 'apps' }, {}, {}), undefined, () => {}, { postgresUrl: url });
    expect(r.results.filter((x) => x.outcome !== 'pass').map((x) => `${x.id}: ${x.outcome}: ${x.message}`)).toEqual([]);
    expect(r.results.find((x) => x.id === 'apps.spend.restart')?.outcome).toBe('pass');
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      expect((await c.query('SELECT name FROM schema_migrations')).rows.map((x) => x.name)).toEqual(['001_init.sql', '002_spend_records.sql']);
      expect((await c.query("SELECT amount_cents, period FROM spend_limits WHERE user_id = 'user-dave'")).rows).toEqual([{ amount_cents: '1', period: 'daily' }]);
      expect(Number((await c.query("SELECT max(cents) AS c FROM spend WHERE principal = 'user-dave'")).rows[0].c)).toBeGreaterThan(1);
      // The spend records keep the counts the upstream reported, and mark the one estimate (a request whose answer reported no usage).
      const records = (await c.query("SELECT input_tokens, cache_read_tokens, estimated FROM spend_records WHERE principal = 'user-alice' ORDER BY at")).rows;
      expect(records.filter((x) => x.estimated).length).toBe(1);
      expect(records).toContainEqual({ input_tokens: '1237', cache_read_tokens: '4409', estimated: false });
    } finally {
      await c.end();
    }
  }, 90_000);
});
