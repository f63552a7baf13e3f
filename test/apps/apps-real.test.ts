// The real Claude apps gateway (claude gateway, 2.1.330) as a second system under test of the
// apps profile: inside a loopback-only network namespace (unshare -n) with the nonessential
// traffic, the autoupdater and telemetry off, a PostgreSQL cluster of Debian's postgresql started
// inside the same namespace, and the harness itself there too, running
// `run --profile apps --gateway-cmd '<claude> gateway --config {workdir}/gateway.yaml'`.
// The verdicts asserted are the ones observed (README, "What the real apps gateway does"), and
// the contract it serves at GET /protocol is the one the catalog was written against.
// Runs when the binary and PostgreSQL are there; GWC_REQUIRE_CLAUDE=1 / GWC_REQUIRE_POSTGRES=1
// (set by .ci/run) make their absence a failure.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPECTED_APPS_CONTRACT } from '../../src/core/apps-contract.js';
import { findClaude } from '../helpers/claude-gateway.js';
import { ROOT } from '../helpers/cli.js';

const PGBIN = process.env.GWC_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const havePg = existsSync(join(PGBIN, 'initdb')) && existsSync(join(PGBIN, 'pg_ctl'));
const claude = findClaude();
if (process.env.GWC_REQUIRE_POSTGRES === '1' && !havePg) throw new Error(`GWC_REQUIRE_POSTGRES=1 but no PostgreSQL binaries in ${PGBIN}`);
if (process.env.GWC_REQUIRE_CLAUDE === '1' && !claude) throw new Error('GWC_REQUIRE_CLAUDE=1 but no claude binary (GWC_CLAUDE_BIN, GWC_CLAUDE_DIR)');

/** Every apps check's verdict against claude gateway 2.1.330, observed; for a non-pass, a phrase of its message. */
const OBSERVED: Record<string, [string, string?]> = {
  'apps.disc.models': ['pass'],
  'apps.login.paths': ['pass'],
  'apps.authz.groups': ['pass'],
  'apps.device.flow': ['pass'],
  'apps.device.key-rotation': ['pass'],
  'apps.token.lifecycle': ['pass', 'no revocation_endpoint advertised'],
  'apps.token.idp-revoked': ['pass'],
  'apps.policy.models': ['pass'],
  'apps.route.upstream': ['pass'],
  'apps.spend.deny': ['fail', 'the spend denial does not state the limit, window'],
  'apps.spend.no-upstream': ['pass'],
  'apps.spend.restart': ['pass', 'still 429 after the restart'],
  // The telemetry half fails every time (no token counts are exported). The limit half depends on a
  // race in the product: when it sends the headers before the upstream's cut, it counts the cut
  // stream's usage; when it resets the client before any header, it does not (both seen).
  'apps.spend.usage': ['fail', 'no span of a JSON answer reached the collector'],
  'apps.tel.traces': ['fail', 'no span of the served request reached the collector'],
  'apps.tel.no-prompts': ['pass'],
  'apps.tel.spend-denial': ['warn', 'no span attributable to the spend denial of user-dave'],
  'apps.tel.collector-down': ['pass'],
  'apps.managed.settings': ['warn', "bob's empty policy was not served as 200 with empty settings"],
  // It expands ${GW_OTLP_TOKEN} in the eng policy's OTEL_EXPORTER_OTLP_HEADERS: the collector's /direct endpoint takes the export.
  'apps.tel.credential': ['pass', 'answers 401 without a credential and 200 with the headers they hand out'],
  'apps.protocol.contract': ['pass', 'the contract the catalog was written against'],
};

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe.runIf(havePg && claude)('the apps profile against the real Claude apps gateway (2.1.330), in a loopback-only namespace', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'gwc-apps-real-'));
    chmodSync(dir, 0o755);
    const pg = join(dir, 'pg');
    mkdirSync(pg);
    mkdirSync(join(dir, 'home'));
    // initdb refuses to run as root: the cluster belongs to the postgres user when we are root.
    if (process.getuid?.() === 0) {
      const id = (f: string) => Number(execFileSync('id', [f, 'postgres']).toString().trim());
      chownSync(pg, id('-u'), id('-g'));
      execFileSync('runuser', ['-u', 'postgres', '--', join(PGBIN, 'initdb'), '-D', join(pg, 'data'), '-A', 'trust', '-U', 'postgres'], { stdio: 'pipe' });
    } else execFileSync(join(PGBIN, 'initdb'), ['-D', join(pg, 'data'), '-A', 'trust', '-U', 'postgres'], { stdio: 'pipe' });
  }, 60_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** gw-conformance with `args` (or, `raw`, the command `args`), inside a fresh loopback-only namespace with its own PostgreSQL. */
  const inNamespace = (args: string[], timeoutMs: number, raw = false) =>
    new Promise<Ran>((resolve) => {
      const env = { PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin', HOME: join(dir, 'home'), TMPDIR: dir, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1', DISABLE_TELEMETRY: '1' };
      const p = spawn('unshare', ['-n', join(ROOT, 'test/helpers/apps-real-ns.sh'), PGBIN, join(dir, 'pg'), '--', ...(raw ? args : [process.execPath, join(ROOT, 'bin/gw-conformance.js'), ...args])], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      p.stdout.on('data', (d) => (stdout += d));
      p.stderr.on('data', (d) => (stderr += d));
      const timer = setTimeout(() => process.kill(-p.pid!, 'SIGKILL'), timeoutMs);
      p.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });

  const gatewayCmd = `${claude} gateway --config {workdir}/gateway.yaml`;

  it('gives the observed verdict on every apps check, the restart on PostgreSQL included', { timeout: 180_000 }, async () => {
    const out = join(dir, 'report');
    const r = await inNamespace(['run', '--profile', 'apps', '--gateway-cmd', gatewayCmd, '--apps-postgres-url', 'postgres://postgres@127.0.0.1:55432/gateway', '--seed', '1', '--reporter', 'json', '--out', out], 170_000);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    const seen = Object.fromEntries(report.results.map((x: { id: string; outcome: string; message: string }) => [x.id, [x.outcome, x.message]]));
    expect(Object.keys(seen).sort()).toEqual(Object.keys(OBSERVED).sort());
    for (const [id, [outcome, phrase]] of Object.entries(OBSERVED)) {
      expect(seen[id][0], `${id}: ${seen[id][1]}`).toBe(outcome);
      if (phrase) expect(seen[id][1], id).toContain(phrase);
    }
    // Its contract at GET /protocol is recorded: the one the catalog was written against.
    expect(report.gatewayContract).toMatchObject({ path: '/protocol', status: 200, digest: `sha256:${EXPECTED_APPS_CONTRACT.sha256}`, contentType: 'text/markdown; charset=utf-8' });
    // It was the real product: its banner, its audit lines, one restart.
    expect(report.launched.restarts).toBe(1);
    expect(report.launched.logTail.join('\n')).toMatch(/claude gateway listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(report.launched.logTail.join('\n')).toContain('"evt":"spend.blocked"');
    // No session token in the report.
    expect(readFileSync(join(out, 'report.json'), 'utf8')).not.toMatch(/eyJ[\w-]{8,}\.eyJ[\w-]{8,}\./);
  });

  it('started by the user with the configuration apps-config wrote (--target): the same verdicts, the restart not run (key rotation left out: the test above judges it)', { timeout: 180_000 }, async () => {
    const work = join(dir, 'target');
    mkdirSync(work);
    const out = join(work, 'report');
    const made = spawnSync(process.execPath, [join(ROOT, 'bin/gw-conformance.js'), 'apps-config', '--dialect', 'claude-apps-gateway', '--out', join(work, 'gateway.yaml'), '--postgres-url', 'postgres://postgres@127.0.0.1:55432/gateway'], { encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    // The default ports (the namespace's own loopback is empty): what examples/claude-apps-gateway/gateway.yaml shows.
    expect(readFileSync(join(work, 'gateway.yaml'), 'utf8')).toBe(readFileSync(join(ROOT, 'examples/claude-apps-gateway/gateway.yaml'), 'utf8'));
    const r = await inNamespace(['sh', '-c', `cd "${work}" && exec "$0" "$@"`, join(ROOT, 'test/helpers/apps-real-target.sh'), claude!, join(ROOT, 'bin/gw-conformance.js'), out, '47001', 'http://127.0.0.1:48080'], 170_000, true);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    const seen = Object.fromEntries(report.results.map((x: { id: string; outcome: string; message: string }) => [x.id, [x.outcome, x.message]]));
    const { 'apps.device.key-rotation': _rotation, ...others } = OBSERVED;
    const expected: Record<string, [string, string?]> = { ...others, 'apps.spend.restart': ['skip', 'needs --gateway-cmd to restart the gateway'] };
    expect(Object.keys(seen).sort()).toEqual(Object.keys(expected).sort());
    for (const [id, [outcome, phrase]] of Object.entries(expected)) {
      expect(seen[id][0], `${id}: ${seen[id][1]}`).toBe(outcome);
      if (phrase) expect(seen[id][1], id).toContain(phrase);
    }
    expect(readFileSync(join(work, 'gateway.log'), 'utf8')).toMatch(/claude gateway listening on http:\/\/127\.0\.0\.1:48080/);
  });

  it('a configuration it refuses at start (no store): exit 2, one line with the start of its output', { timeout: 60_000 }, async () => {
    const r = await inNamespace(['run', '--profile', 'apps', '--gateway-cmd', gatewayCmd, '--reporter', 'json', '--out', join(dir, 'refused')], 50_000);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^gw-conformance: error GWC-GATEWAY-START: --gateway-cmd exited with 1 before listening on 127\.0\.0\.1:\d+; output: claude gateway: \[ \{ "code": "invalid_type", .*"path": \[ "store" \], "message": "Required" \} \]\n$/);
  });
});
