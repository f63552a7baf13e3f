// The rules of `lint-config`: the configuration requirements of the catalog (CFG-*, section F
// of docs/requirements.md, made into catalog/requirements.json). Seven of them were first
// proposed under working IDs (CFG-X-1 to CFG-X-7); `alias` keeps that name findable.
// Severity follows the level: MUST -> error, SHOULD -> warning.

export type Severity = 'error' | 'warning';
export type Dialect = 'outline' | 'claude-apps-gateway';
export const DIALECTS: readonly Dialect[] = ['outline', 'claude-apps-gateway'];

export interface Rule {
  id: string;
  level: 'MUST' | 'SHOULD';
  title: string;
  /** The longer statement shown by SARIF and in the README. */
  description: string;
  /** The working ID the rule had before it entered the catalog. */
  alias?: string;
}

export const RULES: readonly Rule[] = [
  {
    id: 'CFG-SCHEMA-1',
    level: 'MUST',
    title: 'Valid YAML, known keys, right types, required sections',
    description: 'The file is valid YAML in one dialect; every key is known and has the right type; required sections are present.',
  },
  {
    id: 'CFG-SCHEMA-2',
    level: 'SHOULD',
    title: 'Values of open vocabularies are known ones',
    description: "Where the configuration interface names values only by example (the outline's upstream `type` and `on_exceeded`), a value lint-config does not know is reported as a warning; real provider names and common actions are accepted.",
  },
  {
    id: 'CFG-SECRET-1',
    level: 'MUST',
    title: 'No plaintext secret in the configuration',
    description:
      'OIDC client secret, session secret, database URL, upstream keys and telemetry headers come from the environment or files (`*_env` names in the outline; `${VAR}` / `${file:/abs/path}` in the public schema).',
  },
  { id: 'CFG-REF-1', level: 'MUST', title: 'Every upstream and model named is declared', description: 'Every upstream named by routing, models or pricing exists, once; models named by policies and upstreams are declared when built-in models are off.' },
  { id: 'CFG-URL-1', level: 'MUST', title: 'Messages upstream base URL is the host root', description: "A messages-type upstream's base URL is the host root, not an OpenAI-style `/v1` root." },
  { id: 'CFG-URL-2', level: 'SHOULD', title: 'Public URL reachable from user devices', description: 'The public URL is absolute, https, and not loopback or localhost.' },
  { id: 'CFG-SPEND-1', level: 'MUST', title: 'Spend settings are valid', description: 'Spend-limit values are non-negative numbers and the action on exceeding (outline `on_exceeded`, public `enforcement`) is a known value that takes effect.' },
  { id: 'CFG-TLS-1', alias: 'CFG-X-1', level: 'SHOULD', title: 'OIDC issuer uses https', description: 'The OIDC issuer URL is https; an http issuer exposes the sign-in to interception.' },
  { id: 'CFG-SSRF-1', alias: 'CFG-X-2', level: 'MUST', title: 'No loopback or metadata address in URLs the gateway fetches', description: 'The OIDC issuer or discovery URL, telemetry export URLs and upstream base URLs are not loopback or cloud-metadata addresses (the gateway refuses them outside tests).' },
  { id: 'CFG-TLS-2', alias: 'CFG-X-3', level: 'MUST', title: 'Telemetry export uses https', description: 'A telemetry export URL is https (http only for a loopback collector); telemetry carries user identities.' },
  { id: 'CFG-SESSION-1', alias: 'CFG-X-4', level: 'MUST', title: 'Session lifetime is positive', description: '`session.ttl_hours` is greater than zero.' },
  { id: 'CFG-SESSION-2', alias: 'CFG-X-5', level: 'SHOULD', title: 'Session lifetime is short', description: '`session.ttl_hours` is at most 24: a user removed from the identity provider keeps access for up to one session lifetime.' },
  { id: 'CFG-GROUP-1', alias: 'CFG-X-6', level: 'MUST', title: 'allowed_groups is not an empty list beside group routing', description: 'An empty `allowed_groups` list next to routing or policies by group states no group at all; remove the key or list the groups.' },
  { id: 'CFG-GROUP-2', alias: 'CFG-X-7', level: 'SHOULD', title: 'Routed groups may sign in', description: 'A group named by routing or policies is in `allowed_groups` when that list is set; otherwise its members cannot sign in and the rule never applies.' },
];

export const RULE_BY_ID: ReadonlyMap<string, Rule> = new Map(RULES.map((r) => [r.id, r]));

export const severityOf = (ruleId: string): Severity => (RULE_BY_ID.get(ruleId)?.level === 'SHOULD' ? 'warning' : 'error');

export interface Finding {
  file: string;
  line: number;
  column: number;
  rule: string;
  severity: Severity;
  /** Dotted key path with [i] for list items, e.g. `upstreams[0].auth.api_key`; `` for the whole file. */
  path: string;
  message: string;
  hint: string;
}

export interface FileResult {
  file: string;
  dialect: Dialect | null;
  findings: Finding[];
}

export const pathText = (path: readonly (string | number)[]): string =>
  path.reduce<string>((s, p) => (typeof p === 'number' ? `${s}[${p}]` : s ? `${s}.${p}` : p), '');
