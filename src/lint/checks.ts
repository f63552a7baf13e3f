// The rules beyond the schema, per dialect: secrets, references, URLs, spend settings and the
// extra CFG-X rules. Messages name keys and upstream labels, never a value that could be a secret.
import { hasRef, type RawFinding } from './schema.js';
import type { KeyPath } from './source.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const obj = (v: unknown): Obj => (isObj(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const show = (p: KeyPath) => `\`${p.reduce<string>((s, x) => (typeof x === 'number' ? `${s}[${x}]` : s ? `${s}.${x}` : x), '')}\``;

/** The whole value is one reference: `${VAR}` or `${file:/path}`. */
const isWholeRef = (s: string) => /^\$\{(\w+|file:[^}]+)\}$/.test(s.trim());

/** Strings that read as a credential: well-known token shapes, or long random-looking text. */
export function looksSecret(s: string): boolean {
  const v = s.trim();
  if (/^(sk-|sk_|pk_|rk_|ghp_|gho_|github_pat_|xox[abpr]-|AKIA|ASIA|AIza|ya29\.|eyJ)/.test(v)) return true;
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(v)) return true;
  if (/^(bearer|basic|token)\s+\S{8,}$/i.test(v)) return true;
  if (/^[a-z]+:\/\/[^/\s:@]*:[^@\s]+@/i.test(v)) return true; // user:password@ in a URL
  if (v.length < 20 || /\s/.test(v)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((r) => r.test(v)).length;
  return classes >= 3 && new Set(v).size >= 12;
}

/** A literal secret: no reference at all, or references beside text that itself reads as a secret. */
function literalSecret(v: unknown): boolean {
  if (typeof v !== 'string' || v.length === 0) return false;
  if (isWholeRef(v)) return false;
  if (hasRef(v)) return looksSecret(v.replace(/\$\{(\w+|file:[^}]+)\}/g, '').replace(/^(bearer|basic|token)\s*$/i, ''));
  return true;
}

const SENSITIVE_HEADER = /^(authorization|proxy-authorization|cookie)$|api[-_]?key|token|secret|password|credential|signature/i;

function headerSecret(name: string, v: unknown): boolean {
  if (typeof v !== 'string') return false;
  if (SENSITIVE_HEADER.test(name)) return literalSecret(v);
  return !hasRef(v) && looksSecret(v);
}

function urlOf(s: unknown): URL | undefined {
  return typeof s === 'string' && !hasRef(s) && URL.canParse(s) ? new URL(s) : undefined;
}
const bareHost = (u: URL) => u.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
export function isLoopback(u: URL): boolean {
  const h = bareHost(u);
  return h === 'localhost' || h.endsWith('.localhost') || /^127\./.test(h) || h === '::1' || /^::ffff:(127\.|7f)/.test(h);
}
export function isMetadata(u: URL): boolean {
  const h = bareHost(u);
  return /^169\.254\./.test(h) || h === 'metadata.google.internal' || h === 'metadata' || /^fd00:ec2::/.test(h) || h === '100.100.100.200';
}
const hostIsLoopback = (h: string) => isLoopback(new URL(`http://${h.includes(':') && !h.startsWith('[') ? `[${h}]` : h}`));

class Collector {
  readonly out: RawFinding[] = [];
  add(rule: string, path: KeyPath, message: string, hint: string) {
    this.out.push({ rule, path, message, hint });
  }
}

// ---------------------------------------------------------------- shared URL rules

function publicUrl(c: Collector, path: KeyPath, v: unknown) {
  if (typeof v !== 'string' || hasRef(v)) return;
  const u = urlOf(v);
  if (!u) return c.add('CFG-URL-2', path, `${show(path)} is not an absolute URL: user devices need the full https:// address`, 'write the externally reachable origin, e.g. https://claude-gateway.corp.example');
  const h = bareHost(u);
  if (isLoopback(u) || h === '0.0.0.0' || h === '::') return c.add('CFG-URL-2', path, `${show(path)} is a loopback, localhost or unspecified address: user devices cannot reach it`, 'use the hostname users reach on the controlled network (VPN, private DNS)');
  if (u.protocol !== 'https:') c.add('CFG-URL-2', path, `${show(path)} is not https: sign-in redirects and bearer tokens would travel in clear text`, 'serve the gateway over https and write the https:// address');
}

function issuer(c: Collector, path: KeyPath, v: unknown) {
  const u = urlOf(v);
  if (!u) return;
  if (isLoopback(u) || isMetadata(u)) c.add('CFG-X-2', path, `${show(path)} is a loopback or cloud-metadata address, which the gateway refuses to fetch`, 'use the identity provider\'s real issuer URL (loopback is for local tests only, with CLAUDE_GATEWAY_ALLOW_LOOPBACK=1)');
  else if (u.protocol !== 'https:') c.add('CFG-X-1', path, `${show(path)} is not https: the sign-in and its tokens can be intercepted`, 'use the https:// issuer URL of the identity provider');
}

function telemetryUrl(c: Collector, path: KeyPath, v: unknown) {
  const u = urlOf(v);
  if (!u) return;
  if (isMetadata(u) || isLoopback(u)) c.add('CFG-X-2', path, `${show(path)} is a loopback or cloud-metadata address, which the gateway refuses to export to`, 'point it at the collector\'s network address (a loopback sidecar needs CLAUDE_GATEWAY_ALLOW_LOOPBACK=1)');
  else if (u.protocol !== 'https:') c.add('CFG-X-3', path, `${show(path)} is not https: telemetry carries user identities`, 'export over https://');
}

function duplicateNames(c: Collector, names: Array<{ name: string; path: KeyPath }>) {
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n.name)) c.add('CFG-REF-1', n.path, `upstream name \`${n.name}\` is declared twice, so references to it are ambiguous`, 'give each upstream a distinct `name:`');
    seen.add(n.name);
  }
}

function groupsVsAllowed(c: Collector, allowedPath: KeyPath, allowed: unknown, used: Array<{ group: string; path: KeyPath }>) {
  if (!Array.isArray(allowed) || used.length === 0) return;
  const set = new Set(allowed.filter((g): g is string => typeof g === 'string').map((g) => g.trim()).filter(Boolean));
  if (set.size === 0) {
    c.add('CFG-X-6', allowedPath, `${show(allowedPath)} is an empty list while ${show(used[0].path)} routes by group: the list names no group that may sign in`, 'list the groups that may sign in, or remove the key to let every authenticated user in');
    return;
  }
  for (const u of used)
    if (!set.has(u.group)) c.add('CFG-X-7', u.path, `group \`${u.group}\` is not in ${show(allowedPath)}: its members cannot sign in, so this never applies`, `add \`${u.group}\` to ${show(allowedPath)} or remove it here`);
}

// ---------------------------------------------------------------- outline (interface document 2.7)

/** Literal-secret keys of the outline: reported by CFG-SECRET-1, not as unknown keys. */
export function outlineSecretKey(path: KeyPath): string | undefined {
  const p = path.map(String);
  if (p.length === 3 && p[0] === 'auth' && p[1] === 'oidc' && p[2] === 'client_secret') return 'client_secret_env';
  if (p.length === 3 && p[0] === 'database' && /^(url|dsn|password)$/.test(p[2])) return 'url_env';
  if (p.length === 3 && p[0] === 'upstreams' && /^(api_key|auth_token|key|token)$/.test(p[2])) return p[2] === 'auth_token' || p[2] === 'token' ? 'auth_token_env' : 'api_key_env';
  if (p.length === 3 && p[0] === 'telemetry' && p[1] === 'otlp' && p[2] === 'headers') return 'headers_env';
  return undefined;
}

export function outlineChecks(data: unknown): RawFinding[] {
  const c = new Collector();
  const root = obj(data);
  const server = obj(root.server);
  const oidc = obj(obj(root.auth).oidc);

  // CFG-SECRET-1: literal secrets where the outline wants *_env names; *_env holding a secret.
  const literal = (path: KeyPath, what: string) => {
    const env = outlineSecretKey(path)!;
    c.add('CFG-SECRET-1', path, `${show(path)} holds ${what} in plaintext; name an environment variable (${env}) instead`, `move the value into the environment and write \`${env}: VARIABLE_NAME\``);
  };
  if ('client_secret' in oidc) literal(['auth', 'oidc', 'client_secret'], 'the OIDC client secret');
  for (const [engine, conf] of Object.entries(obj(root.database)))
    for (const k of ['url', 'dsn', 'password'])
      if (k in obj(conf)) {
        const inline = typeof obj(conf)[k] === 'string' && /^[a-z]+:\/\/[^/\s:@]*:[^@\s]+@/i.test(obj(conf)[k] as string);
        literal(['database', engine, k], inline ? 'a database URL with an inline password' : 'the database URL');
      }
  list(root.upstreams).forEach((u, i) => {
    for (const k of ['api_key', 'auth_token', 'key', 'token']) if (k in obj(u)) literal(['upstreams', i, k], 'an upstream credential');
  });
  if ('headers' in obj(obj(root.telemetry).otlp)) literal(['telemetry', 'otlp', 'headers'], 'telemetry export headers');
  const envNames: Array<[KeyPath, unknown]> = [
    [['auth', 'oidc', 'client_secret_env'], oidc.client_secret_env],
    [['telemetry', 'otlp', 'headers_env'], obj(obj(root.telemetry).otlp).headers_env],
    ...Object.entries(obj(root.database)).map(([e, v]): [KeyPath, unknown] => [['database', e, 'url_env'], obj(v).url_env]),
    ...list(root.upstreams).flatMap((u, i): Array<[KeyPath, unknown]> => [
      [['upstreams', i, 'api_key_env'], obj(u).api_key_env],
      [['upstreams', i, 'auth_token_env'], obj(u).auth_token_env],
    ]),
  ];
  for (const [path, v] of envNames)
    if (typeof v === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(v) && looksSecret(v))
      c.add('CFG-SECRET-1', path, `${show(path)} looks like the secret itself, not the name of an environment variable`, 'put the secret in the environment and write the variable\'s name here');

  // CFG-REF-1: routing names declared upstreams.
  const names = list(root.upstreams).flatMap((u, i) => (typeof obj(u).name === 'string' ? [{ name: obj(u).name as string, path: ['upstreams', i, 'name'] as KeyPath }] : []));
  duplicateNames(c, names);
  const known = new Set(names.map((n) => n.name));
  const routing = obj(root.routing);
  const ref = (path: KeyPath, v: unknown) => {
    if (typeof v === 'string' && !known.has(v)) c.add('CFG-REF-1', path, `${show(path)} names upstream \`${v}\`, which is not declared in \`upstreams\``, known.size ? `use one of: ${[...known].join(', ')}` : 'declare the upstream under `upstreams`');
  };
  ref(['routing', 'default_upstream'], routing.default_upstream);
  list(routing.rules).forEach((r, i) => ref(['routing', 'rules', i, 'upstream'], obj(r).upstream));

  // CFG-URL-1: a messages upstream's base_url is the host root.
  list(root.upstreams).forEach((u, i) => {
    const url = urlOf(obj(u).base_url);
    if (obj(u).type === 'messages' && url && /\/v1\/?$/.test(url.pathname))
      c.add('CFG-URL-1', ['upstreams', i, 'base_url'], `${show(['upstreams', i, 'base_url'])} ends in /v1: a messages upstream's base URL is the host root (the gateway appends /v1/messages)`, 'remove the trailing /v1');
  });

  // CFG-URL-2, CFG-X-1..3
  publicUrl(c, ['server', 'public_url'], server.public_url);
  issuer(c, ['auth', 'oidc', 'issuer_url'], oidc.issuer_url);
  telemetryUrl(c, ['telemetry', 'otlp', 'endpoint'], obj(obj(root.telemetry).otlp).endpoint);

  // CFG-X-6, CFG-X-7: group routing against allowed_groups.
  const used = list(routing.rules).flatMap((r, i) => (typeof obj(r).group === 'string' ? [{ group: obj(r).group as string, path: ['routing', 'rules', i, 'group'] as KeyPath }] : []));
  groupsVsAllowed(c, ['auth', 'oidc', 'allowed_groups'], oidc.allowed_groups, used);
  return c.out;
}

// ---------------------------------------------------------------- claude-apps-gateway (public schema)

const PROTOCOL_PARAMS = ['redirect_uri', 'state', 'nonce', 'code_challenge', 'code_challenge_method', 'scope', 'response_type', 'response_mode', 'client_id'];
const UPSTREAM_SECRETS = ['api_key', 'oauth_token', 'aws_secret_access_key', 'aws_session_token', 'aws_bearer_token', 'access_token', 'service_account_json'];
const MESSAGES_PROVIDERS = new Set(['anthropic', 'anthropicAws']);

export function publicChecks(data: unknown): RawFinding[] {
  const c = new Collector();
  const root = obj(data);
  const listen = obj(root.listen);
  const oidc = obj(root.oidc);
  const session = obj(root.session);
  const store = obj(root.store);
  const upstreams = list(root.upstreams);
  const telemetry = obj(root.telemetry);
  const managed = obj(root.managed);
  const admin = root.admin;

  // CFG-SECRET-1
  const secret = (path: KeyPath, v: unknown, what: string) => {
    if (literalSecret(v))
      c.add('CFG-SECRET-1', path, `${show(path)} holds ${what} in plaintext; reference it as \${VAR} or \${file:/path} instead`, `move the value into the environment (or a mounted file) and write \`\${${envGuess(path)}}\``);
  };
  secret(['oidc', 'client_secret'], oidc.client_secret, 'the OIDC client secret');
  secret(['oidc', 'client_assertion', 'private_key_pem'], obj(oidc.client_assertion).private_key_pem, 'a private key');
  if (Array.isArray(session.jwt_secret)) session.jwt_secret.forEach((s, i) => secret(['session', 'jwt_secret', i], s, 'a session signing secret'));
  else secret(['session', 'jwt_secret'], session.jwt_secret, 'the session signing secret');
  secret(['store', 'password'], store.password, 'the database password');
  const pg = str(store.postgres_url);
  if (pg && /^[a-z]+:\/\/[^/\s:@]*:([^@\s]+)@/i.test(pg)) {
    const password = /^[a-z]+:\/\/[^/\s:@]*:([^@\s]+)@/i.exec(pg)![1];
    if (!isWholeRef(password)) c.add('CFG-SECRET-1', ['store', 'postgres_url'], '`store.postgres_url` carries an inline password', 'reference the whole URL as ${DATABASE_URL}, or the password alone: postgres://user:${PGPASSWORD}@host/db');
  }
  upstreams.forEach((u, i) => {
    const auth = obj(obj(u).auth);
    for (const k of UPSTREAM_SECRETS) secret(['upstreams', i, 'auth', k], auth[k], 'an upstream credential');
    for (const [h, v] of Object.entries(obj(obj(u).headers)))
      if (headerSecret(h, v)) c.add('CFG-SECRET-1', ['upstreams', i, 'headers', h], `${show(['upstreams', i, 'headers', h])} holds a credential in plaintext`, 'reference it as ${VAR}, e.g. "Bearer ${UPSTREAM_TOKEN}"');
  });
  list(telemetry.forward_to).forEach((t, i) => {
    for (const [h, v] of Object.entries(obj(obj(t).headers)))
      if (headerSecret(h, v)) c.add('CFG-SECRET-1', ['telemetry', 'forward_to', i, 'headers', h], `${show(['telemetry', 'forward_to', i, 'headers', h])} holds a credential in plaintext`, 'reference it as ${VAR}, e.g. "Bearer ${OTLP_TOKEN}"');
    secret(['telemetry', 'forward_to', i, 'auth', 'google', 'service_account_json'], obj(obj(obj(t).auth).google).service_account_json, 'a service-account key');
  });
  for (const kind of ['read_keys', 'write_keys'])
    list(obj(admin)[kind]).forEach((k, i) => secret(['admin', kind, i, 'key'], obj(k).key, 'an Admin API key'));
  walkStrings(data, [], (path, v) => {
    const m = /\$\{file:([^}]+)\}/.exec(v);
    if (m && !m[1].startsWith('/')) c.add('CFG-SECRET-1', path, `${show(path)} reads a secret from a relative \${file:} path, which the gateway refuses`, 'write the absolute path of the mounted secret file');
  });

  // CFG-REF-1
  const names = upstreams.flatMap((u, i) => {
    const n = str(obj(u).name) ?? str(obj(u).provider);
    return n ? [{ name: n, path: ['upstreams', i, obj(u).name === undefined ? 'provider' : 'name'] as KeyPath }] : [];
  });
  duplicateNames(c, names);
  const known = new Set(names.map((n) => n.name));
  const upstreamRef = (path: KeyPath, v: string) => {
    if (!known.has(v)) c.add('CFG-REF-1', path, `${show(path)} names upstream \`${v}\`, which is not declared in \`upstreams\``, known.size ? `use one of: ${[...known].join(', ')}` : 'declare the upstream');
  };
  list(root.models).forEach((m, i) => Object.keys(obj(obj(m).upstream_model)).forEach((k) => upstreamRef(['models', i, 'upstream_model', k], k)));
  list(obj(root.pricing).overrides).forEach((o, i) => typeof obj(o).upstream === 'string' && upstreamRef(['pricing', 'overrides', i, 'upstream'], obj(o).upstream as string));
  if (root.auto_include_builtin_models === false) {
    const declared = new Set(list(root.models).map((m) => obj(m).id).filter((x): x is string => typeof x === 'string'));
    const modelRef = (path: KeyPath, v: unknown) => {
      if (typeof v === 'string' && !declared.has(v))
        c.add('CFG-REF-1', path, `${show(path)} names model \`${v}\`, which is not declared in \`models\` (auto_include_builtin_models is false)`, declared.size ? `use one of: ${[...declared].join(', ')}` : 'declare the model under `models`');
    };
    list(managed.policies).forEach((p, i) => {
      for (const block of ['cli', 'code', 'settings']) {
        const s = obj(obj(p)[block]);
        list(s.availableModels).forEach((m, j) => modelRef(['managed', 'policies', i, block, 'availableModels', j], m));
        modelRef(['managed', 'policies', i, block, 'model'], s.model);
      }
    });
    upstreams.forEach((u, i) => list(obj(u).models).forEach((m, j) => modelRef(['upstreams', i, 'models', j], m)));
  }

  // CFG-URL-1
  upstreams.forEach((u, i) => {
    const url = urlOf(obj(u).base_url);
    if (MESSAGES_PROVIDERS.has(String(obj(u).provider)) && url && /\/v1\/?$/.test(url.pathname))
      c.add('CFG-URL-1', ['upstreams', i, 'base_url'], `${show(['upstreams', i, 'base_url'])} ends in /v1: a messages upstream's base URL is the host root (the gateway appends /v1/messages)`, 'remove the trailing /v1');
  });
  // CFG-X-2: the gateway refuses to forward to a loopback or metadata upstream (outside tests).
  upstreams.forEach((u, i) => {
    const url = urlOf(obj(u).base_url);
    if (url && (isLoopback(url) || isMetadata(url)))
      c.add('CFG-X-2', ['upstreams', i, 'base_url'], `${show(['upstreams', i, 'base_url'])} is a loopback or cloud-metadata address, which the gateway refuses to forward to`, 'use the upstream\'s network address (a loopback upstream is for local tests only, with CLAUDE_GATEWAY_ALLOW_LOOPBACK=1)');
  });

  // CFG-URL-2 and the public-URL requirement of the gateway itself
  publicUrl(c, ['listen', 'public_url'], listen.public_url);
  const host = str(listen.host) ?? '0.0.0.0';
  if (isObj(root.listen) && listen.public_url === undefined && !hasRef(host) && !hostIsLoopbackSafe(host))
    c.add('CFG-SCHEMA-1', ['listen', 'public_url'], '`listen.public_url` is required when `listen.host` is not a loopback address', 'set it to the externally visible origin, e.g. https://claude-gateway.corp.example');

  // oidc: client authentication and scopes, as the gateway requires them
  if (isObj(root.oidc)) {
    const pkjwt = oidc.token_endpoint_auth_method === 'private_key_jwt';
    if (!pkjwt && oidc.client_secret === undefined) c.add('CFG-SCHEMA-1', ['oidc', 'client_secret'], '`oidc.client_secret` is required (or token_endpoint_auth_method: private_key_jwt with a client_assertion block)', 'add client_secret: ${OIDC_CLIENT_SECRET}');
    if (!pkjwt && oidc.client_assertion !== undefined) c.add('CFG-SCHEMA-1', ['oidc', 'client_assertion'], '`oidc.client_assertion` is only used with token_endpoint_auth_method: private_key_jwt', 'set token_endpoint_auth_method: private_key_jwt or remove the block');
    if (pkjwt && oidc.client_secret !== undefined) c.add('CFG-SCHEMA-1', ['oidc', 'client_secret'], '`oidc.client_secret` must be removed with token_endpoint_auth_method: private_key_jwt', 'remove client_secret');
    if (pkjwt && oidc.client_assertion === undefined) c.add('CFG-SCHEMA-1', ['oidc', 'client_assertion'], '`oidc.client_assertion` is required with token_endpoint_auth_method: private_key_jwt', 'add client_assertion with private_key_pem and certificate_pem');
    if (Array.isArray(oidc.scopes) && !oidc.scopes.includes('openid')) c.add('CFG-SCHEMA-1', ['oidc', 'scopes'], '`oidc.scopes` must include openid: without it the identity provider returns no id_token', 'add openid to the list');
    const managedParams = Object.keys(obj(oidc.extra_auth_params)).filter((k) => PROTOCOL_PARAMS.includes(k));
    if (managedParams.length)
      c.add('CFG-SCHEMA-1', ['oidc', 'extra_auth_params', managedParams[0]], `\`oidc.extra_auth_params\` must not set ${managedParams.join(', ')}: the gateway manages these protocol parameters`, 'remove it (use oidc.scopes for scopes)');
    if (Array.isArray(oidc.allowed_groups) && oidc.allowed_groups.length > 0 && oidc.allowed_groups.every((g) => typeof g === 'string' && !g.trim()))
      c.add('CFG-SCHEMA-1', ['oidc', 'allowed_groups'], '`oidc.allowed_groups` contains only empty entries', 'list group names or remove the key');
  }
  upstreams.forEach((u, i) => {
    const auth = obj(obj(u).auth);
    if (['bedrock', 'mantle', 'anthropicAws'].includes(String(obj(u).provider)) && (auth.aws_access_key_id === undefined) !== (auth.aws_secret_access_key === undefined))
      c.add('CFG-SCHEMA-1', ['upstreams', i, 'auth'], `${show(['upstreams', i, 'auth'])}: aws_access_key_id and aws_secret_access_key must be set together`, 'set both, or neither to use the ambient AWS credentials');
  });

  // CFG-SPEND-1: enforcement and pricing only act with an admin block
  if (obj(root.enforcement).fail_closed_on_error === true && admin === undefined)
    c.add('CFG-SPEND-1', ['enforcement', 'fail_closed_on_error'], '`enforcement.fail_closed_on_error` has no effect without an `admin:` block: spend enforcement only runs when admin is configured', 'add the admin block, or remove enforcement');
  if (root.pricing !== undefined && admin === undefined && list(managed.policies).length === 0)
    c.add('CFG-SPEND-1', ['pricing'], '`pricing` has no effect without an `admin:` block or a managed policy', 'add the admin block, or remove pricing');
  if (obj(admin).pooled_conflict_rule === 'priority_list' && list(obj(admin).pooled_priority_order).length === 0)
    c.add('CFG-SPEND-1', ['admin', 'pooled_conflict_rule'], '`admin.pooled_conflict_rule: priority_list` needs at least one group in `admin.pooled_priority_order`', 'list the groups in priority order');

  // CFG-X-1..3: URLs the gateway fetches
  issuer(c, ['oidc', 'issuer'], oidc.issuer);
  if (oidc.discovery_url !== undefined) {
    const u = urlOf(oidc.discovery_url);
    if (u && (isLoopback(u) || isMetadata(u))) c.add('CFG-X-2', ['oidc', 'discovery_url'], '`oidc.discovery_url` is a loopback or cloud-metadata address, which the gateway refuses to fetch', 'use the identity provider\'s discovery document URL');
  }
  list(telemetry.forward_to).forEach((t, i) => telemetryUrl(c, ['telemetry', 'forward_to', i, 'url'], obj(t).url));

  // CFG-X-4, CFG-X-5: session lifetime
  const ttlRaw = session.ttl_hours;
  if (ttlRaw !== undefined && !(typeof ttlRaw === 'string' && hasRef(ttlRaw)) && !isObj(ttlRaw) && !Array.isArray(ttlRaw)) {
    const ttl = Number(ttlRaw);
    if (!Number.isNaN(ttl) && ttl <= 0) c.add('CFG-X-4', ['session', 'ttl_hours'], '`session.ttl_hours` is not greater than zero: every session token would be born expired', 'use a positive number of hours (the default is 1)');
    else if (ttl > 24) c.add('CFG-X-5', ['session', 'ttl_hours'], '`session.ttl_hours` is over 24: a user removed from the identity provider keeps access that long', 'keep sessions short (the default is 1 hour); refresh tokens renew them');
  }

  // CFG-X-6, CFG-X-7
  const used = [
    ...upstreams.flatMap((u, i) => list(obj(u).groups).flatMap((g, j) => (typeof g === 'string' ? [{ group: g, path: ['upstreams', i, 'groups', j] as KeyPath }] : []))),
    ...list(managed.policies).flatMap((p, i) =>
      list(obj(obj(p).match).groups).flatMap((g, j) => (typeof g === 'string' ? [{ group: g, path: ['managed', 'policies', i, 'match', 'groups', j] as KeyPath }] : [])),
    ),
  ];
  groupsVsAllowed(c, ['oidc', 'allowed_groups'], oidc.allowed_groups, used);
  return c.out;
}

function hostIsLoopbackSafe(h: string): boolean {
  try {
    return hostIsLoopback(h);
  } catch {
    return false;
  }
}

function envGuess(path: KeyPath): string {
  const last = String([...path].reverse().find((p) => typeof p === 'string') ?? 'SECRET');
  const head = String(path[0]);
  return `${head === 'upstreams' ? 'UPSTREAM' : head.toUpperCase()}_${last.toUpperCase()}`.replace(/[^A-Z0-9_]/g, '_');
}

function walkStrings(v: unknown, path: (string | number)[], f: (path: KeyPath, s: string) => void) {
  if (typeof v === 'string') f(path, v);
  else if (Array.isArray(v)) v.forEach((x, i) => walkStrings(x, [...path, i], f));
  else if (isObj(v)) for (const [k, x] of Object.entries(v)) walkStrings(x, [...path, k], f);
}
