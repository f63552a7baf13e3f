// The rules beyond the schema for the claude-apps-gateway dialect (the public schema), one
// check per rule ID; checks.ts registers them. Messages name keys and upstream labels, never a
// value that could be a secret.
import { hasRef } from './schema.js';
import type { KeyPath } from './source.js';
import {
  clearTextUrl, duplicateNames, emptyAllowedGroups, groupsNotAllowed, headerSecret, hostIsLoopback, isObj, isWholeRef, list, literalSecret, obj,
  publicUrlProblems, refusedUrl, show, str, urlOf, walkStrings, type Obj, type Report, type RuleCheck, type UsedGroup,
} from './values.js';
import { speaksMessages } from './vocabulary.js';

const PROTOCOL_PARAMS = ['redirect_uri', 'state', 'nonce', 'code_challenge', 'code_challenge_method', 'scope', 'response_type', 'response_mode', 'client_id'];
const UPSTREAM_SECRETS = ['api_key', 'oauth_token', 'aws_secret_access_key', 'aws_session_token', 'aws_bearer_token', 'access_token', 'service_account_json'];

/** The environment variable a hint suggests for a secret at `path`. */
function envGuess(path: KeyPath): string {
  const last = String([...path].reverse().find((p) => typeof p === 'string') ?? 'SECRET');
  const head = String(path[0]);
  return `${head === 'upstreams' ? 'UPSTREAM' : head.toUpperCase()}_${last.toUpperCase()}`.replace(/[^A-Z0-9_]/g, '_');
}

/** CFG-SECRET-1: secrets are `${VAR}` or `${file:/abs/path}` references, not literals. */
const secrets: RuleCheck = (root, report) => {
  const oidc = obj(root.oidc);
  const session = obj(root.session);
  const secret = (path: KeyPath, v: unknown, what: string) => {
    if (literalSecret(v))
      report(path, `${show(path)} holds ${what} in plaintext; reference it as \${VAR} or \${file:/path} instead`, `move the value into the environment (or a mounted file) and write \`\${${envGuess(path)}}\``);
  };
  secret(['oidc', 'client_secret'], oidc.client_secret, 'the OIDC client secret');
  secret(['oidc', 'client_assertion', 'private_key_pem'], obj(oidc.client_assertion).private_key_pem, 'a private key');
  if (Array.isArray(session.jwt_secret)) session.jwt_secret.forEach((s, i) => secret(['session', 'jwt_secret', i], s, 'a session signing secret'));
  else secret(['session', 'jwt_secret'], session.jwt_secret, 'the session signing secret');
  secret(['store', 'password'], obj(root.store).password, 'the database password');
  const pg = str(obj(root.store).postgres_url);
  const password = pg === undefined ? undefined : /^[a-z]+:\/\/[^/\s:@]*:([^@\s]+)@/i.exec(pg)?.[1];
  if (password !== undefined && !isWholeRef(password))
    report(['store', 'postgres_url'], '`store.postgres_url` carries an inline password', 'reference the whole URL as ${DATABASE_URL}, or the password alone: postgres://user:${PGPASSWORD}@host/db');
  list(root.upstreams).forEach((u, i) => {
    const auth = obj(obj(u).auth);
    for (const k of UPSTREAM_SECRETS) secret(['upstreams', i, 'auth', k], auth[k], 'an upstream credential');
    for (const [h, v] of Object.entries(obj(obj(u).headers)))
      if (headerSecret(h, v)) report(['upstreams', i, 'headers', h], `${show(['upstreams', i, 'headers', h])} holds a credential in plaintext`, 'reference it as ${VAR}, e.g. "Bearer ${UPSTREAM_TOKEN}"');
  });
  list(obj(root.telemetry).forward_to).forEach((t, i) => {
    for (const [h, v] of Object.entries(obj(obj(t).headers)))
      if (headerSecret(h, v)) report(['telemetry', 'forward_to', i, 'headers', h], `${show(['telemetry', 'forward_to', i, 'headers', h])} holds a credential in plaintext`, 'reference it as ${VAR}, e.g. "Bearer ${OTLP_TOKEN}"');
    secret(['telemetry', 'forward_to', i, 'auth', 'google', 'service_account_json'], obj(obj(obj(t).auth).google).service_account_json, 'a service-account key');
  });
  for (const kind of ['read_keys', 'write_keys']) list(obj(root.admin)[kind]).forEach((k, i) => secret(['admin', kind, i, 'key'], obj(k).key, 'an Admin API key'));
  walkStrings(root, [], (path, v) => {
    const m = /\$\{file:([^}]+)\}/.exec(v);
    if (m && !m[1].startsWith('/')) report(path, `${show(path)} reads a secret from a relative \${file:} path, which the gateway refuses`, 'write the absolute path of the mounted secret file');
  });
};

/** CFG-REF-1: upstreams named by models and pricing are declared once; with built-in models off, models named are declared. */
const references: RuleCheck = (root, report) => {
  const names = list(root.upstreams).flatMap((u, i) => {
    const n = str(obj(u).name) ?? str(obj(u).provider);
    return n ? [{ name: n, path: ['upstreams', i, obj(u).name === undefined ? 'provider' : 'name'] as KeyPath }] : [];
  });
  duplicateNames(report, names);
  const known = new Set(names.map((n) => n.name));
  const upstreamRef = (path: KeyPath, v: string) => {
    if (!known.has(v)) report(path, `${show(path)} names upstream \`${v}\`, which is not declared in \`upstreams\``, known.size ? `use one of: ${[...known].join(', ')}` : 'declare the upstream');
  };
  list(root.models).forEach((m, i) => Object.keys(obj(obj(m).upstream_model)).forEach((k) => upstreamRef(['models', i, 'upstream_model', k], k)));
  list(obj(root.pricing).overrides).forEach((o, i) => typeof obj(o).upstream === 'string' && upstreamRef(['pricing', 'overrides', i, 'upstream'], obj(o).upstream as string));
  if (root.auto_include_builtin_models !== false) return;
  const declared = new Set(list(root.models).map((m) => obj(m).id).filter((x): x is string => typeof x === 'string'));
  const modelRef = (path: KeyPath, v: unknown) => {
    if (typeof v === 'string' && !declared.has(v))
      report(path, `${show(path)} names model \`${v}\`, which is not declared in \`models\` (auto_include_builtin_models is false)`, declared.size ? `use one of: ${[...declared].join(', ')}` : 'declare the model under `models`');
  };
  list(obj(root.managed).policies).forEach((p, i) => {
    for (const block of ['cli', 'code', 'settings']) {
      const s = obj(obj(p)[block]);
      list(s.availableModels).forEach((m, j) => modelRef(['managed', 'policies', i, block, 'availableModels', j], m));
      modelRef(['managed', 'policies', i, block, 'model'], s.model);
    }
  });
  list(root.upstreams).forEach((u, i) => list(obj(u).models).forEach((m, j) => modelRef(['upstreams', i, 'models', j], m)));
};

/** CFG-URL-1: a messages upstream's base_url is the host root. */
const baseUrls: RuleCheck = (root, report) => {
  list(root.upstreams).forEach((u, i) => {
    const url = urlOf(obj(u).base_url);
    if (speaksMessages(String(obj(u).provider)) && url && /\/v1\/?$/.test(url.pathname))
      report(['upstreams', i, 'base_url'], `${show(['upstreams', i, 'base_url'])} ends in /v1: a messages upstream's base URL is the host root (the gateway appends /v1/messages)`, 'remove the trailing /v1');
  });
};

/** CFG-SCHEMA-1 beyond the JSON schema: what the gateway itself requires of listen, oidc and upstream auth. */
const gatewayRequirements: RuleCheck = (root, report) => {
  const listen = obj(root.listen);
  const host = str(listen.host) ?? '0.0.0.0';
  if (isObj(root.listen) && listen.public_url === undefined && !hasRef(host) && !hostIsLoopback(host))
    report(['listen', 'public_url'], '`listen.public_url` is required when `listen.host` is not a loopback address', 'set it to the externally visible origin, e.g. https://claude-gateway.corp.example');
  if (isObj(root.oidc)) oidcRequirements(root.oidc, report);
  list(root.upstreams).forEach((u, i) => {
    const auth = obj(obj(u).auth);
    if (['bedrock', 'mantle', 'anthropicAws'].includes(String(obj(u).provider)) && (auth.aws_access_key_id === undefined) !== (auth.aws_secret_access_key === undefined))
      report(['upstreams', i, 'auth'], `${show(['upstreams', i, 'auth'])}: aws_access_key_id and aws_secret_access_key must be set together`, 'set both, or neither to use the ambient AWS credentials');
  });
};

/** oidc: client authentication and scopes, as the gateway requires them. */
function oidcRequirements(oidc: Obj, report: Report): void {
  const pkjwt = oidc.token_endpoint_auth_method === 'private_key_jwt';
  if (!pkjwt && oidc.client_secret === undefined) report(['oidc', 'client_secret'], '`oidc.client_secret` is required (or token_endpoint_auth_method: private_key_jwt with a client_assertion block)', 'add client_secret: ${OIDC_CLIENT_SECRET}');
  if (!pkjwt && oidc.client_assertion !== undefined) report(['oidc', 'client_assertion'], '`oidc.client_assertion` is only used with token_endpoint_auth_method: private_key_jwt', 'set token_endpoint_auth_method: private_key_jwt or remove the block');
  if (pkjwt && oidc.client_secret !== undefined) report(['oidc', 'client_secret'], '`oidc.client_secret` must be removed with token_endpoint_auth_method: private_key_jwt', 'remove client_secret');
  if (pkjwt && oidc.client_assertion === undefined) report(['oidc', 'client_assertion'], '`oidc.client_assertion` is required with token_endpoint_auth_method: private_key_jwt', 'add client_assertion with private_key_pem and certificate_pem');
  if (Array.isArray(oidc.scopes) && !oidc.scopes.includes('openid')) report(['oidc', 'scopes'], '`oidc.scopes` must include openid: without it the identity provider returns no id_token', 'add openid to the list');
  const managedParams = Object.keys(obj(oidc.extra_auth_params)).filter((k) => PROTOCOL_PARAMS.includes(k));
  if (managedParams.length)
    report(['oidc', 'extra_auth_params', managedParams[0]], `\`oidc.extra_auth_params\` must not set ${managedParams.join(', ')}: the gateway manages these protocol parameters`, 'remove it (use oidc.scopes for scopes)');
  if (Array.isArray(oidc.allowed_groups) && oidc.allowed_groups.length > 0 && oidc.allowed_groups.every((g) => typeof g === 'string' && !g.trim()))
    report(['oidc', 'allowed_groups'], '`oidc.allowed_groups` contains only empty entries', 'list group names or remove the key');
}

/** CFG-SPEND-1: enforcement and pricing only act with an admin block. */
const spendSettings: RuleCheck = (root, report) => {
  const admin = root.admin;
  if (obj(root.enforcement).fail_closed_on_error === true && admin === undefined)
    report(['enforcement', 'fail_closed_on_error'], '`enforcement.fail_closed_on_error` has no effect without an `admin:` block: spend enforcement only runs when admin is configured', 'add the admin block, or remove enforcement');
  if (root.pricing !== undefined && admin === undefined && list(obj(root.managed).policies).length === 0)
    report(['pricing'], '`pricing` has no effect without an `admin:` block or a managed policy', 'add the admin block, or remove pricing');
  if (obj(admin).pooled_conflict_rule === 'priority_list' && list(obj(admin).pooled_priority_order).length === 0)
    report(['admin', 'pooled_conflict_rule'], '`admin.pooled_conflict_rule: priority_list` needs at least one group in `admin.pooled_priority_order`', 'list the groups in priority order');
};

/** CFG-SSRF-1: no loopback or metadata address in the upstreams, the IdP and the telemetry destinations. */
const refusedUrls: RuleCheck = (root, report) => {
  list(root.upstreams).forEach((u, i) => {
    if (refusedUrl(obj(u).base_url))
      report(['upstreams', i, 'base_url'], `${show(['upstreams', i, 'base_url'])} is a loopback or cloud-metadata address, which the gateway refuses to forward to`, 'use the upstream\'s network address (a loopback upstream is for local tests only, with CLAUDE_GATEWAY_ALLOW_LOOPBACK=1)');
  });
  const oidc = obj(root.oidc);
  if (refusedUrl(oidc.issuer))
    report(['oidc', 'issuer'], '`oidc.issuer` is a loopback or cloud-metadata address, which the gateway refuses to fetch', 'use the identity provider\'s real issuer URL (loopback is for local tests only, with CLAUDE_GATEWAY_ALLOW_LOOPBACK=1)');
  if (refusedUrl(oidc.discovery_url))
    report(['oidc', 'discovery_url'], '`oidc.discovery_url` is a loopback or cloud-metadata address, which the gateway refuses to fetch', 'use the identity provider\'s discovery document URL');
  list(obj(root.telemetry).forward_to).forEach((t, i) => {
    const path: KeyPath = ['telemetry', 'forward_to', i, 'url'];
    if (refusedUrl(obj(t).url))
      report(path, `${show(path)} is a loopback or cloud-metadata address, which the gateway refuses to export to`, 'point it at the collector\'s network address (a loopback sidecar needs CLAUDE_GATEWAY_ALLOW_LOOPBACK=1)');
  });
};

/** CFG-TLS-2: telemetry destinations are https. */
const telemetryHttps: RuleCheck = (root, report) => {
  list(obj(root.telemetry).forward_to).forEach((t, i) => {
    const path: KeyPath = ['telemetry', 'forward_to', i, 'url'];
    if (clearTextUrl(obj(t).url)) report(path, `${show(path)} is not https: telemetry carries user identities`, 'export over https://');
  });
};

/** `session.ttl_hours` as a number, when it is a literal (not a reference, list or mapping). */
function ttlHours(root: Obj): number | undefined {
  const raw = obj(root.session).ttl_hours;
  if (raw === undefined || (typeof raw === 'string' && hasRef(raw)) || isObj(raw) || Array.isArray(raw)) return undefined;
  return Number(raw);
}

const routedGroups = (root: Obj): UsedGroup[] => [
  ...list(root.upstreams).flatMap((u, i) => list(obj(u).groups).flatMap((g, j) => (typeof g === 'string' ? [{ group: g, path: ['upstreams', i, 'groups', j] as KeyPath }] : []))),
  ...list(obj(root.managed).policies).flatMap((p, i) =>
    list(obj(obj(p).match).groups).flatMap((g, j) => (typeof g === 'string' ? [{ group: g, path: ['managed', 'policies', i, 'match', 'groups', j] as KeyPath }] : [])),
  ),
];
const ALLOWED: KeyPath = ['oidc', 'allowed_groups'];
const TTL: KeyPath = ['session', 'ttl_hours'];

export const PUBLIC_RULES: ReadonlyMap<string, RuleCheck> = new Map<string, RuleCheck>([
  ['CFG-SECRET-1', secrets],
  ['CFG-REF-1', references],
  ['CFG-URL-1', baseUrls],
  ['CFG-URL-2', (root, report) => publicUrlProblems(report, ['listen', 'public_url'], obj(root.listen).public_url)],
  ['CFG-SCHEMA-1', gatewayRequirements],
  ['CFG-SPEND-1', spendSettings],
  ['CFG-TLS-1', (root, report) => {
    if (clearTextUrl(obj(root.oidc).issuer)) report(['oidc', 'issuer'], '`oidc.issuer` is not https: the sign-in and its tokens can be intercepted', 'use the https:// issuer URL of the identity provider');
  }],
  ['CFG-SSRF-1', refusedUrls],
  ['CFG-TLS-2', telemetryHttps],
  ['CFG-SESSION-1', (root, report) => {
    const ttl = ttlHours(root);
    if (ttl !== undefined && ttl <= 0) report(TTL, '`session.ttl_hours` is not greater than zero: every session token would be born expired', 'use a positive number of hours (the default is 1)');
  }],
  ['CFG-SESSION-2', (root, report) => {
    const ttl = ttlHours(root);
    if (ttl !== undefined && ttl > 24) report(TTL, '`session.ttl_hours` is over 24: a user removed from the identity provider keeps access that long', 'keep sessions short (the default is 1 hour); refresh tokens renew them');
  }],
  ['CFG-GROUP-1', (root, report) => emptyAllowedGroups(report, ALLOWED, obj(root.oidc).allowed_groups, routedGroups(root))],
  ['CFG-GROUP-2', (root, report) => groupsNotAllowed(report, ALLOWED, obj(root.oidc).allowed_groups, routedGroups(root))],
]);
