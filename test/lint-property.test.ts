// Property-based: generated valid configurations (both dialects) lint clean, and one mutation
// per rule is caught by that rule, at the line of the key it is about.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { lintText } from '../src/lint/lint.js';
import type { Finding } from '../src/lint/rules.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const RUNS = { numRuns: 60 };

const label = fc.stringMatching(/^[a-z][a-z0-9]{1,10}$/);
const envVar = fc.stringMatching(/^[A-Z][A-Z0-9_]{2,15}$/).map((v) => `\${${v}}`);
const host = fc.tuple(label, fc.constantFrom('corp.example', 'internal.example', 'example.net')).map(([a, b]) => `${a}.${b}`);
const groupPool = ['platform', 'research', 'contractors', 'ml', 'support'];

const publicConfig: fc.Arbitrary<Obj> = fc
  .record({
    gwHost: host,
    port: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
    issuerHost: host,
    clientId: label,
    ttl: fc.option(fc.integer({ min: 1, max: 24 }), { nil: undefined }),
    secrets: fc.tuple(envVar, envVar, envVar),
    upstreams: fc.uniqueArray(
      fc.record({
        name: label,
        provider: fc.constantFrom('anthropic', 'bedrock'),
        key: envVar,
        region: fc.constantFrom('us-east-1', 'eu-west-1'),
        baseHost: fc.option(host, { nil: undefined }),
        groups: fc.option(fc.subarray(groupPool, { minLength: 1 }), { nil: undefined }),
      }),
      { minLength: 1, maxLength: 4, selector: (u) => u.name },
    ),
    allowedAll: fc.boolean(),
    models: fc.array(fc.record({ id: label, pick: fc.nat() }), { maxLength: 3 }),
    telemetry: fc.option(fc.tuple(host, envVar), { nil: undefined }),
    admin: fc.boolean(),
  })
  .map((g) => {
    const used = [...new Set(g.upstreams.flatMap((u) => u.groups ?? []))];
    const cfg: Obj = {
      listen: { public_url: `https://${g.gwHost}`, ...(g.port !== undefined && { port: g.port }) },
      oidc: { issuer: `https://${g.issuerHost}`, client_id: g.clientId, client_secret: g.secrets[0], ...(!g.allowedAll && { allowed_groups: [...used, 'platform'] }) },
      session: { jwt_secret: g.secrets[1], ...(g.ttl !== undefined && { ttl_hours: g.ttl }) },
      store: { postgres_url: g.secrets[2] },
      upstreams: g.upstreams.map((u) =>
        u.provider === 'anthropic'
          ? { name: u.name, provider: 'anthropic', auth: { api_key: u.key }, ...(u.baseHost && { base_url: `https://${u.baseHost}` }), ...(u.groups && { groups: u.groups }) }
          : { name: u.name, provider: 'bedrock', region: u.region, auth: {}, ...(u.groups && { groups: u.groups }) },
      ),
    };
    if (g.models.length) cfg.models = g.models.map((m) => ({ id: m.id, upstream_model: { [g.upstreams[m.pick % g.upstreams.length].name]: m.id } }));
    if (g.telemetry) cfg.telemetry = { forward_to: [{ url: `https://${g.telemetry[0]}:4318`, headers: { authorization: `Bearer ${g.telemetry[1]}` } }] };
    if (g.admin) {
      cfg.admin = { admin_groups: ['platform'] };
      cfg.enforcement = { fail_closed_on_error: true };
      cfg.pricing = { multiplier: 1 };
    }
    return cfg;
  });

const outlineConfig: fc.Arbitrary<Obj> = fc
  .record({
    gwHost: host,
    issuerHost: host,
    clientId: label,
    upstreams: fc.uniqueArray(fc.record({ name: label, host, type: fc.constantFrom('messages', 'native', 'compatible'), token: fc.boolean() }), { minLength: 1, maxLength: 4, selector: (u) => u.name }),
    rules: fc.array(fc.record({ group: fc.constantFrom(...groupPool), pick: fc.nat() }), { maxLength: 3 }),
    daily: fc.double({ min: 0, max: 1000, noNaN: true }),
    monthly: fc.integer({ min: 0, max: 100000 }),
    action: fc.constantFrom('deny', 'warn', 'log'),
  })
  .map((g) => ({
    server: { listen: '0.0.0.0:8443', public_url: `https://${g.gwHost}` },
    auth: { oidc: { issuer_url: `https://${g.issuerHost}`, client_id: g.clientId, client_secret_env: 'OIDC_CLIENT_SECRET', allowed_groups: [...new Set(['platform', ...g.rules.map((r) => r.group)])] } },
    database: { postgres: { url_env: 'DATABASE_URL' } },
    upstreams: g.upstreams.map((u) => ({ name: u.name, type: u.type, base_url: `https://${u.host}`, ...(u.token ? { auth_token_env: 'UPSTREAM_TOKEN' } : { api_key_env: 'UPSTREAM_KEY' }) })),
    routing: { default_upstream: g.upstreams[0].name, rules: g.rules.map((r) => ({ group: r.group, upstream: g.upstreams[r.pick % g.upstreams.length].name })) },
    spend_limits: { defaults: { user_daily_usd: g.daily, team_monthly_usd: g.monthly, on_exceeded: g.action } },
  }));

const lint = (cfg: Obj) => {
  const text = stringify(cfg);
  return { text, findings: lintText('gen.yaml', text).findings };
};

/** The finding of `rule` exists, and its line holds the last key of `path` (or the list item). */
function caught(cfg: Obj, rule: string, path: string) {
  const { text, findings } = lint(cfg);
  const f = findings.find((x: Finding) => x.rule === rule && x.path === path);
  expect(f, `${rule} at ${path} in\n${text}\nfindings: ${JSON.stringify(findings)}`).toBeDefined();
  const lastKey = path.replace(/\[\d+\]$/, '').split('.').pop()!;
  const line = text.split('\n')[f!.line - 1];
  if (!/\[\d+\]$/.test(path)) expect(line.slice(f!.column - 1).startsWith(lastKey), `${line} @${f!.column}`).toBe(true);
}

const clone = (o: Obj): Obj => structuredClone(o);

describe('lint-config, property-based', () => {
  it('generated valid claude-apps-gateway configurations lint clean', () => {
    fc.assert(fc.property(publicConfig, (cfg) => {
      expect(lint(cfg).findings).toEqual([]);
    }), RUNS);
  });

  it('generated valid outline configurations lint clean', () => {
    fc.assert(fc.property(outlineConfig, (cfg) => {
      expect(lint(cfg).findings).toEqual([]);
    }), RUNS);
  });

  const literal = fc.stringMatching(/^[A-Za-z0-9+/_.-]{8,40}$/);

  const publicMutations: Array<[string, fc.Arbitrary<(c: Obj) => string>]> = [
    ['CFG-SCHEMA-1', fc.constantFrom('clientid', 'client_idd', 'clent_id').map((k) => (c: Obj) => ((c.oidc[k] = c.oidc.client_id), delete c.oidc.client_id, `oidc.${k}`))],
    ['CFG-SECRET-1', literal.map((s) => (c: Obj) => ((c.oidc.client_secret = s), 'oidc.client_secret'))],
    ['CFG-REF-1', label.map((n) => (c: Obj) => ((c.models = [{ id: 'm', upstream_model: { [`${n}-missing`]: 'm' } }]), `models[0].upstream_model.${n}-missing`))],
    ['CFG-URL-1', host.map((h) => (c: Obj) => ((c.upstreams[0] = { name: 'msgs', provider: 'anthropic', auth: { api_key: '${K}' }, base_url: `https://${h}/v1` }), 'upstreams[0].base_url'))],
    ['CFG-URL-2', fc.constantFrom('http://localhost:8080', 'https://127.0.0.1', 'http://gw.corp.example', 'https://[::1]:8443').map((u) => (c: Obj) => ((c.listen.public_url = u), 'listen.public_url'))],
    ['CFG-SPEND-1', fc.constantFrom(0, -1, -0.5, 11).map((m) => (c: Obj) => ((c.admin = {}), (c.pricing = { multiplier: m }), 'pricing.multiplier'))],
    ['CFG-X-1', host.map((h) => (c: Obj) => ((c.oidc.issuer = `http://${h}`), 'oidc.issuer'))],
    ['CFG-X-2', fc.constantFrom('http://127.0.0.1:4318', 'http://localhost:4318', 'http://169.254.169.254/').map((u) => (c: Obj) => ((c.telemetry = { forward_to: [{ url: u }] }), 'telemetry.forward_to[0].url'))],
    ['CFG-X-3', host.map((h) => (c: Obj) => ((c.telemetry = { forward_to: [{ url: `http://${h}:4318` }] }), 'telemetry.forward_to[0].url'))],
    ['CFG-X-4', fc.constantFrom(0, -1, -24).map((t) => (c: Obj) => ((c.session.ttl_hours = t), 'session.ttl_hours'))],
    ['CFG-X-5', fc.integer({ min: 25, max: 10000 }).map((t) => (c: Obj) => ((c.session.ttl_hours = t), 'session.ttl_hours'))],
    ['CFG-X-6', fc.constant((c: Obj) => ((c.oidc.allowed_groups = []), (c.upstreams[0].groups = ['research']), 'oidc.allowed_groups'))],
    ['CFG-X-7', fc.constant((c: Obj) => ((c.oidc.allowed_groups = ['platform']), (c.upstreams[0].groups = ['outsiders']), 'upstreams[0].groups[0]'))],
  ];
  for (const [rule, mutation] of publicMutations)
    it(`claude-apps-gateway: a ${rule} mutation of a valid configuration is caught`, () => {
      fc.assert(
        fc.property(publicConfig, mutation, (cfg, mutate) => {
          const c = clone(cfg);
          caught(c, rule, mutate(c));
        }),
        { numRuns: 25 },
      );
    });

  const outlineMutations: Array<[string, fc.Arbitrary<(c: Obj) => string>]> = [
    ['CFG-SCHEMA-1', fc.constantFrom('issuer', 'issuer_uri', 'issuerurl').map((k) => (c: Obj) => ((c.auth.oidc[k] = c.auth.oidc.issuer_url), delete c.auth.oidc.issuer_url, `auth.oidc.${k}`))],
    ['CFG-SECRET-1', literal.map((s) => (c: Obj) => ((c.upstreams[0].api_key = s), 'upstreams[0].api_key'))],
    ['CFG-REF-1', label.map((n) => (c: Obj) => ((c.routing.default_upstream = `${n}-missing`), 'routing.default_upstream'))],
    ['CFG-URL-1', host.map((h) => (c: Obj) => ((c.upstreams[0].type = 'messages'), (c.upstreams[0].base_url = `https://${h}/v1/`), 'upstreams[0].base_url'))],
    ['CFG-URL-2', fc.constantFrom('http://localhost', 'https://127.0.0.2:8443', 'http://apps.corp.example').map((u) => (c: Obj) => ((c.server.public_url = u), 'server.public_url'))],
    ['CFG-SPEND-1', fc.double({ min: -1e6, max: -0.01, noNaN: true }).map((v) => (c: Obj) => ((c.spend_limits.defaults.team_monthly_usd = v), 'spend_limits.defaults.team_monthly_usd'))],
  ];
  for (const [rule, mutation] of outlineMutations)
    it(`outline: a ${rule} mutation of a valid configuration is caught`, () => {
      fc.assert(
        fc.property(outlineConfig, mutation, (cfg, mutate) => {
          const c = clone(cfg);
          caught(c, rule, mutate(c));
        }),
        { numRuns: 25 },
      );
    });
});
