// The harness starts the gateway (--gateway-cmd, src/launch/launch.ts), the mock-first path
// with file reporters only, and bad input: each a one-line exit 2, fast. The harness is called in
// this process (test/helpers/in-process.ts); the gateway it starts is the built CLI's reference
// gateway (`npx tsc -p tsconfig.json` first), a process, as a user's gateway is.
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchGateway } from '../../../src/launch/launch.js';
import { GatewayClient } from '../../../src/client/gateway.js';
import { ReferenceGateway } from '../../../reference/gateway.js';
import { freePort, ROOT } from '../../helpers/cli.js';
import { cliInProcess, startInProcess } from '../../helpers/in-process.js';
import { cleanupAfterAll } from '../../helpers/cleanup.js';
import { NO_TIMING_CHECKS } from '../../helpers/untimed.js';

const CLI = join(ROOT, 'bin', 'gw-conformance.js');
const { cleanup, tempDir } = cleanupAfterAll();
const outDir = () => tempDir('gwc-launch-');
const readReport = (dir: string) => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
/** The reference gateway as a command for --gateway-cmd. */
const REFERENCE_CMD = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} reference --listen 127.0.0.1:{listen_port} --upstream {upstream_url}`;

describe('--gateway-cmd', () => {
  it('starts the command on free ports, waits for it, captures its output (masked) and stops it', async () => {
    const out = outDir();
    const SECRET = 'sk-gwc-LAUNCH-SECRET-99';
    const cmd = `echo "starting with token ${SECRET} in {workdir} env=$GW_EXTRA"; exec ${REFERENCE_CMD}`;
    const r = await cliInProcess(['run', '--gateway-cmd', cmd, '--gateway-env', 'GW_EXTRA=port-{upstream_port}', '--token', SECRET, '--only', 'messages.path.preserved', '--only', 'chat.path.preserved', '--reporter', 'json', '--out', out], { timeoutMs: 60_000 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/started the gateway \(--gateway-cmd\) at http:\/\/127\.0\.0\.1:\d+, forwarding to http:\/\/127\.0\.0\.1:\d+/);
    const report = readReport(out);
    expect(report.summary).toMatchObject({ total: 2, pass: 2 });
    expect(report.launched.kind).toBe('command');
    expect(report.target).toBe(report.launched.target);
    const upstreamPort = new URL(report.upstream).port;
    const tail = report.launched.logTail.join('\n');
    expect(tail).toMatch(new RegExp(`starting with token \\*\\*\\* in /\\S+gwc-gateway-\\S+ env=port-${upstreamPort}`));
    expect(tail).toContain(`reference gateway listening on ${report.target}, forwarding to ${report.upstream}`);
    expect(JSON.stringify(report)).not.toContain(SECRET);
    // Stopped at the end: nothing listens on its port any more.
    const probe = net.connect({ host: '127.0.0.1', port: Number(new URL(report.target).port) });
    const [err] = (await once(probe, 'error')) as [NodeJS.ErrnoException];
    expect(err.code).toBe('ECONNREFUSED');
  }, 60_000);

  it('ctx.gateway.restart() stops the process group and starts the command again on the same port', async () => {
    const upstream = new ReferenceGateway({ upstream: 'http://127.0.0.1:9' });
    const upstreamUrl = await upstream.start('127.0.0.1', 0);
    cleanup.push(() => upstream.stop());
    // A gateway that says which process answers.
    const cmd = `exec ${JSON.stringify(process.execPath)} -e "require('http').createServer((q,s)=>s.end(String(process.pid))).listen({listen_port},'127.0.0.1')"`;
    const gw = await launchGateway({ cmd, env: [], args: [], upstreamUrl, upstreamPort: Number(new URL(upstreamUrl).port), startTimeoutMs: 10_000, secrets: [] });
    cleanup.push(() => gw.stop());
    const client = new GatewayClient(gw.target, { token: 't', timeoutMs: 5000, launcher: gw });
    const view = Object.create(client) as GatewayClient; // as the runner hands it to a check
    expect(view.canRestart).toBe(true);
    const first = (await view.send({ path: '/' })).text();
    await view.restart();
    const second = (await view.send({ path: '/' })).text();
    expect(Number(second)).toBeGreaterThan(0);
    expect(second).not.toBe(first);
    expect(gw.info().restarts).toBe(1);
    await client.close();
    await gw.stop();
    const probe = net.connect({ host: '127.0.0.1', port: Number(new URL(gw.target).port) });
    const [err] = (await once(probe, 'error')) as [NodeJS.ErrnoException];
    expect(err.code).toBe('ECONNREFUSED');
    // A client of a gateway the harness did not start cannot restart it.
    const plain = new GatewayClient(gw.target, { token: 't', timeoutMs: 1000 });
    expect(plain.canRestart).toBe(false);
    await expect(plain.restart()).rejects.toThrow(/did not start the gateway/);
    await plain.close();
  }, 30_000);
});

describe('the mock-first path with file reporters only', () => {
  it('mock, then run --reporter json --reporter junit for more than 10 s: a report and exit 0', async () => {
    const port = await freePort();
    const mock = startInProcess(['mock', '--listen', `127.0.0.1:${port}`], { timeoutMs: 190_000 });
    cleanup.push(() => mock.stop());
    await mock.line(/recording upstream listening/);
    // The gateway is configured for the mock's address.
    const gw = new ReferenceGateway({ upstream: `http://127.0.0.1:${port}`, upstreamTimeoutMs: 2000 });
    const target = await gw.start('127.0.0.1', 0);
    cleanup.push(() => gw.stop());
    const out = outDir();
    // One check at a time and the idle probes (10 s, and 16 s with pings) make the run long enough to outlast the 10 s
    // header time-out of old; the stream timing checks are left out (NO_TIMING_CHECKS): exit 0
    // must not depend on how loaded the machine is.
    const r = await cliInProcess(['run', '--target', target, '--upstream-listen', `127.0.0.1:${port}`, '--reporter', 'json', '--reporter', 'junit', '--concurrency', '1', '--out', out, ...NO_TIMING_CHECKS], { timeoutMs: 180_000 });
    // File reporters only: the result in one line on stderr, nothing else.
    expect(r.stderr).toMatch(/^gw-conformance: \d+ pass(, \d+ skip)? in \d+\.\d s: every MUST check passed; report: \S+report\.json\n$/);
    expect(r.code, r.stdout).toBe(0);
    const report = readReport(out);
    expect(report.durationMs).toBeGreaterThan(10_000);
    expect(report.readiness.ready).toBe(true);
    expect(existsSync(join(out, 'junit.xml'))).toBe(true);
    expect(r.stdout).toContain('using the recording upstream of the running `gw-conformance mock`');
  }, 200_000);
});

/** Caught before the run starts: no readiness wait, no check ran, no report written. */
function caughtBeforeTheRun(r: { stdout: string; stderr: string }, out: string): void {
  expect(r.stdout + r.stderr).not.toMatch(/waiting up to|gateway ready|^(PASS|FAIL|WARN|SKIP) /m);
  expect(existsSync(join(out, 'report.json')), 'no report of a run that never started').toBe(false);
}

describe('bad input: one line, exit 2, caught before the run starts', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['an unknown protocol', ['--target', 'http://127.0.0.1:1', '--protocols', 'messages,bogus'], /--protocols: unknown protocol "bogus"/],
    ['an unknown protocol in --base-path', ['--target', 'http://127.0.0.1:1', '--base-path', 'bogus=/x'], /--base-path: unknown protocol "bogus"/],
    ['a base path without a leading slash', ['--target', 'http://127.0.0.1:1', '--base-path', 'messages=anthropic'], /--base-path messages: a base path starts with "\/", got "anthropic"/],
    ['a header without =', ['--target', 'http://127.0.0.1:1', '--header', 'messages:x-provider'], /--header: expected \[PROTOCOL:\]NAME=VALUE, got "messages:x-provider"/],
    ['an unknown placeholder in a header', ['--target', 'http://127.0.0.1:1', '--header', 'x-up={upstream_url}'], /--header: unknown placeholder "\{upstream_url\}"/],
    ['an unknown placeholder in --gateway-cmd', ['--gateway-cmd', 'gateway --port {port}'], /--gateway-cmd: unknown placeholder "\{port\}" \(known: \{upstream_url\}, \{upstream_port\}, \{listen_port\}, \{workdir\}, \{upstream_ca\}\)/],
    ['a gateway command that exits at once', ['--gateway-cmd', 'echo "config error: no such file"; echo second line >&2; exit 3'], /--gateway-cmd exited with 3 before listening on 127\.0\.0\.1:\d+; last output: config error: no such file \| second line/],
    ['both --gateway-cmd and --gateway-image', ['--gateway-cmd', 'x', '--gateway-image', 'y'], /give one of them/],
    ['--gateway-env without =', ['--gateway-cmd', 'x', '--gateway-env', 'NOPE'], /--gateway-env: expected NAME=VALUE, got "NOPE"/],
    ['no target and no gateway to start', [], /--target is required/],
  ];
  for (const [what, args, re] of cases) {
    it(what, async () => {
      const out = outDir();
      const r = await cliInProcess(['run', ...args, '--reporter', 'json', '--out', out], { timeoutMs: 20_000, env: { GWC_TARGET: '' } });
      expect(r.code, r.stdout + r.stderr).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(re);
      caughtBeforeTheRun(r, out);
    });
  }

  it('an upstream port already taken (not by a mock)', async () => {
    const holder = net.createServer((s) => s.destroy());
    holder.listen(0, '127.0.0.1');
    await once(holder, 'listening');
    cleanup.push(() => holder.close());
    const port = (holder.address() as net.AddressInfo).port;
    const out = outDir();
    const r = await cliInProcess(['run', '--gateway-cmd', REFERENCE_CMD, '--upstream-listen', `127.0.0.1:${port}`, '--reporter', 'json', '--out', out], { timeoutMs: 20_000 });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(new RegExp(`127\\.0\\.0\\.1:${port}.*(in use|taken)`, 'i'));
    caughtBeforeTheRun(r, out);
  });
});
