// TLS and HTTP/2 through real TLS terminators from Debian packages: nginx (`ssl http2`,
// examples/nginx/tls.conf and tls-upstream.conf) and Caddy (examples/caddy/). The default suite
// over https+h2 must give the verdicts of plain HTTP/1.1 through the same proxy: for nginx those
// recorded for streaming.conf (test/real/nginx/nginx.test.ts proves them), for Caddy a plain run of the same
// Caddyfile settings in this file. The upstream over TLS (--upstream-tls) too, and Caddy speaks
// HTTP/2 to it when the upstream offers it (--upstream-http2).
//
// Needs `nginx` and `caddy` on PATH and the built CLI; without one, its tests are skipped unless
// GWC_REQUIRE_NGINX=1 / GWC_REQUIRE_CADDY=1 (CI), where they fail.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { baselineProtocols, observedOutcomes, protocolArgs } from '../../helpers/baselines.js';
import { cli, ROOT } from '../../helpers/cli.js';
import { cleanupAfterAll } from '../../helpers/cleanup.js';
import { nginxAvailable } from '../../helpers/nginx.js';
import { makeCerts, type TestCerts } from '../../helpers/tls.js';

const { tempDir } = cleanupAfterAll();
const TEST_TIMEOUT_MS = 150_000;
const nginx = { available: nginxAvailable(), required: process.env.GWC_REQUIRE_NGINX === '1' };
const caddy = { available: spawnSync('caddy', ['version'], { stdio: 'ignore' }).status === 0, required: process.env.GWC_REQUIRE_CADDY === '1' };

let certs: TestCerts;
beforeAll(async () => {
  certs = await makeCerts(tempDir('gwc-tls-proxy-certs-'));
});

interface Run {
  code: number | null;
  outcomes: Record<string, string>;
  transport: { negotiated: string; upstreamHttpVersions?: Record<string, number> };
  detail: string;
}

/**
 * The default suite (seed 1) with the gateway started by `command`; its outcomes (those of checks
 * skipped for a protocol outside `protocols`, when given, left out), exit code and transport.
 */
async function suite(command: string, args: string[], protocols?: string[]): Promise<Run> {
  if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) expect.fail('the CLI is not built: run `npx tsc -p .` first');
  const out = tempDir('gwc-tls-proxy-out-');
  const r = await cli(['run', '--gateway-cmd', command, '--seed', '1', '--reporter', 'json', '--out', out, ...args], { timeoutMs: TEST_TIMEOUT_MS - 10_000 });
  const file = path.join(out, 'report.json');
  const context = `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
  if (!existsSync(file)) expect.fail(`no report\n${context}`);
  const report = JSON.parse(readFileSync(file, 'utf8')) as { results: Array<{ id: string; outcome: string; message: string; durationMs: number; evidence?: { client?: { error?: string | null } } }>; transport: Run['transport']; launched?: { logTail: string[] } };
  const outcomes = protocols ? observedOutcomes(report.results, protocols) : Object.fromEntries(report.results.map((x) => [x.id, x.outcome]));
  // With the client's own error and the check's duration: what to go on when a verdict differs once in CI.
  const notPassed = report.results.filter((x) => x.outcome !== 'pass').map((x) => `  ${x.id}: ${x.outcome} after ${x.durationMs} ms: ${x.message}${x.evidence?.client?.error ? ` [client: ${x.evidence.client.error}]` : ''}`);
  return { code: r.code, outcomes, transport: report.transport, detail: `checks that did not pass:\n${notPassed.join('\n')}\n${context}\nproxy log:\n${report.launched?.logTail.join('\n') ?? ''}` };
}

/** The checks whose verdicts differ between two runs, as `id: a -> b`. */
function differences(a: Record<string, string>, b: Record<string, string>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((id) => a[id] !== b[id]).map((id) => `${id}: ${a[id]} -> ${b[id]}`);
}

const nginxCmd = (conf: string, upstreamCa: boolean) =>
  [
    ...(upstreamCa ? ['cp {upstream_ca} {workdir}/upstream-ca.pem'] : []),
    `cp ${certs.gateway.cert} {workdir}/gateway.pem`,
    `cp ${certs.gateway.key} {workdir}/gateway-key.pem`,
    `sh ${path.join(ROOT, 'scripts', 'nginx-gateway.sh')} ${path.join(ROOT, 'examples', 'nginx', conf)} {listen_port} {upstream_port} {workdir}`,
  ].join(' && ');

const caddyCmd = (file: string, scheme: 'http' | 'https', upstreamCa: boolean) =>
  [
    `GWC_SITE=${scheme}://127.0.0.1:{listen_port} GWC_UPSTREAM={upstream_url} GWC_CERT=${certs.gateway.cert} GWC_KEY=${certs.gateway.key}`,
    upstreamCa ? 'GWC_UPSTREAM_CA={upstream_ca}' : '',
    // Caddy keeps its state under XDG folders: the run's own work folder.
    'XDG_DATA_HOME={workdir} XDG_CONFIG_HOME={workdir}',
    `exec caddy run --adapter caddyfile --config ${path.join(ROOT, 'examples', 'caddy', file)}`,
  ].join(' ');

const TLS_ARGS = () => ['--ca-file', certs.ca, '--http2', 'h2'];

describe('nginx with `ssl http2`: the verdicts of plain HTTP/1.1 through streaming.conf', () => {
  const baseline = path.join(ROOT, 'examples', 'nginx', 'expected-streaming.json');
  const expected = JSON.parse(readFileSync(baseline, 'utf8')) as { exitCode: number; outcomes: Record<string, string> };
  // The protocols the baseline was observed with, declared by these runs too.
  const protocols = baselineProtocols(baseline, {});
  const skip = !nginx.available && !nginx.required;
  const pre = () => nginx.available || expect.fail('nginx is required (GWC_REQUIRE_NGINX=1): apt-get install nginx');

  it.skipIf(skip)(
    'tls.conf over https+h2',
    async () => {
      pre();
      const r = await suite(nginxCmd('tls.conf', false), [...TLS_ARGS(), ...protocolArgs(protocols)], protocols);
      expect(r.transport.negotiated, r.detail).toBe('h2');
      expect(differences(expected.outcomes, r.outcomes), r.detail).toEqual([]);
      expect(r.code, r.detail).toBe(expected.exitCode);
    },
    TEST_TIMEOUT_MS,
  );

  it.skipIf(skip)(
    'tls-upstream.conf: https+h2 to nginx, nginx over TLS to the recording upstream (proxy_ssl_verify against {upstream_ca})',
    async () => {
      pre();
      const r = await suite(nginxCmd('tls-upstream.conf', true), [...TLS_ARGS(), '--upstream-tls', ...protocolArgs(protocols)], protocols);
      expect(differences(expected.outcomes, r.outcomes), r.detail).toEqual([]);
      expect(r.code, r.detail).toBe(expected.exitCode);
      // nginx speaks HTTP/1.1 to its upstreams (proxy_http_version 1.1).
      expect(Object.keys(r.transport.upstreamHttpVersions ?? {}), r.detail).toEqual(['1.1']);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('Caddy: https+h2 against plain HTTP/1.1 through the same Caddyfile settings', () => {
  const skip = !caddy.available && !caddy.required;
  const pre = () => caddy.available || expect.fail('caddy is required (GWC_REQUIRE_CADDY=1): apt-get install caddy');
  let plain: Promise<Run> | undefined;
  const plainRun = () => (plain ??= suite(caddyCmd('plain.Caddyfile', 'http', false), []));

  it.skipIf(skip)(
    'Caddyfile over https+h2: the verdicts of plain.Caddyfile over HTTP/1.1',
    async () => {
      pre();
      const base = await plainRun();
      const r = await suite(caddyCmd('Caddyfile', 'https', false), TLS_ARGS());
      expect(r.transport.negotiated, r.detail).toBe('h2');
      expect(differences(base.outcomes, r.outcomes), `${r.detail}\nplain run:\n${base.detail}`).toEqual([]);
      expect(r.code).toBe(base.code);
    },
    TEST_TIMEOUT_MS * 2,
  );

  it.skipIf(skip)(
    'tls-upstream.Caddyfile: Caddy over TLS and HTTP/2 to the recording upstream, the same verdicts',
    async () => {
      pre();
      const base = await plainRun();
      const r = await suite(caddyCmd('tls-upstream.Caddyfile', 'https', true), [...TLS_ARGS(), '--upstream-tls', '--upstream-http2']);
      expect(differences(base.outcomes, r.outcomes), `${r.detail}\nplain run:\n${base.detail}`).toEqual([]);
      expect(r.code).toBe(base.code);
      // Caddy offers h2 to an https upstream, and the upstream agreed: every request came over HTTP/2.
      expect(Object.keys(r.transport.upstreamHttpVersions ?? {}), r.detail).toEqual(['2.0']);
    },
    TEST_TIMEOUT_MS * 2,
  );
});
