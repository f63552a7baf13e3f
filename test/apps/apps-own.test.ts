// The apps profile against a gateway of one's own (the way a vendor tests their product): `apps-config` writes the
// configuration with fixed loopback addresses and a secrets file; `run --profile apps` starts
// the IdP, collector and upstreams there and checks a gateway started with them (--target), or
// writes {workdir}/gateway.yaml and starts the gateway itself (--gateway-cmd), restart included.
// The reference apps gateway stands in for the user's gateway; bad input ends in one line.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/in-process.js';
import { main } from '../../cli/main.js';
import { APPS_CHECKS } from '../../suites/apps/index.js';

const BIN = join(ROOT, 'bin/gw-conformance.js');
const node = `"${process.execPath}"`;
const reference = `${node} "${BIN}" reference --apps --config {workdir}/gateway.yaml --data-dir {workdir}/db`;
/**
 * How long the harness waits for a gateway these tests start to listen (each start, the restart
 * included; the stuck gateway below is a small script, and gets the same guard). The reference on a
 * quiet machine is ready 3.6 s after launch (report.launched.resources.coldStart.readyMs),
 * taking about a core for those seconds (PGlite's start); these tests run at the start of the
 * suite, beside seven other files and two hogs on two cores, where the default 30 s was once
 * not enough (CI, stop 52). 120 s is 33 times the quiet start: a guard against a gateway that
 * never listens, not a measure of how fast it starts.
 */
const READY = ['--ready-timeout-s', '120'];
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'gwc-apps-own-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A base port with five free ports after it (the IdP, the collector, three upstreams) and the gateway's port after those. */
async function freeBlock(): Promise<{ base: number; gateway: number }> {
  // Below the kernel's ephemeral range (32768 and up): no other test's outgoing connection can be
  // given one of these ports between this check and the run's listen, as an ephemeral port can.
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 12_000);
    const taken = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => new Promise<boolean>((r) => {
      const s = net.createServer();
      s.once('error', () => r(true));
      s.listen(base + i, '127.0.0.1', () => s.close(() => r(false)));
    })));
    if (!taken.some(Boolean)) return { base, gateway: base + 5 };
  }
}

async function writeConfig(dir: string) {
  const { base, gateway } = await freeBlock();
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['apps-config', '--out', join(dir, 'gateway.yaml'), '--port', String(gateway), '--ports-base', String(base)], { out: (s) => out.push(s), err: (s) => err.push(s), env: {}, untilStopped: async () => {} });
  const env = Object.fromEntries(readFileSync(join(dir, 'gateway.env'), 'utf8').trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  return { code, out, err, env, base, gateway };
}

/** Every file of the report folder, as text. */
const reportText = (dir: string) => readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');

function startReference(dir: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [BIN, 'reference', '--apps', '--config', join(dir, 'gateway.yaml')], { env: { ...process.env, ...env }, stdio: 'ignore' });
}

describe('apps-config', () => {
  it('writes the configuration with the harness-to-be addresses, and the secrets beside it (mode 0600), printing what the harness needs', async () => {
    const dir = tmp();
    const c = await writeConfig(dir);
    expect(c.code).toBe(0);
    expect(c.out).toEqual([]);
    const yaml = readFileSync(join(dir, 'gateway.yaml'), 'utf8');
    expect(yaml).toContain(`issuer: http://127.0.0.1:${c.base}`);
    expect(yaml).toContain(`url: http://127.0.0.1:${c.base + 1}`);
    for (const i of [2, 3, 4]) expect(yaml).toContain(`base_url: http://127.0.0.1:${c.base + i}`);
    expect(yaml).toContain(`public_url: http://127.0.0.1:${c.gateway}`);
    expect(statSync(join(dir, 'gateway.env')).mode & 0o777).toBe(0o600);
    expect(Object.keys(c.env)).toEqual(['GW_OIDC_SECRET', 'GW_JWT_SECRET', 'GW_ADMIN_WRITE', 'GW_UPSTREAM_KEY', 'GW_OTLP_TOKEN', 'CLAUDE_GATEWAY_ALLOW_LOOPBACK']);
    expect(c.env.GW_JWT_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(c.env.GW_ADMIN_WRITE.length).toBeGreaterThanOrEqual(32);
    const said = c.err.join('\n');
    expect(said).toContain(`IdP issuer: http://127.0.0.1:${c.base}`);
    expect(said).toContain(`telemetry collector (OTLP/HTTP): http://127.0.0.1:${c.base + 1}`);
    expect(said).toContain(`upstream default-up: http://127.0.0.1:${c.base + 4}`);
    expect(said).toMatch(/alice \(eng\), bob \(contractors\), carol \(no group\)/);
    for (const k of ['GW_OIDC_SECRET', 'GW_JWT_SECRET', 'GW_ADMIN_WRITE', 'GW_UPSTREAM_KEY', 'GW_OTLP_TOKEN']) expect(said + yaml).not.toContain(c.env[k]);
  });

  it('examples/claude-apps-gateway/gateway.yaml is what it writes with the default ports', async () => {
    const out: string[] = [];
    expect(await main(['apps-config', '--dialect', 'claude-apps-gateway', '--postgres-url', 'postgres://postgres@127.0.0.1:55432/gateway'], { out: (s) => out.push(s), err: () => {}, env: {}, untilStopped: async () => {} })).toBe(0);
    expect(`${out.join('\n')}\n`).toBe(readFileSync(join(ROOT, 'examples/claude-apps-gateway/gateway.yaml'), 'utf8'));
  });

  it('refuses to write the secrets inside a git work tree (one line, exit 2, nothing written) unless --force', async () => {
    const repo = tmp();
    mkdirSync(join(repo, '.git'));
    mkdirSync(join(repo, 'sub'));
    const out = join(repo, 'sub', 'gateway.yaml');
    const err: string[] = [];
    const io = { out: () => {}, err: (s: string) => err.push(s), env: {}, untilStopped: async () => {} };
    expect(await main(['apps-config', '--out', out], io)).toBe(2);
    expect(err).toEqual([`gw-conformance: error GWC-BAD-FLAG: apps-config: ${join(repo, 'sub', 'gateway.env')} would hold the gateway's secrets inside the git work tree ${repo}; write it elsewhere (--out), or give --force`]);
    expect(existsSync(out) || existsSync(join(repo, 'sub', 'gateway.env'))).toBe(false);
    expect(await main(['apps-config', '--out', out, '--force'], io)).toBe(0);
    expect(statSync(join(repo, 'sub', 'gateway.env')).mode & 0o777).toBe(0o600);
  });

  it('bad ports: one line, exit 2', async () => {
    const err: string[] = [];
    const io = { out: () => {}, err: (s: string) => err.push(s), env: {}, untilStopped: async () => {} };
    expect(await main(['apps-config', '--ports-base', '65533'], io)).toBe(2);
    expect(await main(['apps-config', '--port', '47002'], io)).toBe(2);
    expect(err).toEqual(['gw-conformance: error GWC-BAD-FLAG: --ports-base: expected a port number up to 65531, got "65533"', "gw-conformance: error GWC-BAD-FLAG: --port 47002 is one of the harness's ports (47001-47005, from --ports-base)"]);
  });
});

describe('run --profile apps --gateway-cmd (the reference, PGlite in {workdir})', () => {
  // Two starts of up to READY each, and the checks' own minute.
  it('passes every apps check, the restart included', { timeout: 330_000 }, async () => {
    const out = join(tmp(), 'r');
    const r = await cliInProcess(['run', '--profile', 'apps', '--gateway-cmd', reference, ...READY, '--seed', '1', '--reporter', 'json', '--out', out], { timeoutMs: 320_000 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/started the gateway \(--gateway-cmd\) at http:\/\/127\.0\.0\.1:\d+ with .*gateway\.yaml/);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.results.filter((x: { outcome: string }) => x.outcome !== 'pass').map((x: { id: string; message: string }) => `${x.id}: ${x.message}`)).toEqual([]);
    expect(report.results.map((x: { id: string }) => x.id).sort()).toEqual(APPS_CHECKS.map((c) => c.id).sort());
    expect(report.results.find((x: { id: string }) => x.id === 'apps.spend.restart').message).toBe('still 429 after the restart, for JSON requests and streamed requests');
    expect(report.launched.restarts).toBe(1);
    // Its configuration's references were filled from the environment the harness gave it; the values are in no report.
    expect(report.launched.logTail[0]).toMatch(/reference apps gateway listening on .* \(store: PGlite in .*\/db\)/);
  });

  it('a gateway that refuses its configuration at start: exit 2, one line with its output', { timeout: 150_000 }, async () => {
    const r = await cliInProcess(['run', '--profile', 'apps', '--gateway-cmd', reference, ...READY, '--gateway-env', 'GW_JWT_SECRET=', '--reporter', 'json', '--out', join(tmp(), 'r')], { timeoutMs: 140_000 });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^gw-conformance: error GWC-GATEWAY-START: --gateway-cmd exited with 2 before listening on 127\.0\.0\.1:\d+; last output: gw-conformance: error GWC-BAD-CONFIG: apps gateway configuration: session\.jwt_secret: expected a non-empty string\n$/);
  });

  it('a gateway that never finishes sign-in: the sign-in check fails with the steps as evidence, within its limit', { timeout: 180_000 }, async () => {
    const out = join(tmp(), 'r');
    const stuck = `${node} "${join(ROOT, 'test/helpers/apps-stuck-gateway.mjs')}" {listen_port}`;
    const r = await cliInProcess(['run', '--profile', 'apps', '--gateway-cmd', stuck, ...READY, '--only', 'apps.device.flow', '--reporter', 'json', '--out', out], { timeoutMs: 170_000 });
    expect(r.code, r.stderr).toBe(1);
    const [res] = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).results;
    // A fail, not a timeout: the check's own wait for the step ended it, before the runner's limit
    // for the check (its wall time is not held to a figure: a loaded loop stretches the wait).
    expect(res.outcome).toBe('fail');
    expect(res.message).toMatch(/no answer after "verification page: 200" \(TimeoutError/);
  });
});

describe('run --profile apps --target --apps-config (the reference started by the user)', () => {
  it('passes every apps check but the restart, which is not run and says why; no secret in any report', { timeout: 120_000 }, async () => {
    const dir = tmp();
    const c = await writeConfig(dir);
    const out = join(dir, 'r');
    const run = cliInProcess(['run', '--profile', 'apps', '--apps-config', join(dir, 'gateway.yaml'), '--target', `http://127.0.0.1:${c.gateway}`, '--seed', '2', '--reporter', 'json', '--reporter', 'junit', '--reporter', 'html', '--out', out], { timeoutMs: 110_000 });
    // The gateway starts after the harness (it reads the IdP's discovery document at boot): the harness waits for it.
    // Polls the IdP's port (the harness gives no other sign), until it listens or the run ended.
    let ended = false;
    void run.then(() => (ended = true));
    const connects = () => new Promise<boolean>((r) => net.connect(c.base, '127.0.0.1').once('connect', function (this: net.Socket) { this.destroy(); r(true); }).once('error', () => r(false)));
    while (!ended && !(await connects())) await new Promise((r) => setTimeout(r, 25));
    expect(ended, 'the run ended before its IdP listened').toBe(false);
    const gw = startReference(dir, c.env);
    try {
      const r = await run;
      expect(r.code, r.stdout + r.stderr).toBe(0);
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
      const notPass = report.results.filter((x: { outcome: string }) => x.outcome !== 'pass').map((x: { id: string; outcome: string; message: string }) => `${x.id}: ${x.outcome}: ${x.message}`);
      expect(notPass).toEqual(['apps.spend.restart: skip: not run: needs --gateway-cmd to restart the gateway (this run checks a gateway it did not start)']);
      const all = reportText(out) + r.stdout + r.stderr;
      for (const k of ['GW_OIDC_SECRET', 'GW_JWT_SECRET', 'GW_ADMIN_WRITE', 'GW_UPSTREAM_KEY', 'GW_OTLP_TOKEN']) {
        expect(all).not.toContain(c.env[k]);
        expect(all).not.toContain(Buffer.from(c.env[k]).toString('base64'));
      }
    } finally {
      gw.kill('SIGTERM');
    }
  });

  it('a port of the harness in use: exit 2, one line naming it', { timeout: 60_000 }, async () => {
    const dir = tmp();
    const c = await writeConfig(dir);
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(c.base + 1, '127.0.0.1', r));
    try {
      const r = await cliInProcess(['run', '--profile', 'apps', '--apps-config', join(dir, 'gateway.yaml'), '--target', `http://127.0.0.1:${c.gateway}`, '--reporter', 'json', '--out', join(dir, 'r')], { timeoutMs: 50_000 });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`gw-conformance: error GWC-PORT-IN-USE: telemetry collector: 127.0.0.1:${c.base + 1} is already in use\n`);
    } finally {
      blocker.close();
    }
  });

  it('no gateway within --ready-timeout-s: exit 2, one line with the diagnosis', { timeout: 60_000 }, async () => {
    const dir = tmp();
    const c = await writeConfig(dir);
    const r = await cliInProcess(['run', '--profile', 'apps', '--apps-config', join(dir, 'gateway.yaml'), '--ready-timeout-s', '1', '--reporter', 'json', '--out', join(dir, 'r')], { timeoutMs: 50_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`gw-conformance: error GWC-GATEWAY-START: the apps gateway at http://127.0.0.1:${c.gateway} was not ready within 1 s (GET /.well-known/oauth-authorization-server: ECONNREFUSED); start it with the configuration apps-config wrote, or raise --ready-timeout-s\n`);
  });

  it('bad input: no way to reach a gateway, a missing secrets file, both modes at once', async () => {
    const dir = tmp();
    const err: string[] = [];
    const io = { out: () => {}, err: (s: string) => err.push(s), env: {}, untilStopped: async () => {} };
    expect(await main(['run', '--profile', 'apps', '--target', 'http://127.0.0.1:9'], io)).toBe(2);
    expect(await main(['run', '--profile', 'apps', '--apps-config', join(dir, 'none.yaml')], io)).toBe(2);
    expect(await main(['run', '--profile', 'apps', '--apps-config', join(dir, 'none.yaml'), '--gateway-cmd', 'true'], io)).toBe(2);
    expect(err).toEqual([
      'gw-conformance: error GWC-BAD-FLAG: --profile apps needs --gateway-cmd, or --target with --apps-config <gateway.yaml> (written by `gw-conformance apps-config --out gateway.yaml`); without a gateway: `gw-conformance demo --profile apps`',
      `gw-conformance: error GWC-BAD-CONFIG: cannot read ${join(dir, 'none.yaml')}: ENOENT`,
      'gw-conformance: error GWC-BAD-FLAG: give --apps-config (with --target: a gateway you started) or --gateway-cmd (the harness writes {workdir}/gateway.yaml), not both',
    ]);
  });
});
