// The rules beyond the schema for the outline dialect (the earlier, outline layout of the
// configuration: server, auth.oidc, database, routing, ...), one check per rule ID; checks.ts
// registers them. Messages name keys and upstream labels, never a value
// that could be a secret.
import type { KeyPath } from './source.js';
import {
  clearTextUrl, duplicateNames, emptyAllowedGroups, groupsNotAllowed, list, looksSecret, obj, publicUrlProblems, refusedUrl, show, urlOf,
  type Obj, type Report, type RuleCheck, type UsedGroup,
} from './values.js';
import { knownOnExceeded, knownUpstreamKind, ON_EXCEEDED_EXAMPLES, speaksMessages, UPSTREAM_KIND_EXAMPLES } from './vocabulary.js';

/** Literal-secret keys of the outline: reported by CFG-SECRET-1, not as unknown keys. */
export function outlineSecretKey(path: KeyPath): string | undefined {
  const p = path.map(String);
  if (p.length === 3 && p[0] === 'auth' && p[1] === 'oidc' && p[2] === 'client_secret') return 'client_secret_env';
  if (p.length === 3 && p[0] === 'database' && /^(url|dsn|password)$/.test(p[2])) return 'url_env';
  if (p.length === 3 && p[0] === 'upstreams' && /^(api_key|auth_token|key|token)$/.test(p[2])) return p[2] === 'auth_token' || p[2] === 'token' ? 'auth_token_env' : 'api_key_env';
  if (p.length === 3 && p[0] === 'telemetry' && p[1] === 'otlp' && p[2] === 'headers') return 'headers_env';
  return undefined;
}

const oidcOf = (root: Obj) => obj(obj(root.auth).oidc);
const otlpOf = (root: Obj) => obj(obj(root.telemetry).otlp);

/** CFG-SECRET-1: literal secrets where the outline wants *_env names; *_env holding a secret. */
const secrets: RuleCheck = (root, report) => {
  const literal = (path: KeyPath, what: string) => {
    const env = outlineSecretKey(path)!;
    report(path, `${show(path)} holds ${what} in plaintext; name an environment variable (${env}) instead`, `move the value into the environment and write \`${env}: VARIABLE_NAME\``);
  };
  const oidc = oidcOf(root);
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
  if ('headers' in otlpOf(root)) literal(['telemetry', 'otlp', 'headers'], 'telemetry export headers');
  const envNames: Array<[KeyPath, unknown]> = [
    [['auth', 'oidc', 'client_secret_env'], oidc.client_secret_env],
    [['telemetry', 'otlp', 'headers_env'], otlpOf(root).headers_env],
    ...Object.entries(obj(root.database)).map(([e, v]): [KeyPath, unknown] => [['database', e, 'url_env'], obj(v).url_env]),
    ...list(root.upstreams).flatMap((u, i): Array<[KeyPath, unknown]> => [
      [['upstreams', i, 'api_key_env'], obj(u).api_key_env],
      [['upstreams', i, 'auth_token_env'], obj(u).auth_token_env],
    ]),
  ];
  for (const [path, v] of envNames)
    if (typeof v === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(v) && looksSecret(v))
      report(path, `${show(path)} looks like the secret itself, not the name of an environment variable`, 'put the secret in the environment and write the variable\'s name here');
};

/** CFG-REF-1: routing names declared upstreams, each declared once. */
const references: RuleCheck = (root, report) => {
  const names = list(root.upstreams).flatMap((u, i) => (typeof obj(u).name === 'string' ? [{ name: obj(u).name as string, path: ['upstreams', i, 'name'] as KeyPath }] : []));
  duplicateNames(report, names);
  const known = new Set(names.map((n) => n.name));
  const routing = obj(root.routing);
  const ref = (path: KeyPath, v: unknown) => {
    if (typeof v === 'string' && !known.has(v)) report(path, `${show(path)} names upstream \`${v}\`, which is not declared in \`upstreams\``, known.size ? `use one of: ${[...known].join(', ')}` : 'declare the upstream under `upstreams`');
  };
  ref(['routing', 'default_upstream'], routing.default_upstream);
  list(routing.rules).forEach((r, i) => ref(['routing', 'rules', i, 'upstream'], obj(r).upstream));
};

/** CFG-URL-1: a messages upstream's base_url is the host root (`type: messages` or a provider of that protocol). */
const baseUrls: RuleCheck = (root, report) => {
  list(root.upstreams).forEach((u, i) => {
    const url = urlOf(obj(u).base_url);
    const type = obj(u).type;
    if (typeof type === 'string' && speaksMessages(type) && url && /\/v1\/?$/.test(url.pathname))
      report(['upstreams', i, 'base_url'], `${show(['upstreams', i, 'base_url'])} ends in /v1: a messages upstream's base URL is the host root (the gateway appends /v1/messages)`, 'remove the trailing /v1');
  });
};

/** CFG-SCHEMA-2: values of the open vocabularies that lint-config does not know (a warning). */
const vocabulary: RuleCheck = (root, report) => {
  list(root.upstreams).forEach((u, i) => {
    const type = obj(u).type;
    if (typeof type === 'string' && type && !knownUpstreamKind(type))
      report(['upstreams', i, 'type'], `${show(['upstreams', i, 'type'])} is a kind of upstream lint-config does not know, so no rule about its protocol applies to it`, `check the gateway's documentation; known kinds include ${UPSTREAM_KIND_EXAMPLES.join(', ')}`);
  });
  const spend = obj(root.spend_limits);
  for (const [scope, conf] of Object.entries(spend)) {
    const action = obj(conf).on_exceeded;
    if (typeof action === 'string' && action && !knownOnExceeded(action))
      report(['spend_limits', scope, 'on_exceeded'], `${show(['spend_limits', scope, 'on_exceeded'])} is an action lint-config does not know; if the gateway does not know it either, the limit may not be enforced`, `check the gateway's documentation; known actions include ${ON_EXCEEDED_EXAMPLES.join(', ')}`);
  }
};

const ISSUER: KeyPath = ['auth', 'oidc', 'issuer_url'];
const OTLP_ENDPOINT: KeyPath = ['telemetry', 'otlp', 'endpoint'];

/** CFG-TLS-1: the issuer is https. */
const issuerHttps: RuleCheck = (root, report) => {
  if (clearTextUrl(oidcOf(root).issuer_url)) report(ISSUER, `${show(ISSUER)} is not https: the sign-in and its tokens can be intercepted`, 'use the https:// issuer URL of the identity provider');
};

/** CFG-SSRF-1: no loopback or metadata address where the gateway fetches. */
const refusedUrls: RuleCheck = (root, report) => {
  if (refusedUrl(oidcOf(root).issuer_url))
    report(ISSUER, `${show(ISSUER)} is a loopback or cloud-metadata address, which the gateway refuses to fetch`, 'use the identity provider\'s real issuer URL (loopback is for local tests only, with CLAUDE_GATEWAY_ALLOW_LOOPBACK=1)');
  if (refusedUrl(otlpOf(root).endpoint))
    report(OTLP_ENDPOINT, `${show(OTLP_ENDPOINT)} is a loopback or cloud-metadata address, which the gateway refuses to export to`, 'point it at the collector\'s network address (a loopback sidecar needs CLAUDE_GATEWAY_ALLOW_LOOPBACK=1)');
};

/** CFG-TLS-2: telemetry is exported over https. */
const telemetryHttps: RuleCheck = (root, report) => {
  if (clearTextUrl(otlpOf(root).endpoint)) report(OTLP_ENDPOINT, `${show(OTLP_ENDPOINT)} is not https: telemetry carries user identities`, 'export over https://');
};

const ALLOWED: KeyPath = ['auth', 'oidc', 'allowed_groups'];
const routedGroups = (root: Obj): UsedGroup[] =>
  list(obj(root.routing).rules).flatMap((r, i) => (typeof obj(r).group === 'string' ? [{ group: obj(r).group as string, path: ['routing', 'rules', i, 'group'] as KeyPath }] : []));

export const OUTLINE_RULES: ReadonlyMap<string, RuleCheck> = new Map<string, RuleCheck>([
  ['CFG-SECRET-1', secrets],
  ['CFG-REF-1', references],
  ['CFG-SCHEMA-2', vocabulary],
  ['CFG-URL-1', baseUrls],
  ['CFG-URL-2', (root, report: Report) => publicUrlProblems(report, ['server', 'public_url'], obj(root.server).public_url)],
  ['CFG-TLS-1', issuerHttps],
  ['CFG-SSRF-1', refusedUrls],
  ['CFG-TLS-2', telemetryHttps],
  ['CFG-GROUP-1', (root, report) => emptyAllowedGroups(report, ALLOWED, oidcOf(root).allowed_groups, routedGroups(root))],
  ['CFG-GROUP-2', (root, report) => groupsNotAllowed(report, ALLOWED, oidcOf(root).allowed_groups, routedGroups(root))],
]);
