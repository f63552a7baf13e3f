// The harness against a real gateway: a plain nginx reverse proxy (examples/nginx/plain.conf)
// in front of the recording upstream. The outcome of every check, and the exit code, must be
// those recorded in examples/nginx/expected-plain.json, observed with a real nginx.
//
// Needs `nginx` on PATH and the built CLI (`npx tsc -p .`). Without nginx the test is skipped,
// unless GWC_REQUIRE_NGINX=1 (CI), where it fails.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort, nginxAvailable, startNginx, type RunningNginx } from './helpers/nginx.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONF = path.join(ROOT, 'examples', 'nginx', 'plain.conf');
const EXPECTED = path.join(ROOT, 'examples', 'nginx', 'expected-plain.json');
const CLI = path.join(ROOT, 'bin', 'gw-conformance.js');
const TEST_TIMEOUT_MS = 120_000;
// Below the test's own limit, so a hung run is reported with its output and nginx is stopped.
const CLI_TIMEOUT_MS = 100_000;

const required = process.env.GWC_REQUIRE_NGINX === '1';
const available = nginxAvailable();

interface Expected {
  exitCode: number;
  outcomes: Record<string, string>;
}

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

/** Two distinct free loopback ports. */
async function twoPorts(): Promise<[number, number]> {
  const a = await freePort();
  let b = await freePort();
  while (b === a) b = await freePort();
  return [a, b];
}

describe('plain nginx reverse proxy (examples/nginx/plain.conf)', () => {
  it.skipIf(!available && !required)(
    'every check has the outcome recorded in examples/nginx/expected-plain.json',
    async () => {
      if (!available) expect.fail('nginx is required: apt-get install nginx (GWC_REQUIRE_NGINX=1 is set and `nginx -v` failed)');
      if (!existsSync(path.join(ROOT, 'dist', 'src', 'cli.js'))) expect.fail('the CLI is not built: run `npx tsc -p .` first');
      const expected = JSON.parse(readFileSync(EXPECTED, 'utf8')) as Expected;

      const [listenPort, upstreamPort] = await twoPorts();
      const out = await mkdtemp(path.join(os.tmpdir(), 'gwc-nginx-report-'));
      let nginx: RunningNginx | undefined;
      try {
        nginx = await startNginx(CONF, { listenPort, upstreamPort });
        const run = await runCli(
          ['run', '--target', nginx.url, '--upstream-listen', `127.0.0.1:${upstreamPort}`, '--seed', '1', '--reporter', 'json', '--out', out],
          CLI_TIMEOUT_MS,
        );
        const context = [
          `gw-conformance exited with ${run.code ?? run.signal}${run.timedOut ? ` after being stopped at ${CLI_TIMEOUT_MS} ms` : ''}`,
          `stdout:\n${run.stdout}`,
          `stderr:\n${run.stderr}`,
          `nginx error log:\n${nginx.errorLog()}`,
        ].join('\n');
        const reportPath = path.join(out, 'report.json');
        if (!existsSync(reportPath)) expect.fail(`no report at ${reportPath}\n${context}`);

        const report = JSON.parse(readFileSync(reportPath, 'utf8')) as { results: Array<{ id: string; outcome: string; message: string }> };
        const outcomes = Object.fromEntries(report.results.map((r) => [r.id, r.outcome]));
        const notPassed = report.results.filter((r) => r.outcome !== 'pass').map((r) => `  ${r.id}: ${r.outcome}: ${r.message}`);
        const detail = `observed ${JSON.stringify({ exitCode: run.code, outcomes }, null, 2)}\nchecks that did not pass:\n${notPassed.join('\n') || '  (none)'}\n${context}`;
        expect(outcomes, detail).toEqual(expected.outcomes);
        expect(run.code, detail).toBe(expected.exitCode);
      } finally {
        await nginx?.stop();
        await rm(out, { recursive: true, force: true });
      }
    },
    TEST_TIMEOUT_MS,
  );
});
