// `gw-conformance lint-config` as a user runs it: each output format on a broken file, exit codes,
// several files, standard input, --out, and bad input (one line, exit 2). Called in this process
// (test/helpers/in-process.ts), but for the reading of the process's own standard input.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/in-process.js';
import { RULES } from '../../src/lint/rules.js';

const fx = (f: string) => `fixtures/apps-config/${f}`;
const BROKEN = fx('pub-secret-1.yaml');
const tmp = () => mkdtempSync(join(tmpdir(), 'gwc-lint-'));

function oneLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
  return lines[0];
}

/** The built CLI in a process, given standard input (spawnSync bounds the run in time). */
function cliStdin(args: string[], input: string) {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/gw-conformance.js'), ...args], { cwd: ROOT, input, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('gw-conformance lint-config', () => {
  it('text: file:line:col: severity RULE message, a fix line, a summary; exit 1 on errors', async () => {
    const r = await cliInProcess(['lint-config', BROKEN]);
    expect(r.code, r.stderr).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe(`${BROKEN}:7:3: error CFG-SECRET-1 \`oidc.client_secret\` holds the OIDC client secret in plaintext; reference it as \${VAR} or \${file:/path} instead`);
    expect(lines[1]).toMatch(/^ {4}fix: /);
    expect(lines.filter((l) => /^\S+:\d+:\d+: (error|warning) CFG-/.test(l))).toHaveLength(3);
    expect(lines.at(-1)).toBe('3 errors, 0 warnings in 1 file');
  });

  it('json: valid against src/lint/schemas/lint-report.schema.json', async () => {
    const r = await cliInProcess(['lint-config', '--format', 'json', BROKEN, fx('valid-outline.yaml')]);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    const validate = new Ajv({ allErrors: true }).compile(JSON.parse(readFileSync(join(ROOT, 'src/lint/schemas/lint-report.schema.json'), 'utf8')));
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.summary).toEqual({ files: 2, errors: 3, warnings: 0 });
    expect(report.files[0].findings[0]).toMatchObject({ file: BROKEN, line: 7, column: 3, rule: 'CFG-SECRET-1', severity: 'error', path: 'oidc.client_secret' });
    expect(report.files[1]).toMatchObject({ dialect: 'outline', errors: 0, findings: [] });
    expect(report.exitCode).toBe(1);
  });

  it('junit: one testcase per rule per file, a failure for the rule with errors; well-formed XML', async () => {
    const out = join(tmp(), 'lint.xml');
    const r = await cliInProcess(['lint-config', '--format', 'junit', '--out', out, BROKEN]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/3 errors, 0 warnings in 1 file; junit report written to /);
    const xml = readFileSync(out, 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(RULES.length);
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml).toMatch(/<testcase classname="fixtures\/apps-config\/pub-secret-1.yaml" name="CFG-SECRET-1: [^"]*"[^>]*>\s*<failure message="[^"]*7:3: error/);
    if (spawnSync('xmllint', ['--version']).status === 0) expect(spawnSync('xmllint', ['--noout', '--schema', join(ROOT, 'test/schemas/jenkins-junit.xsd'), out]).status).toBe(0);
    else expect(process.env.GWC_REQUIRE_TOOLS, 'xmllint is required in CI (apt-get install libxml2-utils)').not.toBe('1');
  });

  it('sarif: SARIF 2.1.0 with the rule catalog and one located result per finding', async () => {
    const r = await cliInProcess(['lint-config', '--format', 'sarif', BROKEN]);
    expect(r.code).toBe(1);
    const sarif = JSON.parse(r.stdout);
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs).toHaveLength(1);
    const { driver } = sarif.runs[0].tool;
    expect(driver.rules.map((x: { id: string }) => x.id)).toEqual(RULES.map((x) => x.id));
    const results = sarif.runs[0].results;
    expect(results).toHaveLength(3);
    for (const res of results) {
      expect(driver.rules[res.ruleIndex].id).toBe(res.ruleId);
      expect(res.level).toBe('error');
      expect(res.message.text.length).toBeGreaterThan(10);
      expect(res.locations[0].physicalLocation.artifactLocation.uri).toBe(BROKEN);
    }
    expect(results[0].locations[0].physicalLocation.region).toEqual({ startLine: 7, startColumn: 3 });
  });

  it('github: workflow annotations with file, line and column', async () => {
    const r = await cliInProcess(['lint-config', '--format', 'github', fx('pub-url-2.yaml'), BROKEN]);
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^::warning file=fixtures\/apps-config\/pub-url-2.yaml,line=3,col=3,title=CFG-URL-2::`listen.public_url` is a loopback/);
    expect(lines[1]).toMatch(/^::error file=fixtures\/apps-config\/pub-secret-1.yaml,line=7,col=3,title=CFG-SECRET-1::/);
    expect(lines.filter((l) => l.startsWith('::'))).toHaveLength(4);
    for (const l of lines.filter((x) => x.startsWith('::'))) expect(l).not.toMatch(/\n|\r/);
  });

  it('exit codes: 0 clean, 0 with warnings, 1 with warnings under --strict, 1 with errors', async () => {
    expect((await cliInProcess(['lint-config', fx('valid-claude-apps-gateway.yaml'), fx('valid-outline.yaml')])).code).toBe(0);
    const warn = await cliInProcess(['lint-config', fx('pub-session-2.yaml')]);
    expect(warn.code).toBe(0);
    expect(warn.stdout).toMatch(/warning CFG-SESSION-2/);
    expect((await cliInProcess(['lint-config', '--strict', fx('pub-session-2.yaml')])).code).toBe(1);
    expect((await cliInProcess(['lint-config', fx('valid-outline.yaml'), fx('outline-ref-1.yaml')])).code).toBe(1);
  });

  it('a file mixing both dialects: exit 1, naming which keys belong where', async () => {
    const r = await cliInProcess(['lint-config', fx('pub-mixed.yaml')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/error CFG-SCHEMA-1 the file mixes both dialects: `server`, `routing` belong to the outline .*; `listen`, `oidc`, `session`, `store` belong to the claude-apps-gateway schema/);
  });

  it('--dialect forces the schema', async () => {
    const r = await cliInProcess(['lint-config', '--dialect', 'outline', fx('valid-claude-apps-gateway.yaml')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/`listen` is not a known key: it belongs to the claude-apps-gateway dialect \(here: server\)/);
  });

  it('- reads standard input, reported as <stdin>', () => {
    const r = cliStdin(['lint-config', '-'], readFileSync(join(ROOT, BROKEN), 'utf8'));
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^<stdin>:7:3: error CFG-SECRET-1 /);
    const ok = cliStdin(['lint-config', '--format', 'json', '-', fx('valid-outline.yaml')], readFileSync(join(ROOT, fx('valid-outline.yaml')), 'utf8'));
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).files.map((f: { file: string }) => f.file)).toEqual(['<stdin>', fx('valid-outline.yaml')]);
  });

  it('not YAML: one line naming the line of the syntax error, exit 2, no report', async () => {
    const dir = tmp();
    const bad = join(dir, 'gateway.yaml');
    writeFileSync(bad, 'listen:\n  public_url: https://g.corp.example\noidc: [\n  issuer: x\n');
    const r = await cliInProcess(['lint-config', fx('valid-outline.yaml'), bad]);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(new RegExp(`^gw-conformance: error GWC-BAD-CONFIG: ${bad}:\\d+:\\d+: not valid YAML: `));
    expect(r.stdout).toBe('');
    const dup = join(dir, 'dup.yaml');
    writeFileSync(dup, 'listen: {}\noidc: {}\nlisten: {}\n');
    const d = await cliInProcess(['lint-config', dup]);
    expect(d.code).toBe(2);
    expect(oneLine(d.stderr)).toMatch(/dup.yaml:3:1: not valid YAML: Map keys must be unique/);
    const stdin = await cliInProcess(['lint-config', '-'], { input: 'a: b: c\n' });
    expect(stdin.code).toBe(2);
    expect(oneLine(stdin.stderr)).toMatch(/^gw-conformance: error GWC-BAD-CONFIG: <stdin>:1:\d+: not valid YAML: /);
  });

  it('unreadable file, bad flags: one line, exit 2', async () => {
    // Five calls side by side.
    const [missing, dir, fmt, none, out] = await Promise.all([
      cliInProcess(['lint-config', 'no/such/gateway.yaml']),
      cliInProcess(['lint-config', 'fixtures']),
      cliInProcess(['lint-config', '--format', 'xml', BROKEN]),
      cliInProcess(['lint-config']),
      cliInProcess(['lint-config', '--out', '/no/such/dir/x.json', BROKEN]),
    ]);
    expect(missing.code).toBe(2);
    expect(oneLine(missing.stderr)).toBe('gw-conformance: error GWC-BAD-CONFIG: no/such/gateway.yaml: cannot read the file (ENOENT)');
    expect(dir.code).toBe(2);
    expect(oneLine(dir.stderr)).toMatch(/fixtures: cannot read the file \(EISDIR\)/);
    expect(fmt.code).toBe(2);
    expect(oneLine(fmt.stderr)).toMatch(/^gw-conformance: error GWC-USAGE: .*--format.*xml.*Allowed choices/);
    expect(none.code).toBe(2);
    expect(oneLine(none.stderr)).toMatch(/^gw-conformance: error GWC-USAGE: missing required argument/);
    expect(out.code).toBe(2);
    expect(oneLine(out.stderr)).toMatch(/--out: cannot write \/no\/such\/dir\/x.json \(ENOENT\)/);
  });
});
