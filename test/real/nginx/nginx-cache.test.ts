// ISO-1 and CACHE-KEY-1 through a real caching proxy: Debian's nginx with proxy_cache as its
// documentation shows it for an API, in front of the recording upstream. Keyed on the URL,
// Authorization and the request body (examples/nginx/cache-authorization.conf), it serves one
// x-api-key client's model lists and answers to another and to requests with no key, and one
// x-goog-api-key client's native list likewise: ISO-1's three checks fail. With every
// credential header in the key (cache-credential.conf) they pass. Both configs cache 200s for
// 10 minutes when the upstream declares no lifetime (proxy_cache_valid), and declare none to
// the client: the model list does not follow the upstream's (DISC-9, a warning).
//
// Needs `nginx` on PATH (the harness is called in this process; its checks here judge no time).
// Without nginx the test is skipped, unless GWC_REQUIRE_NGINX=1 (CI), where it fails.
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.js';
import { cliInProcess } from '../../helpers/in-process.js';
import { nginxAvailable } from '../../helpers/nginx.js';

const required = process.env.GWC_REQUIRE_NGINX === '1';
const available = nginxAvailable();
const ISO_1 = ['discovery.models.credential-cache', 'native.models.credential-cache', 'messages.response.credential-cache'];
const CHECKS = [...ISO_1, 'messages.response.cache-key', 'discovery.models.current'];

interface Result {
  id: string;
  outcome: string;
  message: string;
}

/** The five checks through nginx started from `conf` by the harness (--gateway-cmd): each check's result, and what to show when an expectation fails. */
async function throughCache(conf: string): Promise<{ byId: Record<string, Result>; detail: string }> {
  const out = await mkdtemp(path.join(os.tmpdir(), 'gwc-nginx-cache-'));
  try {
    const command = `sh ${path.join(ROOT, 'scripts', 'nginx-gateway.sh')} ${path.join(ROOT, 'examples', 'nginx', conf)} {listen_port} {upstream_port} {workdir}`;
    const run = await cliInProcess(['run', '--gateway-cmd', command, '--seed', '1', '--reporter', 'json', '--out', out, ...CHECKS.flatMap((c) => ['--only', c])], { timeoutMs: 40_000 });
    const reportPath = path.join(out, 'report.json');
    const detail = `gw-conformance exited with ${run.code} after ${run.ms} ms\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
    if (!existsSync(reportPath)) expect.fail(`no report at ${reportPath}\n${detail}`);
    const report = JSON.parse(readFileSync(reportPath, 'utf8')) as { results: Result[] };
    return { byId: Object.fromEntries(report.results.map((r) => [r.id, r])), detail: `${report.results.map((r) => `${r.id}: ${r.outcome}: ${r.message}`).join('\n')}\n${detail}` };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

describe('nginx proxy_cache in front of the recording upstream (examples/nginx/cache-*.conf)', () => {
  it.skipIf(!available && !required)(
    'keyed on Authorization only, ISO-1 fails on x-api-key and x-goog-api-key; keyed on every credential header, it passes',
    async () => {
      if (!available) expect.fail('nginx is required: apt-get install nginx (GWC_REQUIRE_NGINX=1 is set and `nginx -v` failed)');
      if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) expect.fail('the CLI is not built: run `npx tsc -p .` first');
      const [before, after] = await Promise.all([throughCache('cache-authorization.conf'), throughCache('cache-credential.conf')]);
      for (const id of ISO_1) {
        expect(before.byId[id]?.outcome, before.detail).toBe('fail');
        expect(after.byId[id]?.outcome, after.detail).toBe('pass');
      }
      // What is shared: the x-api-key client's entry with another key and with none (messages and the model list), the x-goog-api-key one's on the native list.
      expect(before.byId['discovery.models.credential-cache'].message).toMatch(/x-api-key, then another key: the second request was answered 200 from what the first got/);
      expect(before.byId['messages.response.credential-cache'].message).toMatch(/x-api-key, then no credential: the second request was answered 200 from what the first got/);
      expect(before.byId['native.models.credential-cache'].message).toMatch(/x-goog-api-key, then another key: the second request was answered 200 from what the first got/);
      expect(before.byId['discovery.models.credential-cache'].message, before.detail).not.toMatch(/bearer, then another key/);
      // CACHE-KEY-1: the body is in both keys; the credential only in the second.
      expect(before.byId['messages.response.cache-key']?.outcome, before.detail).toBe('fail');
      expect(before.byId['messages.response.cache-key'].message).toMatch(/^a request that differs in the credential \(another key in x-api-key\) was answered 200 from the first one's entry/);
      expect(after.byId['messages.response.cache-key']?.outcome, after.detail).toBe('pass');
      // DISC-9: proxy_cache_valid 200 10m keeps the list with no lifetime declared to the client.
      for (const r of [before, after]) expect(r.byId['discovery.models.current']?.outcome, r.detail).toBe('warn');
    },
    60_000,
  );
});
