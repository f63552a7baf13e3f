// The harness against a real gateway: Debian's nginx, with each config of examples/nginx/,
// in front of the recording upstream. The outcome of every check, and the exit code, must be
// those recorded in examples/nginx/expected-<config>.json, observed with a real nginx; with
// GWC_UPDATE_BASELINES=1 (`npm run baselines:update`) the run rewrites them (test/helpers/baselines.ts).
//
// Needs `nginx` on PATH and the built CLI (`npx tsc -p .`). Without nginx the test is skipped,
// unless GWC_REQUIRE_NGINX=1 (CI), where it fails.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { baselineProtocols, checkBaseline, observedOutcomes, protocolArgs } from '../../helpers/baselines.js';
import { nginxAvailable } from '../../helpers/nginx.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CLI = path.join(ROOT, 'bin', 'gw-conformance.js');
const TEST_TIMEOUT_MS = 120_000;
// Below the test's own limit, so a hung run is reported with its output and nginx is stopped.
const CLI_TIMEOUT_MS = 100_000;

const required = process.env.GWC_REQUIRE_NGINX === '1';
const available = nginxAvailable();

interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

function runCli(args: string[], timeoutMs: number): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    let killTimer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    }, timeoutMs);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(killTimer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}

/**
 * Runs the CLI with nginx started from `conf` by the harness itself (--gateway-cmd); returns the
 * report's outcomes (those of checks skipped for a protocol outside `protocols`, when given, left
 * out) and the exit code.
 */
async function throughNginx(conf: string, args: string[], protocols?: string[]) {
  const out = await mkdtemp(path.join(os.tmpdir(), 'gwc-nginx-report-'));
  try {
    const command = `sh ${path.join(ROOT, 'scripts', 'nginx-gateway.sh')} ${path.join(ROOT, 'examples', 'nginx', conf)} {listen_port} {upstream_port} {workdir}`;
    const run = await runCli(['run', '--gateway-cmd', command, '--seed', '1', '--reporter', 'json', '--out', out, ...args], CLI_TIMEOUT_MS);
    const reportPath = path.join(out, 'report.json');
    const report = existsSync(reportPath)
      ? (JSON.parse(readFileSync(reportPath, 'utf8')) as { results: Array<{ id: string; outcome: string; message: string }>; launched?: { logTail: string[] } })
      : undefined;
    const context = [
      `gw-conformance exited with ${run.code ?? run.signal}${run.timedOut ? ` after being stopped at ${CLI_TIMEOUT_MS} ms` : ''}`,
      `stdout:\n${run.stdout}`,
      `stderr:\n${run.stderr}`,
      `nginx output and error log (the report's launched.logTail):\n${report?.launched?.logTail.join('\n') ?? ''}`,
    ].join('\n');
    if (!report) expect.fail(`no report at ${reportPath}\n${context}`);
    const outcomes = protocols ? observedOutcomes(report.results, protocols) : Object.fromEntries(report.results.map((r) => [r.id, r.outcome]));
    const notPassed = report.results.filter((r) => r.outcome !== 'pass').map((r) => `  ${r.id}: ${r.outcome}: ${r.message}`);
    const detail = `observed ${JSON.stringify({ exitCode: run.code, outcomes }, null, 2)}\nchecks that did not pass:\n${notPassed.join('\n') || '  (none)'}\n${context}`;
    return { code: run.code, outcomes, results: report.results, detail };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

function preconditions() {
  if (!available) expect.fail('nginx is required: apt-get install nginx (GWC_REQUIRE_NGINX=1 is set and `nginx -v` failed)');
  if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) expect.fail('the CLI is not built: run `npx tsc -p .` first');
}

// Each config in examples/nginx/ has its observed verdicts in expected-<name>.json.
const CONFIGS = ['plain', 'streaming', 'hardened'].filter((name) => existsSync(path.join(ROOT, 'examples', 'nginx', `${name}.conf`)));

describe('nginx (examples/nginx/*.conf) in front of the recording upstream', () => {
  for (const name of CONFIGS) {
    it.skipIf(!available && !required)(
      `${name}.conf: every check has the outcome recorded in examples/nginx/expected-${name}.json`,
      async () => {
        preconditions();
        const file = path.join(ROOT, 'examples', 'nginx', `expected-${name}.json`);
        const protocols = baselineProtocols(file);
        const r = await throughNginx(`${name}.conf`, protocolArgs(protocols), protocols);
        checkBaseline(file, { protocols, exitCode: r.code, outcomes: r.outcomes }, { test: 'test/real/nginx/nginx.test.ts', detail: r.detail });
      },
      TEST_TIMEOUT_MS,
    );
  }

  // The idle probe (slow profile) with a 70 s silence: nginx's default proxy_read_timeout (60 s)
  // cuts plain.conf; streaming.conf (3600 s) survives. Both configs are probed at once, started
  // before the tests above: the probes only wait, so their 70 s pass while those run.
  const idleArgs = ['--only', 'streaming.idle.tolerance', '--idle-max-s', '70', '--idle-min-s', '65'];
  let idleRuns: Promise<Array<Awaited<ReturnType<typeof throughNginx>>>> | undefined;
  const startIdle = () => (idleRuns ??= Promise.all([throughNginx('plain.conf', idleArgs), throughNginx('streaming.conf', idleArgs)]));
  beforeAll(() => {
    if (available && existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) startIdle().catch(() => undefined); // the test awaits it and reports
  });
  it.skipIf(!available && !required)(
    'idle tolerance: plain.conf is cut after 60 s of silence, streaming.conf survives 70 s',
    async () => {
      preconditions();
      const [plain, streaming] = await startIdle();
      const idle = (r: typeof plain) => r.results.find((x) => x.id === 'streaming.idle.tolerance')!;
      expect(idle(plain).outcome, plain.detail).toBe('fail');
      // nginx times the silence from its last read; the probe measures from the upstream's last write.
      const cut = Number(/cut after ([\d.]+) s of silence without pings/.exec(idle(plain).message)?.[1]);
      expect(cut, plain.detail).toBeGreaterThanOrEqual(59);
      expect(cut, plain.detail).toBeLessThan(62);
      expect(idle(plain).message).toMatch(/survived 70 s of silence with pings/);
      expect(idle(streaming).outcome, streaming.detail).toBe('pass');
      expect(idle(streaming).message).toMatch(/^survived 70 s of silence without pings/);
    },
    TEST_TIMEOUT_MS,
  );
});
