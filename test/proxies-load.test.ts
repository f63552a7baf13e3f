// The load profile's limit checks through a real nginx with a limit configured as its
// documentation shows (examples/nginx/limit.conf: limit_req keyed on the credential): nginx's
// default answer over the limit (503, its HTML page, no retry-after) fails LIMIT-1, and
// limit-429.conf (limit_req_status 429, a JSON error, retry-after with `always`) passes LIMIT-1
// and LIMIT-2. And LOAD-2 through a plain nginx: every one of the streams open at once is held
// until its end (proxy_buffering). Verdicts only, never a figure.
//
// Needs `nginx` on PATH and the built CLI; without nginx skipped unless GWC_REQUIRE_NGINX=1 (CI).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ROOT } from './helpers/cli.js';
import { cleanupAfterAll } from './helpers/cleanup.js';
import { nginxAvailable } from './helpers/nginx.js';

const { tempDir } = cleanupAfterAll();
const TEST_TIMEOUT_MS = 120_000;
const skip = !nginxAvailable() && process.env.GWC_REQUIRE_NGINX !== '1';
const nginxCmd = (conf: string) => `sh ${path.join(ROOT, 'scripts', 'nginx-gateway.sh')} ${path.join(ROOT, 'examples', 'nginx', conf)} {listen_port} {upstream_port} {workdir}`;

type Result = { id: string; outcome: string; message: string };
/** `run --profile load` with nginx from `conf`; the results by id and the exit code. */
async function loadRun(conf: string, args: string[]) {
  if (!nginxAvailable()) expect.fail('nginx is required (GWC_REQUIRE_NGINX=1): apt-get install nginx');
  if (!existsSync(path.join(ROOT, 'dist', 'src', 'cli.js'))) expect.fail('the CLI is not built: run `npx tsc -p .` first');
  const out = tempDir('gwc-proxies-load-');
  const r = await cli(['run', '--profile', 'load', '--gateway-cmd', nginxCmd(conf), '--seed', '1', '--reporter', 'json', '--out', out, ...args], { timeoutMs: TEST_TIMEOUT_MS - 10_000 });
  const file = path.join(out, 'report.json');
  if (!existsSync(file)) expect.fail(`no report\nexit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
  const report = JSON.parse(readFileSync(file, 'utf8')) as { results: Result[] };
  const by = Object.fromEntries(report.results.map((x) => [x.id, x]));
  return { code: r.code, by, detail: report.results.map((x) => `${x.id}: ${x.outcome}: ${x.message}`).join('\n') };
}

describe('declared limits through nginx limit_req (examples/nginx/limit*.conf, --declared-limit rps=5)', () => {
  it.skipIf(skip)('limit.conf: nginx\'s default answer over the limit (503, HTML, no retry-after) fails LIMIT-1; LIMIT-2 has no 429 to retry', async () => {
    const r = await loadRun('limit.conf', ['--declared-limit', 'rps=5']);
    expect(r.by['load.limit.refused'].outcome, r.detail).toBe('fail');
    expect(r.by['load.limit.refused'].message, r.detail).toMatch(/over the limit: request \d+: status 503 with an HTML page$/);
    expect(r.by['load.limit.retry-after'].outcome, r.detail).toBe('skip');
    expect(r.code, r.detail).toBe(1);
  }, TEST_TIMEOUT_MS);

  it.skipIf(skip)('limit-429.conf: 429, a JSON error and retry-after pass LIMIT-1 and LIMIT-2', async () => {
    const r = await loadRun('limit-429.conf', ['--declared-limit', 'rps=5']);
    expect(r.by['load.limit.refused'].outcome, r.detail).toBe('pass');
    expect(r.by['load.limit.retry-after'].outcome, r.detail).toBe('pass');
    expect(r.code, r.detail).toBe(0);
  }, TEST_TIMEOUT_MS);
});

describe('LOAD-2 through a plain nginx (examples/nginx/plain.conf)', () => {
  it.skipIf(skip)('every stream open at once is buffered until its end (proxy_buffering on)', async () => {
    const r = await loadRun('plain.conf', ['--only', 'load.streams.incremental']);
    expect(r.by['load.streams.incremental'].outcome, r.detail).toBe('fail');
    expect(r.by['load.streams.incremental'].message, r.detail).toMatch(/^24 of 24 streams open at once were not incremental: stream \d+: buffered until the end/);
    expect(r.code, r.detail).toBe(1);
  }, TEST_TIMEOUT_MS);
});
