// The reference apps gateway's parts that the apps profile does not show on its own: the
// configuration's refusals, the migrations on PGlite, the spend windows' resets, the fault
// names' type, and the CLI's bad input (one line, exit 2).
import { describe, expect, it } from 'vitest';
import { parseAppsConfig } from '../../reference/apps/config.js';
import { migrate, openStore } from '../../reference/apps/store.js';
import { periodReset } from '../../reference/apps/gateway/spend.js';
import { APPS_FAULTS, appsFaultByName, type AppsFaultName } from '../../reference/apps/faults.js';
import { main } from '../../cli/main.js';

const minimal = (extra = '') => `listen: {host: 127.0.0.1, port: 0}
oidc:
  issuer: http://127.0.0.1:1
  client_id: c
  client_secret: \${S}
session:
  jwt_secret: \${J}
upstreams: [{name: a, provider: anthropic, base_url: "http://127.0.0.1:2/", auth: {api_key: k}}]
${extra}`;
const env = { S: 'secret', J: 'x'.repeat(32) };

describe('reference apps gateway configuration', () => {
  it('reads the public dialect, expanding ${VAR} references', () => {
    const c = parseAppsConfig(minimal(), env);
    expect(c.oidc.clientSecret).toBe('secret');
    expect(c.upstreams[0]).toMatchObject({ name: 'a', baseUrl: 'http://127.0.0.1:2' });
    expect(c.store.postgresUrl).toBeUndefined();
  });
  it('refuses an unset variable, a short session secret and a missing section, each in one line', () => {
    expect(() => parseAppsConfig(minimal(), { J: env.J })).toThrow(/undefined env var in config: S$/);
    expect(() => parseAppsConfig(minimal(), { ...env, J: 'short' })).toThrow(/jwt_secret: at least 32/);
    expect(() => parseAppsConfig('listen: {}\n', env)).toThrow(/oidc: expected a mapping/);
  });
});

describe('reference apps gateway store (PGlite)', () => {
  it('applies the migrations once and records them', async () => {
    const db = await openStore({});
    try {
      expect((await db.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name)).toEqual(['001_init.sql', '002_spend_records.sql']);
      expect(await migrate(db)).toEqual([]);
      await db.query('INSERT INTO spend (principal, period_key, cents) VALUES ($1, $2, $3)', ['u', 'd:2026-11-21', 1.5]);
      expect((await db.query<{ cents: number }>('SELECT cents FROM spend')).rows[0]?.cents).toBe(1.5);
    } finally {
      await db.close();
    }
  });
});

describe('spend windows', () => {
  it('resets at the next UTC day, Monday and month', () => {
    const now = new Date('2026-11-21T22:13:00Z'); // a Saturday
    expect(periodReset('daily', now).toISOString()).toBe('2026-11-22T00:00:00.000Z');
    expect(periodReset('weekly', now).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(periodReset('monthly', now).toISOString()).toBe('2026-12-01T00:00:00.000Z');
  });
});

describe('apps fault names', () => {
  // The type check (tsconfig.test.json) fails when the misspelt name below compiles.
  it('are a type: the listed names only', () => {
    const listed: AppsFaultName = 'apps-no-health';
    // @ts-expect-error a misspelt fault name is not an AppsFaultName
    const misspelt: AppsFaultName = 'apps-no-healht';
    expect(appsFaultByName(listed)).toBe(APPS_FAULTS.find((f) => f.name === 'apps-no-health'));
    expect(appsFaultByName(misspelt)).toBeUndefined();
    expect(new Set(APPS_FAULTS.map((f) => f.name)).size).toBe(APPS_FAULTS.length);
  });
});

describe('reference --apps bad input', () => {
  const io = () => {
    const err: string[] = [];
    return { err, io: { out: () => {}, err: (s: string) => err.push(s), env: {}, untilStopped: async () => {} } };
  };
  it('without --config: one line, exit 2', async () => {
    const t = io();
    expect(await main(['reference', '--apps'], t.io)).toBe(2);
    expect(t.err).toEqual(['gw-conformance: error GWC-BAD-FLAG: reference --apps needs --config <gateway.yaml>']);
  });
  it('an unreadable configuration: one line, exit 2', async () => {
    const t = io();
    expect(await main(['reference', '--apps', '--config', '/nonexistent/gateway.yaml'], t.io)).toBe(2);
    expect(t.err).toEqual(['gw-conformance: error GWC-BAD-CONFIG: cannot read /nonexistent/gateway.yaml: ENOENT']);
  });
});

describe('apps-config', () => {
  it('writes a public-dialect configuration the reference reads, with secrets as ${VAR} references', async () => {
    const out: string[] = [];
    const code = await main(['apps-config', '--port', '48080', '--postgres-url', 'postgres://postgres@127.0.0.1:55432/gateway'], { out: (s) => out.push(s), err: () => {}, env: {}, untilStopped: async () => {} });
    expect(code).toBe(0);
    const text = out.join('\n');
    expect(text).toContain('client_secret: ${GW_OIDC_SECRET}');
    expect(text).not.toMatch(/client_secret: (?!\$\{)/);
    const cfg = parseAppsConfig(text, { GW_OIDC_SECRET: 's', GW_JWT_SECRET: 'j'.repeat(32), GW_ADMIN_WRITE: 'a'.repeat(32), GW_UPSTREAM_KEY: 'k', GW_OTLP_TOKEN: 'o' });
    expect(cfg.listen.publicUrl).toBe('http://127.0.0.1:48080');
    expect(cfg.store.postgresUrl).toBe('postgres://postgres@127.0.0.1:55432/gateway');
    expect(cfg.upstreams.map((u) => u.name)).toEqual(['eng-up', 'haiku-up', 'default-up']);
  });
  it('a bad --postgres-url: one line, exit 2', async () => {
    const err: string[] = [];
    expect(await main(['apps-config', '--postgres-url', 'mysql://x'], { out: () => {}, err: (s) => err.push(s), env: {}, untilStopped: async () => {} })).toBe(2);
    expect(err).toEqual(['gw-conformance: error GWC-BAD-FLAG: --postgres-url: expected a postgres:// URL, got "mysql://x"']);
  });
});

describe('apps evidence', () => {
  it('masks tokens in bodies a gateway answers', async () => {
    const { maskTokens } = await import('../../suites/apps/common.js');
    const body = '{"access_token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.sig","refresh_token":"r-123","token_type":"Bearer"} also eyJa.eyJb.c';
    const masked = maskTokens(body);
    expect(masked).toBe('{"access_token":"***","refresh_token":"***","token_type":"Bearer"} also ***');
  });
});
