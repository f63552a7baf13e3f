// The gateway as a container (src/launch/image.ts): Debian's nginx in the image built by
// scripts/build-nginx-image.sh, run with host networking, configured with
// examples/nginx/plain.conf, proxying to an upstream on this machine's loopback.
//
// Needs a running Docker daemon and the image gwc-nginx:bookworm. Without them the tests are
// skipped, unless GWC_REQUIRE_DOCKER=1 (CI, see .ci/run), where they fail.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HarnessError } from '../../../src/core/errors.js';
import { maskLogLine, remoteDaemon, startImage, type RunningImage } from '../../../src/launch/image.js';
import { baselineProtocols, observedOutcomes, protocolArgs } from '../../helpers/baselines.js';
import { cli, ROOT } from '../../helpers/cli.js';
import { freePort, LISTEN_PLACEHOLDER, UPSTREAM_PLACEHOLDER } from '../../helpers/nginx.js';

const IMAGE = 'gwc-nginx:bookworm';
const required = process.env.GWC_REQUIRE_DOCKER === '1';
const available = spawnSync('docker', ['image', 'inspect', IMAGE], { stdio: 'ignore', timeout: 10_000 }).status === 0;
const SECRET = 'sk-gwc-IMAGE-SECRET-42';

function preconditions() {
  if (!available) expect.fail(`docker and the image ${IMAGE} are required (GWC_REQUIRE_DOCKER=1): start dockerd and run scripts/build-nginx-image.sh`);
}

/** examples/nginx/plain.conf with its listen and upstream addresses replaced. */
function plainConf(listenPort: number, upstreamPort: number): string {
  const text = readFileSync(join(ROOT, 'examples', 'nginx', 'plain.conf'), 'utf8');
  const sub = (t: string, literal: string, port: number) => t.replace(new RegExp(`${literal.replace(/\./g, '\\.')}(?!\\d)`, 'g'), `127.0.0.1:${port}`);
  return sub(sub(text, LISTEN_PLACEHOLDER, listenPort), UPSTREAM_PLACEHOLDER, upstreamPort);
}

const running: RunningImage[] = [];
const servers: net.Server[] = [];
afterAll(async () => {
  await Promise.all(running.map((r) => r.stop()));
  servers.forEach((s) => s.close());
});

const containerExists = (id: string) => spawnSync('docker', ['ps', '-aq', '--no-trunc', '--filter', `id=${id}`], { encoding: 'utf8' }).stdout.trim() !== '';

describe('gateway image (host networking)', () => {
  it.skipIf(!available && !required)(
    'nginx in a container proxies a request to a loopback upstream; output captured and masked; container removed',
    async () => {
      preconditions();
      const seen: Array<{ url: string; headers: http.IncomingHttpHeaders }> = [];
      const upstream = http.createServer((req, res) => {
        seen.push({ url: req.url ?? '', headers: req.headers });
        req.resume();
        req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"from":"upstream"}'));
      });
      servers.push(upstream);
      upstream.listen(0, '127.0.0.1');
      await once(upstream, 'listening');
      const upstreamPort = (upstream.address() as net.AddressInfo).port;
      const listenPort = await freePort();

      const t0 = Date.now();
      const gw = await startImage({
        image: IMAGE,
        files: [{ content: plainConf(listenPort, upstreamPort), target: '/gwc/nginx.conf' }],
        env: { GWC_LISTEN_PORT: String(listenPort), GWC_UPSTREAM_URL: `http://127.0.0.1:${upstreamPort}` },
        // The shell line shows that env vars arrive and that the output is captured and masked.
        args: ['sh', '-c', `echo "listen=$GWC_LISTEN_PORT upstream=$GWC_UPSTREAM_URL key=${SECRET} Authorization: Bearer abc123"; exec nginx -p /gwc -c /gwc/nginx.conf -e /gwc/error.log`],
        readyPort: listenPort,
        secrets: [SECRET],
      });
      running.push(gw);
      console.info(`container started and listening in ${Date.now() - t0} ms`);

      const res = await fetch(`http://127.0.0.1:${listenPort}/v1/messages?beta=true`, { method: 'POST', body: '{"model":"m"}', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ from: 'upstream' });
      expect(seen).toHaveLength(1);
      expect(seen[0].url).toBe('/v1/messages?beta=true');
      // Added by plain.conf's proxy_set_header lines: the request went through nginx, over loopback.
      expect(seen[0].headers['x-real-ip']).toBe('127.0.0.1');
      expect(seen[0].headers['x-forwarded-for']).toBe('127.0.0.1');

      const tail = gw.logTail().join('\n');
      expect(tail).toContain(`listen=${listenPort} upstream=http://127.0.0.1:${upstreamPort}`);
      expect(tail).not.toContain(SECRET);
      expect(tail).not.toContain('abc123');
      expect(tail).toMatch(/key=\*\*\* Authorization: Bearer \*\*\*/);

      const t1 = Date.now();
      await gw.stop();
      console.info(`container stopped and removed in ${Date.now() - t1} ms`);
      expect(containerExists(gw.id)).toBe(false);
      expect(gw.exited()).toBe(true);
      const probe = net.connect({ host: '127.0.0.1', port: listenPort });
      const [err] = (await once(probe, 'error')) as [NodeJS.ErrnoException];
      expect(err.code).toBe('ECONNREFUSED');
    },
    90_000,
  );

  // The default suite through the container, started by the CLI (--gateway-image): the same
  // verdicts as nginx run as a process (test/real/nginx/nginx.test.ts) with the same config, recorded in
  // examples/nginx/expected-plain.json.
  it.skipIf(!available && !required)(
    'run --gateway-image: the default suite through plain.conf in the container gives the verdicts of examples/nginx/expected-plain.json',
    async () => {
      preconditions();
      if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) expect.fail('the CLI is not built: run `npx tsc -p .` first');
      // The config reaches the container as an environment variable, its ports as placeholders.
      const literal = (a: string) => new RegExp(`${a.replace(/\./g, '\\.')}(?!\\d)`, 'g');
      const conf = readFileSync(join(ROOT, 'examples', 'nginx', 'plain.conf'), 'utf8').replace(literal(LISTEN_PLACEHOLDER), '127.0.0.1:{listen_port}').replace(literal(UPSTREAM_PLACEHOLDER), '127.0.0.1:{upstream_port}');
      const script = 'mkdir -p /gwc && printf "%s" "$GWC_NGINX_CONF" > /gwc/nginx.conf && echo "gateway on $GWC_LISTEN_PORT, upstream $GWC_UPSTREAM_URL" && exec nginx -p /gwc/ -c /gwc/nginx.conf -e stderr';
      const out = mkdtempSync(join(tmpdir(), 'gwc-image-report-'));
      // The protocols the baseline was observed with, declared by this run too.
      const baseline = join(ROOT, 'examples', 'nginx', 'expected-plain.json');
      const protocols = baselineProtocols(baseline, {});
      const before = spawnSync('docker', ['ps', '-aq'], { encoding: 'utf8' }).stdout;
      try {
        const t0 = Date.now();
        const r = await cli(['run', '--gateway-image', IMAGE, '--gateway-env', `GWC_NGINX_CONF=${conf}`, '--gateway-arg', 'sh', '--gateway-arg', '-c', '--gateway-arg', script, '--seed', '1', '--reporter', 'json', '--out', out, ...protocolArgs(protocols)], { timeoutMs: 120_000 });
        console.info(`run --gateway-image: ${Date.now() - t0} ms`);
        if (!existsSync(join(out, 'report.json'))) expect.fail(`no report; exit ${r.code}\n${r.stdout}\n${r.stderr}`);
        const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { target: string; upstream: string; results: Array<{ id: string; outcome: string; message: string }>; launched: { kind: string; what: string; logTail: string[] } };
        const outcomes = observedOutcomes(report.results, protocols);
        const expected = JSON.parse(readFileSync(baseline, 'utf8')) as { exitCode: number; outcomes: Record<string, string> };
        const detail = report.results.filter((x) => x.outcome !== 'pass').map((x) => `${x.id}: ${x.outcome}: ${x.message}`).join('\n') + `\n${r.stderr}`;
        expect(outcomes, detail).toEqual(expected.outcomes);
        expect(r.code, detail).toBe(expected.exitCode);
        expect(report.launched).toMatchObject({ kind: 'image', what: IMAGE });
        expect(report.launched.logTail).toContain(`gateway on ${new URL(report.target).port}, upstream ${report.upstream}`);
        // The container is gone.
        expect(spawnSync('docker', ['ps', '-aq'], { encoding: 'utf8' }).stdout).toBe(before);
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    },
    150_000,
  );

  it.skipIf(!available && !required)(
    'run --gateway-image with an image that does not exist: exit 2, one line, within the pull time-out',
    async () => {
      preconditions();
      const r = await cli(['run', '--gateway-image', '127.0.0.1:9/gwc-no-such-image:none', '--reporter', 'json', '--out', mkdtempSync(join(tmpdir(), 'gwc-image-none-'))], { timeoutMs: 60_000 });
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^gw-conformance: error GWC-IMAGE-NOT-FOUND: --gateway-image: 127\.0\.0\.1:9\/gwc-no-such-image:none is not on this machine and cannot be pulled \(.+\)$/m);
    },
    60_000,
  );

  it.skipIf(!available && !required)(
    'a container that exits at once: one-line HarnessError with its last output, container removed',
    async () => {
      preconditions();
      const port = await freePort();
      const before = spawnSync('docker', ['ps', '-aq'], { encoding: 'utf8' }).stdout;
      const err = await startImage({ image: IMAGE, args: ['sh', '-c', 'echo "cannot read config"; exit 3'], readyPort: port }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HarnessError);
      expect((err as HarnessError).code).toBe('GATEWAY_START');
      expect((err as Error).message).toMatch(/^--gateway-image: gwc-nginx:bookworm exited; last output: cannot read config$/);
      expect(spawnSync('docker', ['ps', '-aq'], { encoding: 'utf8' }).stdout).toBe(before);
    },
    60_000,
  );

  it.skipIf(!available && !required)(
    'an image that does not exist and cannot be pulled: one-line HarnessError',
    async () => {
      preconditions();
      // A registry on a closed loopback port: the pull is refused without leaving the machine.
      const err = await startImage({ image: '127.0.0.1:9/gwc-no-such-image:none', pullTimeoutMs: 30_000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HarnessError);
      expect((err as HarnessError).code).toBe('IMAGE_NOT_FOUND');
      expect((err as Error).message).toMatch(/^--gateway-image: 127\.0\.0\.1:9\/gwc-no-such-image:none is not on this machine and cannot be pulled \(.+\)$/);
    },
    60_000,
  );
});

describe('gateway image without Docker', () => {
  // A private mount namespace with an empty /run hides the daemon's socket from one process
  // (needs root and unshare, as in CI); the built module (dist/) runs there.
  const canHide = spawnSync('unshare', ['-m', 'true'], { stdio: 'ignore' }).status === 0;
  it.skipIf(!canHide && !required)('--gateway-image with no daemon: one line saying so', async () => {
    if (!canHide) expect.fail('unshare -m is required for this test (root)');
    const mod = join(ROOT, 'dist', 'src', 'launch', 'image.js');
    if (!existsSync(mod)) expect.fail('not built: run `npx tsc -p .` first');
    const script = `import(${JSON.stringify(mod)}).then((m) => m.startImage({ image: 'x' })).then(() => process.exit(0), (e) => { console.log(JSON.stringify({ name: e.name, code: e.code, message: e.message })); process.exit(5); })`;
    const env = { ...process.env };
    delete env.DOCKER_HOST;
    const p = spawn('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs none /run && exec "$0" --input-type=module -e "$1"', process.execPath, script], { env });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    const [code] = await once(p, 'close');
    expect(code).toBe(5);
    const e = JSON.parse(out);
    expect(e).toMatchObject({ name: 'HarnessError', code: 'DOCKER_UNAVAILABLE' });
    expect(e.message).toMatch(/^--gateway-image: no Docker daemon answers .+$/);
    expect(e.message).not.toContain('\n');
  });
});

describe('remote daemons are refused for host networking', () => {
  it('DOCKER_HOST: unix sockets and loopback are local; another host is named', () => {
    expect(remoteDaemon(undefined)).toBeNull();
    expect(remoteDaemon('unix:///var/run/docker.sock')).toBeNull();
    expect(remoteDaemon('tcp://127.0.0.1:2375')).toBeNull();
    expect(remoteDaemon('tcp://[::1]:2375')).toBeNull();
    expect(remoteDaemon('tcp://10.0.0.5:2376')).toBe('10.0.0.5');
    expect(remoteDaemon('ssh://user@build-host')).toBe('build-host');
  });
});

describe('gateway output masking', () => {
  it('scrubs given secrets and credential values in text, keeps the rest', () => {
    expect(maskLogLine(`upstream key ${SECRET} ok`, [SECRET])).toBe('upstream key *** ok');
    expect(maskLogLine('authorization: Bearer abc.def x-api-key=zzz api_key="qq" token: t1 port=8080', [])).toBe('authorization: Bearer *** x-api-key=*** api_key="***" token: *** port=8080');
  });
});
