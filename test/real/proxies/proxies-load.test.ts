// The load profile's limit checks through a real nginx with a limit configured as its
// documentation shows, keyed on the credential: a request rate (examples/nginx/limit.conf,
// limit_req) and requests open at once (limit-conn.conf, limit_conn). nginx's default answer over
// either limit (503, its HTML page, no retry-after) fails LIMIT-1; limit-429.conf and
// limit-conn-429.conf (status 429, a JSON error, retry-after with `always`) pass LIMIT-1 and
// LIMIT-2. And LOAD-2 through a plain nginx: every one of the streams open at once is held
// until its end (proxy_buffering). Verdicts only, never a figure.
//
// Needs `nginx` on PATH and the built CLI; without nginx skipped unless GWC_REQUIRE_NGINX=1 (CI).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.js';
import { cleanupAfterAll } from '../../helpers/cleanup.js';
import { loadRun as load } from '../../helpers/load-run.js';
import { nginxAvailable } from '../../helpers/nginx.js';

const { tempDir } = cleanupAfterAll();
const TEST_TIMEOUT_MS = 120_000;
const skip = !nginxAvailable() && process.env.GWC_REQUIRE_NGINX !== '1';
const nginxCmd = (conf: string) => `sh ${path.join(ROOT, 'scripts', 'nginx-gateway.sh')} ${path.join(ROOT, 'examples', 'nginx', conf)} {listen_port} {upstream_port} {workdir}`;

/** `run --profile load` with nginx from `conf`; the results by id and the exit code. */
async function loadRun(conf: string, args: string[]) {
  if (!nginxAvailable()) expect.fail('nginx is required (GWC_REQUIRE_NGINX=1): apt-get install nginx');
  return load(nginxCmd(conf), args, tempDir('gwc-proxies-load-'), TEST_TIMEOUT_MS - 10_000);
}

// Each limit as nginx's documentation shows it, and the same with the fix: the default answer
// over it (503, HTML, no retry-after) fails LIMIT-1; 429, a JSON error and retry-after pass both.
for (const { directive, files, limit } of [
  { directive: 'limit_req', files: ['limit.conf', 'limit-429.conf'], limit: 'rps=5' },
  { directive: 'limit_conn', files: ['limit-conn.conf', 'limit-conn-429.conf'], limit: 'concurrency=2' },
]) {
  const [asDocumented, fixed] = files;
  describe(`declared limits through nginx ${directive} (examples/nginx/${asDocumented} and ${fixed}, --declared-limit ${limit})`, () => {
    it.skipIf(skip)(`${asDocumented}: nginx's default answer over the limit (503, HTML, no retry-after) fails LIMIT-1; LIMIT-2 has no 429 to retry`, async () => {
      const r = await loadRun(asDocumented, ['--declared-limit', limit]);
      expect(r.by['load.limit.refused'].outcome, r.detail).toBe('fail');
      expect(r.by['load.limit.refused'].message, r.detail).toMatch(/over the limit: request \d+: status 503 with an HTML page$/);
      expect(r.by['load.limit.retry-after'].outcome, r.detail).toBe('skip');
      expect(r.code, r.detail).toBe(1);
    }, TEST_TIMEOUT_MS);

    it.skipIf(skip)(`${fixed}: 429, a JSON error and retry-after pass LIMIT-1 and LIMIT-2`, async () => {
      const r = await loadRun(fixed, ['--declared-limit', limit]);
      expect(r.by['load.limit.refused'].outcome, r.detail).toBe('pass');
      expect(r.by['load.limit.retry-after'].outcome, r.detail).toBe('pass');
      expect(r.code, r.detail).toBe(0);
    }, TEST_TIMEOUT_MS);
  });
}

describe('LOAD-2 through a plain nginx (examples/nginx/plain.conf)', () => {
  it.skipIf(skip)('every stream open at once is buffered until its end (proxy_buffering on)', async () => {
    const r = await loadRun('plain.conf', ['--only', 'load.streams.incremental']);
    expect(r.by['load.streams.incremental'].outcome, r.detail).toBe('fail');
    expect(r.by['load.streams.incremental'].message, r.detail).toMatch(/^24 of 24 streams open at once were not incremental: stream \d+: buffered until the end/);
    expect(r.code, r.detail).toBe(1);
  }, TEST_TIMEOUT_MS);
});
