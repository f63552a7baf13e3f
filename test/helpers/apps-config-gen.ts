// Generators of apps gateway configurations for the property-based tests and the oracle test:
// valid configurations in both dialects, and one mutation per rule.
import fc from 'fast-check';

export type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const label = fc.stringMatching(/^[a-z][a-z0-9]{1,10}$/);
const anyEnvVar = fc.stringMatching(/^[A-Z][A-Z0-9_]{2,15}$/).map((v) => `\${${v}}`);
export const host = fc.tuple(label, fc.constantFrom('corp.example', 'internal.example', 'example.net')).map(([a, b]) => `${a}.${b}`);
const groupPool = ['platform', 'research', 'contractors', 'ml', 'support'];

/** `${NAME}` references: random names, or (for the real gateway, which needs them defined) the names of fixtures/apps-config/oracle-env.json. */
const ref = (fixed: string | undefined) => (fixed ? fc.constant(`\${${fixed}}`) : anyEnvVar);

export const publicConfig = (fixedEnv = false): fc.Arbitrary<Obj> => fc
  .record({
    gwHost: host,
    port: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
    issuerHost: host,
    clientId: label,
    ttl: fc.option(fc.integer({ min: 1, max: 24 }), { nil: undefined }),
    secrets: fc.tuple(ref(fixedEnv ? 'OIDC_CLIENT_SECRET' : undefined), ref(fixedEnv ? 'SESSION_SECRET' : undefined), ref(fixedEnv ? 'DATABASE_URL' : undefined)),
    upstreams: fc.uniqueArray(
      fc.record({
        name: label,
        provider: fc.constantFrom('anthropic', 'bedrock'),
        key: ref(fixedEnv ? 'ANTHROPIC_API_KEY' : undefined),
        region: fc.constantFrom('us-east-1', 'eu-west-1'),
        baseHost: fc.option(host, { nil: undefined }),
        groups: fc.option(fc.subarray(groupPool, { minLength: 1 }), { nil: undefined }),
      }),
      { minLength: 1, maxLength: 4, selector: (u) => u.name },
    ),
    allowedAll: fc.boolean(),
    models: fc.array(fc.record({ id: label, pick: fc.nat() }), { maxLength: 3 }),
    telemetry: fc.option(fc.tuple(host, ref(fixedEnv ? 'OTLP_TOKEN' : undefined)), { nil: undefined }),
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

export const outlineConfig: fc.Arbitrary<Obj> = fc
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


export const literal = fc.stringMatching(/^[A-Za-z0-9+/_.-]{8,40}$/);

/**
 * One mutation per rule of a valid claude-apps-gateway configuration: it sets the file up so that
 * `rule` reports the returned key path. `gateway` is what the real gateway says of the result
 * (test/real/clients/lint-oracle.test.ts checks it); `stricter` marks where lint-config fails a file the
 * gateway accepts: always (a MUST rule), or only under --strict (a SHOULD rule).
 */
export interface Mutation {
  rule: string;
  mutation: fc.Arbitrary<(c: Obj) => string>;
  gateway: 'valid' | 'invalid';
  stricter?: 'always' | 'strict';
}
export const PUBLIC_MUTATIONS: Mutation[] = [
  { rule: 'CFG-SCHEMA-1', mutation: fc.constantFrom('clientid', 'client_idd', 'clent_id').map((k) => (c: Obj) => ((c.oidc[k] = c.oidc.client_id), delete c.oidc.client_id, `oidc.${k}`)), gateway: 'invalid' },
  { rule: 'CFG-SECRET-1', mutation: literal.map((s) => (c: Obj) => ((c.oidc.client_secret = s), 'oidc.client_secret')), gateway: 'valid', stricter: 'always' },
  { rule: 'CFG-REF-1', mutation: label.map((n) => (c: Obj) => ((c.models = [{ id: 'm', upstream_model: { [`${n}-missing`]: 'm' } }]), `models[0].upstream_model.${n}-missing`)), gateway: 'invalid' },
  { rule: 'CFG-URL-1', mutation: host.map((h) => (c: Obj) => ((c.upstreams[0] = { name: c.upstreams[0].name, provider: 'anthropic', auth: { api_key: '${ANTHROPIC_API_KEY}' }, base_url: `https://${h}/v1`, ...(c.upstreams[0].groups && { groups: c.upstreams[0].groups }) }), 'upstreams[0].base_url')), gateway: 'valid', stricter: 'always' },
  { rule: 'CFG-URL-2', mutation: fc.constantFrom('http://localhost:8080', 'https://127.0.0.1', 'http://gw.corp.example', 'https://[::1]:8443').map((u) => (c: Obj) => ((c.listen.public_url = u), 'listen.public_url')), gateway: 'valid', stricter: 'strict' },
  { rule: 'CFG-SPEND-1', mutation: fc.constantFrom(0, -1, -0.5, 11).map((m) => (c: Obj) => ((c.admin = {}), (c.pricing = { multiplier: m }), 'pricing.multiplier')), gateway: 'invalid' },
  { rule: 'CFG-TLS-1', mutation: host.map((h) => (c: Obj) => ((c.oidc.issuer = `http://${h}`), 'oidc.issuer')), gateway: 'valid', stricter: 'strict' },
  { rule: 'CFG-SSRF-1', mutation: fc.constantFrom('http://127.0.0.1:4318', 'http://localhost:4318', 'http://169.254.169.254/').map((u) => (c: Obj) => ((c.telemetry = { forward_to: [{ url: u }] }), 'telemetry.forward_to[0].url')), gateway: 'invalid' },
  { rule: 'CFG-TLS-2', mutation: host.map((h) => (c: Obj) => ((c.telemetry = { forward_to: [{ url: `http://${h}:4318` }] }), 'telemetry.forward_to[0].url')), gateway: 'invalid' },
  { rule: 'CFG-SESSION-1', mutation: fc.constantFrom(0, -1, -24).map((t) => (c: Obj) => ((c.session.ttl_hours = t), 'session.ttl_hours')), gateway: 'valid', stricter: 'always' },
  { rule: 'CFG-SESSION-2', mutation: fc.integer({ min: 25, max: 10000 }).map((t) => (c: Obj) => ((c.session.ttl_hours = t), 'session.ttl_hours')), gateway: 'valid', stricter: 'strict' },
  { rule: 'CFG-GROUP-1', mutation: fc.constant((c: Obj) => ((c.oidc.allowed_groups = []), (c.upstreams[0].groups = ['research']), 'oidc.allowed_groups')), gateway: 'valid', stricter: 'always' },
  { rule: 'CFG-GROUP-2', mutation: fc.constant((c: Obj) => ((c.oidc.allowed_groups = ['platform']), (c.upstreams[0].groups = ['outsiders']), 'upstreams[0].groups[0]')), gateway: 'valid', stricter: 'strict' },
];
