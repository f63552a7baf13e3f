// Lints one configuration text: dialect, schema, then the dialect's rules. Pure: no I/O.
import { outlineSecretKey, semanticChecks } from './checks.js';
import { DIALECTS, pathText, severityOf, type Dialect, type FileResult, type Finding } from './rules.js';
import { schemaFindings, type RawFinding } from './schema.js';
import { Source } from './source.js';

/** Top-level keys only one dialect has. `upstreams` and `telemetry` are in both. */
const ONLY: Record<Dialect, readonly string[]> = {
  outline: ['server', 'auth', 'database', 'policies', 'routing', 'spend_limits'],
  'claude-apps-gateway': [
    'listen', 'oidc', 'session', 'store', 'admin', 'enforcement', 'managed', 'models', 'auto_include_builtin_models', 'login_notice',
    'access_control', 'limits', 'rate_limits', 'timeouts', 'pricing', 'cri', 'load_test_mode', '$schema',
  ],
};
/** Where an outline key lives in the public schema, and back: for "this key belongs to the other dialect". */
const COUNTERPART: Record<string, string> = {
  server: 'listen', auth: 'oidc', database: 'store', policies: 'managed', routing: 'models and upstreams[].groups', spend_limits: 'admin and pricing',
  listen: 'server', oidc: 'auth.oidc', session: 'no outline counterpart', store: 'database', managed: 'policies.managed', admin: 'spend_limits', enforcement: 'spend_limits.defaults.on_exceeded',
};

export interface DialectGuess {
  dialect: Dialect;
  /** Both dialects' own keys present: the file mixes them. */
  mixed?: { outline: string[]; public: string[] };
}

export function detectDialect(keys: readonly string[], upstreams: unknown): DialectGuess {
  const outline = keys.filter((k) => ONLY.outline.includes(k));
  const pub = keys.filter((k) => ONLY['claude-apps-gateway'].includes(k));
  if (outline.length && pub.length) return { dialect: outline.length > pub.length ? 'outline' : 'claude-apps-gateway', mixed: { outline, public: pub } };
  if (outline.length) return { dialect: 'outline' };
  if (pub.length) return { dialect: 'claude-apps-gateway' };
  // Only shared keys: an upstream's `type` is the outline's, `provider` the public schema's.
  const first = Array.isArray(upstreams) ? upstreams[0] : undefined;
  if (first && typeof first === 'object' && 'type' in first && !('provider' in first)) return { dialect: 'outline' };
  return { dialect: 'claude-apps-gateway' };
}

export interface LintOptions {
  dialect?: Dialect;
}

/** Throws YamlSyntaxError when the text is not YAML; everything else is a finding. */
export function lintText(file: string, text: string, opts: LintOptions = {}): FileResult {
  const src = Source.parse(file, text);
  const at = (raw: RawFinding): Finding => {
    const pos = src.locate(raw.path);
    return { file, line: pos.line, column: pos.column, rule: raw.rule, severity: severityOf(raw.rule), path: pathText(raw.path), message: raw.message, hint: raw.hint };
  };
  const data = src.value;
  if (data === null || data === undefined || typeof data !== 'object' || Array.isArray(data)) {
    const what = data === null || data === undefined ? 'empty' : Array.isArray(data) ? 'a list' : `a ${typeof data}`;
    return {
      file,
      dialect: opts.dialect ?? null,
      findings: [at({ rule: 'CFG-SCHEMA-1', path: [], message: `the file is ${what}, not a mapping of configuration sections`, hint: 'start from the complete example: listen, oidc, session, store, upstreams' })],
    };
  }
  const keys = src.topKeys().map((k) => k.key);
  const guess = opts.dialect ? { dialect: opts.dialect } : detectDialect(keys, (data as Record<string, unknown>).upstreams);
  const dialect = guess.dialect;
  // A file that mixes the dialects is reported once as such, then linted in its majority dialect
  // (the mixed keys are not reported again as unknown), so its rule findings still show.
  const mixed: RawFinding[] = [];
  if ('mixed' in guess && guess.mixed) {
    const { outline, public: pub } = guess.mixed;
    const minority = dialect === 'outline' ? pub : outline;
    mixed.push({
      rule: 'CFG-SCHEMA-1',
      path: [minority[0]],
      message: `the file mixes both dialects: ${outline.map((k) => `\`${k}\``).join(', ')} belong to the outline dialect; ${pub.map((k) => `\`${k}\``).join(', ')} belong to the claude-apps-gateway schema`,
      hint: `write one dialect (the gateway reads claude-apps-gateway), or pass --dialect to lint against one of them`,
    });
  }
  const other = DIALECTS.find((d) => d !== dialect)!;
  const raw = schemaFindings(dialect, data, {
    claimed: dialect === 'outline' ? (p) => outlineSecretKey(p) !== undefined : undefined,
    foreign: (k) => (ONLY[other].includes(k) ? `it belongs to the ${other} dialect${COUNTERPART[k] ? ` (here: ${COUNTERPART[k]})` : ''}` : undefined),
  });
  // Outline: a literal secret (reported by CFG-SECRET-1) stands where its *_env key is missing.
  const shadowed = (r: RawFinding) => {
    if (dialect !== 'outline' || r.keyword !== 'required') return false;
    const parent = r.path.slice(0, -1).reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string | number, unknown>)[k] : undefined), data);
    return !!parent && typeof parent === 'object' && Object.keys(parent).some((k) => outlineSecretKey([...r.path.slice(0, -1), k]) === r.path[r.path.length - 1]);
  };
  const foreignKey = (r: RawFinding) => mixed.length > 0 && r.keyword === 'additionalProperties' && r.path.length === 1 && ONLY[other].includes(String(r.path[0]));
  raw.splice(0, raw.length, ...mixed, ...raw.filter((r) => !shadowed(r) && !foreignKey(r)));
  // A rule finding the schema already made (same rule, same key) is not repeated; a finding of
  // another rule about the same key is kept, so a schema error never hides a rule's finding.
  const schemaKeys = new Set(raw.map((r) => `${r.rule}|${pathText(r.path)}`));
  const findings = [...raw, ...semanticChecks(dialect, data).filter((s) => !schemaKeys.has(`${s.rule}|${pathText(s.path)}`))].map(at);
  findings.sort((a, b) => a.line - b.line || a.column - b.column || a.rule.localeCompare(b.rule));
  return { file, dialect: mixed.length ? null : dialect, findings };
}
