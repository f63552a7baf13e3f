// lint-config on the checked-in fixtures: each file's findings (rule, severity, line, column,
// key path) equal the expectation beside it; every rule is proven by a fixture; no output
// format repeats a secret written in a fixture.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectDialect, lintText } from '../../../src/lint/lint.js';
import { render, FORMATS } from '../../../src/lint/format.js';
import { RULE_BY_ID, RULES } from '../../../src/lint/rules.js';
import { RULE_CHECKS } from '../../../src/lint/checks.js';
import { nearest, schemaFor } from '../../../src/lint/schema.js';
import { DIALECTS } from '../../../src/lint/rules.js';

const dir = new URL('../../../fixtures/apps-config/', import.meta.url);
const yamlFiles = readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();
interface Expected {
  dialect: string | null;
  findings: Array<{ rule: string; severity: string; line: number; column: number; path: string }>;
}
const expectedOf = (f: string): Expected => JSON.parse(readFileSync(new URL(f.replace(/\.yaml$/, '.expected.json'), dir), 'utf8'));
const lint = (f: string) => lintText(f, readFileSync(new URL(f, dir), 'utf8'));

describe('lint-config fixtures (fixtures/apps-config)', () => {
  it('has a valid file in each dialect and an expectation beside every file', () => {
    expect(yamlFiles).toContain('valid-outline.yaml');
    expect(yamlFiles).toContain('valid-claude-apps-gateway.yaml');
    for (const f of yamlFiles) expect(() => expectedOf(f), f).not.toThrow();
  });

  for (const f of yamlFiles) {
    it(`${f}: findings as expected`, () => {
      const r = lint(f);
      const exp = expectedOf(f);
      expect(r.dialect).toBe(exp.dialect);
      expect(r.findings.map(({ rule, severity, line, column, path }) => ({ rule, severity, line, column, path }))).toEqual(exp.findings);
      for (const finding of r.findings) {
        expect(finding.message.length).toBeGreaterThan(10);
        expect(finding.hint.length).toBeGreaterThan(5);
      }
    });
  }

  it('the check registry holds catalog rules only', () => {
    for (const d of DIALECTS) for (const id of RULE_CHECKS[d].keys()) expect(RULE_BY_ID.has(id), `${d}: ${id}`).toBe(true);
  });

  it('the valid files lint clean', () => {
    expect(lint('valid-outline.yaml').findings).toEqual([]);
    expect(lint('valid-claude-apps-gateway.yaml').findings).toEqual([]);
  });

  it('every rule is proven by a broken fixture in each dialect that has the setting', () => {
    const byDialect = (prefix: string) => new Set(yamlFiles.filter((f) => f.startsWith(prefix)).flatMap((f) => expectedOf(f).findings.map((x) => x.rule)));
    const pub = byDialect('pub-');
    const outline = byDialect('outline-');
    // The public schema closes its vocabularies (the gateway's own enums): CFG-SCHEMA-2 is the outline's.
    for (const r of RULES.filter((x) => x.id !== 'CFG-SCHEMA-2')) expect(pub.has(r.id), `${r.id} in a pub-* fixture`).toBe(true);
    // The outline has no session section (CFG-SESSION-1, CFG-SESSION-2).
    const outlineRules = RULES.map((r) => r.id).filter((id) => !['CFG-SESSION-1', 'CFG-SESSION-2'].includes(id));
    for (const id of outlineRules) expect(outline.has(id), `${id} in an outline-* fixture`).toBe(true);
    // Each broken fixture is about the rule its name says.
    for (const f of yamlFiles.filter((x) => /^(pub|outline)-(schema|secret|ref|url|spend|tls|ssrf|session|group)-\d/.test(x))) {
      const id = `CFG-${/^(?:pub|outline)-([a-z]+-\d+)/.exec(f)![1].toUpperCase()}`;
      expect(expectedOf(f).findings.map((x) => x.rule), f).toContain(id);
    }
  });

  it('open vocabularies: real provider names are accepted, unknown values warn, and schema findings hide no rule finding', () => {
    // An Anthropic upstream named by its provider, with a /v1 base URL: CFG-URL-1 applies to it.
    expect(lint('outline-url-1-anthropic.yaml').findings.map((x) => x.rule)).toEqual(['CFG-URL-1']);
    // bedrock and vertex pass; an unknown kind and an unknown action are warnings only.
    const vocabulary = lint('outline-schema-2.yaml').findings;
    expect(vocabulary.map((x) => [x.rule, x.severity, x.path])).toEqual([
      ['CFG-SCHEMA-2', 'warning', 'upstreams[2].type'],
      ['CFG-SCHEMA-2', 'warning', 'spend_limits.defaults.on_exceeded'],
    ]);
    // A mixed file and a schema error on a key still show the rules' findings, on that key too.
    const both = lint('outline-schema-1-beside-rules.yaml').findings.map((x) => `${x.rule} ${x.path}`);
    expect(both).toEqual(expect.arrayContaining(['CFG-SCHEMA-1 listen', 'CFG-SCHEMA-1 server.public_url', 'CFG-URL-2 server.public_url', 'CFG-TLS-1 auth.oidc.issuer_url']));
  });

  it('severity is error for MUST rules and warning for SHOULD rules', () => {
    for (const f of yamlFiles)
      for (const x of lint(f).findings) expect(x.severity, `${f} ${x.rule}`).toBe(RULES.find((r) => r.id === x.rule)!.level === 'MUST' ? 'error' : 'warning');
  });

  it('no output format repeats a secret written in a fixture', () => {
    const secrets = ['Zq8vR2kLm4TpX9wYc1Nf', 'Pa55w0rd-gwc', 'sk-gwc-example-not-a-real-key-0001'];
    for (const f of ['pub-secret-1.yaml', 'outline-secret-1.yaml']) {
      const text = readFileSync(new URL(f, dir), 'utf8');
      for (const s of secrets.filter((s) => text.includes(s))) {
        for (const format of FORMATS) {
          const out = render(format, [lint(f)], { strict: false, version: 'test' });
          expect(out, `${format} of ${f}`).not.toContain(s);
          expect(out, `${format} of ${f} (base64)`).not.toContain(Buffer.from(s).toString('base64').slice(0, 12));
        }
      }
    }
  });
});

describe('lint-config dialects and keys', () => {
  it('detects the dialect from the top-level keys', () => {
    expect(detectDialect(['server', 'auth', 'upstreams'], []).dialect).toBe('outline');
    expect(detectDialect(['listen', 'oidc', 'upstreams'], []).dialect).toBe('claude-apps-gateway');
    expect(detectDialect(['upstreams'], [{ name: 'a', type: 'messages' }]).dialect).toBe('outline');
    expect(detectDialect(['upstreams'], [{ provider: 'anthropic' }]).dialect).toBe('claude-apps-gateway');
    expect(detectDialect(['server', 'oidc', 'session'], []).mixed).toEqual({ outline: ['server'], public: ['oidc', 'session'] });
  });

  it('a forced dialect reports the other dialect\'s keys as unknown, saying where they belong', () => {
    const text = readFileSync(new URL('valid-outline.yaml', dir), 'utf8');
    const r = lintText('x.yaml', text, { dialect: 'claude-apps-gateway' });
    const server = r.findings.find((f) => f.path === 'server');
    expect(server?.rule).toBe('CFG-SCHEMA-1');
    expect(server?.message).toMatch(/belongs to the outline dialect \(here: listen\)/);
    expect(r.findings.some((f) => f.path === 'session' && /required/.test(f.message))).toBe(true);
  });

  it('did you mean: the nearest known key, nothing when no key is near', () => {
    expect(nearest('clientid', ['client_id', 'client_secret', 'issuer'])).toBe('client_id');
    expect(nearest('isuer', ['client_id', 'client_secret', 'issuer'])).toBe('issuer');
    expect(nearest('pizza', ['client_id', 'issuer'])).toBeUndefined();
    const r = lintText('x.yaml', 'listen:\n  public_url: https://g.corp.example\n  prot: 8080\n');
    expect(r.findings.find((f) => f.path === 'listen.prot')).toMatchObject({ line: 3, column: 3, rule: 'CFG-SCHEMA-1', message: expect.stringContaining('did you mean `port`?') });
  });

  it('an empty file or a non-mapping is one CFG-SCHEMA-1 finding at line 1', () => {
    for (const text of ['', '# only a comment\n', '- a\n- b\n', 'just text\n']) {
      const r = lintText('x.yaml', text);
      expect(r.findings).toHaveLength(1);
      expect(r.findings[0]).toMatchObject({ rule: 'CFG-SCHEMA-1', severity: 'error', line: 1 });
    }
  });

  it('numbers the gateway coerces: numeric strings and ${VAR} pass, other strings do not', () => {
    const base = readFileSync(new URL('valid-claude-apps-gateway.yaml', dir), 'utf8');
    const port = (v: string) => lintText('x.yaml', base.replace('port: 8080', `port: ${v}`)).findings.map((f) => f.path);
    expect(port('"8080"')).toEqual([]);
    expect(port('${GATEWAY_PORT}')).toEqual([]);
    expect(port('eighty')).toEqual(['listen.port']);
    expect(port('[8080]')).toEqual(['listen.port']);
  });

  it('secret references: ${VAR}, ${file:/abs}, "Bearer ${VAR}" pass; a relative ${file:} does not', () => {
    const base = readFileSync(new URL('valid-claude-apps-gateway.yaml', dir), 'utf8');
    const secret = (v: string) => lintText('x.yaml', base.replace('client_secret: ${OIDC_CLIENT_SECRET}', `client_secret: "${v}"`)).findings.map((f) => `${f.rule} ${f.path}`);
    expect(secret('${file:/run/secrets/oidc}')).toEqual([]);
    expect(secret('${file:secrets/oidc}')).toEqual(['CFG-SECRET-1 oidc.client_secret']);
    expect(secret('hunter2')).toEqual(['CFG-SECRET-1 oidc.client_secret']);
    const header = (v: string) => lintText('x.yaml', base.replace('authorization: Bearer ${OTLP_TOKEN}', `authorization: "${v}"`)).findings.map((f) => `${f.rule} ${f.path}`);
    expect(header('Bearer ${OTLP_TOKEN}')).toEqual([]);
    expect(header('Bearer 9f8e7d6c5b4a39281706f5e4')).toEqual(['CFG-SECRET-1 telemetry.forward_to[0].headers.authorization']);
    const pg = (v: string) => lintText('x.yaml', base.replace('postgres_url: ${DATABASE_URL}', `postgres_url: "${v}"`)).findings.map((f) => `${f.rule} ${f.path}`);
    expect(pg('postgres://gateway@db.corp.example/gw')).toEqual([]);
    expect(pg('postgres://gateway:${PGPASSWORD}@db.corp.example/gw')).toEqual([]);
    expect(pg('postgres://gateway:s3cret@db.corp.example/gw')).toEqual(['CFG-SECRET-1 store.postgres_url']);
  });

  it('outline: a *_env key holding the secret itself is CFG-SECRET-1; a plain variable name is not', () => {
    const base = readFileSync(new URL('valid-outline.yaml', dir), 'utf8');
    const env = (v: string) => lintText('x.yaml', base.replace('api_key_env: PRIMARY_API_KEY', `api_key_env: "${v}"`)).findings.map((f) => `${f.rule} ${f.path}`);
    expect(env('PRIMARY_API_KEY')).toEqual([]);
    expect(env('sk-gwc-0123456789abcdef')).toEqual(['CFG-SECRET-1 upstreams[0].api_key_env']);
    expect(env('sk_live_0123456789abcdef')).toEqual(['CFG-SECRET-1 upstreams[0].api_key_env']);
  });

  it('public schema: literal admin keys and session secrets in a list are CFG-SECRET-1, each at its entry', () => {
    const base = readFileSync(new URL('valid-claude-apps-gateway.yaml', dir), 'utf8');
    const r = lintText('x.yaml', base.replace('key: ${ADMIN_READ_KEY}', 'key: 0123456789abcdef0123456789abcdef01').replace('jwt_secret: ${SESSION_SECRET}', 'jwt_secret: ["${SESSION_SECRET}", "an-old-secret-still-verifying-tokens-0001"]'));
    expect(r.findings.map((f) => `${f.rule} ${f.path} ${f.line}:${f.column}`)).toEqual(['CFG-SECRET-1 session.jwt_secret[1] 23:37', 'CFG-SECRET-1 admin.read_keys[0].key 56:7']);
  });

  it('a misspelt enum value gets the nearest allowed value', () => {
    const base = readFileSync(new URL('valid-claude-apps-gateway.yaml', dir), 'utf8');
    const r = lintText('x.yaml', base.replace('provider: bedrock', 'provider: bedrok'));
    expect(r.findings).toHaveLength(1);
    expect(r.findings[0]).toMatchObject({ rule: 'CFG-SCHEMA-1', path: 'upstreams[1].provider', hint: 'write `bedrock`' });
    expect(r.findings[0].message).toMatch(/did you mean `bedrock`\?$/);
  });

  it('each dialect schema has an $id carrying its version', () => {
    for (const d of DIALECTS) {
      const { schema } = schemaFor(d);
      expect(schema['x-version']).toMatch(/^\d+\.\d+\.\d+$/);
      expect(schema.$id).toBe(`https://gw-conformance.dev/schemas/lint/${d}/${schema['x-version']}`);
    }
  });
});
