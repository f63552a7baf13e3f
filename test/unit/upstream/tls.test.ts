// TLS and HTTP/2 on both sides, without a proxy package: the harness's transport options
// against a TLS (or h2c) front on the reference gateway, the one-line TLS failures, bad files
// caught before anything starts, and the recording upstream over TLS and HTTP/2 keeping its
// case tokens and raw bodies. Through the CLI, called in this process (test/helpers/in-process.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import http2 from 'node:http2';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { ReferenceGateway } from '../../../reference/gateway.js';
import { RecordingUpstream } from '../../../mocks/upstream/server.js';
import { upstreamTls } from '../../../mocks/upstream/tls-ca.js';
import { CASE_HEADER } from '../../../src/upstream/contract.js';
import { JSON_HEADERS } from '../../../src/upstream/scenario.js';
import { freePort } from '../../helpers/cli.js';
import { cliInProcess, startInProcess } from '../../helpers/in-process.js';
import { cleanupAfterAll } from '../../helpers/cleanup.js';
import { front, makeCerts, type TestCerts } from '../../helpers/tls.js';

const { cleanup, tempDir } = cleanupAfterAll();
let certs: TestCerts;
beforeAll(async () => {
  certs = await makeCerts(tempDir('gwc-tls-certs-'));
});

/** The reference gateway on a free port, forwarding to a port the CLI's upstream then takes. */
async function reference() {
  const upstreamPort = await freePort();
  const gw = new ReferenceGateway({ upstream: `http://127.0.0.1:${upstreamPort}`, upstreamTimeoutMs: 2000 });
  const url = await gw.start('127.0.0.1', 0);
  cleanup.push(() => gw.stop());
  return { url, upstreamPort };
}

async function fronted(mode: 'https' | 'h2' | 'h2c', tls?: Parameters<typeof front>[2]) {
  const ref = await reference();
  const f = await front(mode, ref.url, tls ?? (mode === 'h2c' ? undefined : certs.gateway));
  cleanup.push(() => f.stop());
  return { ...f, upstreamPort: ref.upstreamPort };
}

// Untimed checks of each protocol, a stream among them (the stream oracle's framing verdict).
const CHECKS = ['messages.body.bytes', 'native.path.colon', 'chat.path.preserved', 'streaming.frame.events', 'streaming.frame.bytes', 'messages.response.unchanged'];
const only = CHECKS.flatMap((id) => ['--only', id]);
const run = (target: string, upstreamPort: number, args: string[]) => {
  const out = tempDir('gwc-tls-out-');
  return cliInProcess(['run', '--target', target, '--upstream-listen', `127.0.0.1:${upstreamPort}`, '--seed', '1', '--reporter', 'json', '--reporter', 'console', '--out', out, ...args]).then((r) => ({ ...r, out, report: () => JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) }));
};
/** A harness error: exit 2, one line on stderr, no OpenSSL text, nothing run. */
function oneLine(r: { code: number | null; stderr: string; stdout: string }, pattern: RegExp) {
  const detail = `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
  expect(r.code, detail).toBe(2);
  const lines = r.stderr.trim().split('\n');
  expect(lines, detail).toHaveLength(1);
  expect(lines[0], detail).toMatch(pattern);
  expect(lines[0], detail).not.toMatch(/routines|ssl3_|SSL_|alert number|errno|ERR_/);
  expect(r.stdout, detail).not.toMatch(/PASS|FAIL/);
}

describe('target over TLS and HTTP/2', () => {
  it('https with --ca-file and --http2 h2: the checks pass over h2, the report says what was agreed', async () => {
    const f = await fronted('h2');
    const r = await run(f.url, f.upstreamPort, ['--ca-file', certs.ca, '--http2', 'h2', ...only]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.report().transport).toEqual({ scheme: 'https', http2: 'h2', insecure: false, caFile: certs.ca, negotiated: 'h2', upstreamHttpVersions: { '1.1': expect.any(Number) } });
    // Every request of the checks, the readiness canaries and the preflight came over HTTP/2; the
    // one HTTP/1.1 request is the TLS probe's HEAD (it is sent to see a refused client certificate).
    expect(f.versions).toEqual({ '1.1': 1, '2.0': expect.any(Number) });
  });

  it('without --http2 the same target is spoken to in HTTP/1.1', async () => {
    const f = await fronted('h2');
    const r = await run(f.url, f.upstreamPort, ['--ca-file', certs.ca, ...only]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.report().transport).toMatchObject({ http2: 'off', negotiated: 'http/1.1' });
    expect(Object.keys(f.versions)).toEqual(['1.1']);
    expect(f.versions['1.1']).toBeGreaterThan(CHECKS.length);
  });

  it('--http2 h2c: HTTP/2 with prior knowledge on a plain port', async () => {
    const f = await fronted('h2c');
    const r = await run(f.url, f.upstreamPort, ['--http2', 'h2c', ...only]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.report().transport).toMatchObject({ scheme: 'http', http2: 'h2c', negotiated: 'h2c' });
    expect(Object.keys(f.versions)).toEqual(['2.0']);
  });

  it('--insecure: an untrusted certificate is accepted, with a warning in the console and the report', async () => {
    const f = await fronted('https');
    const r = await run(f.url, f.upstreamPort, ['--insecure', ...only]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/warning: --insecure: the gateway's TLS certificate is not verified/);
    expect(r.report().transport).toMatchObject({ scheme: 'https', insecure: true });
  });

  it('mutual TLS: --client-cert and --client-key are presented to a gateway that asks', async () => {
    const f = await fronted('https', { ...certs.gateway, clientCa: certs.ca });
    const r = await run(f.url, f.upstreamPort, ['--ca-file', certs.ca, '--client-cert', certs.client.cert, '--client-key', certs.client.key, ...only]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.report().transport).toMatchObject({ clientCert: certs.client.cert });
  });
});

describe('a TLS failure is one line, exit 2, before any check', () => {
  it('unknown CA', async () => {
    const f = await fronted('https');
    oneLine(await run(f.url, f.upstreamPort, only), /^gw-conformance: error GWC-TARGET-TLS: TLS: the gateway's certificate is not trusted \(unable to verify the first certificate\); give its CA with --ca-file/);
  });
  it('wrong host name', async () => {
    const f = await fronted('https', certs.wrongName);
    oneLine(await run(f.url, f.upstreamPort, ['--ca-file', certs.ca, ...only]), /^gw-conformance: error GWC-TARGET-TLS: TLS: the gateway's certificate is not for this host name \(127\.0\.0\.1 is not among its names\)/);
  });
  it('expired', async () => {
    const f = await fronted('https', certs.expired);
    oneLine(await run(f.url, f.upstreamPort, ['--ca-file', certs.ca, ...only]), /^gw-conformance: error GWC-TARGET-TLS: TLS: the gateway's certificate has expired/);
  });
  // (A client certificate from another CA: Node's TLS server then closes the connection without an
  // alert, which a client cannot tell from any other close; OpenSSL-based servers send one.)
  it('client certificate required and none given', async () => {
    const f = await fronted('https', { ...certs.gateway, clientCa: certs.ca });
    oneLine(await run(f.url, f.upstreamPort, ['--ca-file', certs.ca, ...only]), /^gw-conformance: error GWC-TARGET-TLS: TLS: the gateway refused the handshake: it asks for a client certificate it trusts \(mutual TLS\); give one with --client-cert and --client-key$/);
  });
  it('an https target that speaks plain HTTP', async () => {
    const ref = await reference();
    oneLine(await run(ref.url.replace('http:', 'https:'), ref.upstreamPort, only), /^gw-conformance: error GWC-TARGET-TLS: TLS: the gateway does not speak TLS on this port/);
  });
});

describe('bad transport input: one line, exit 2, before the upstream starts', () => {
  const notPem = () => {
    const p = join(tempDir('gwc-tls-bad-'), 'x.pem');
    writeFileSync(p, 'not a certificate\n');
    return p;
  };
  const cases: Array<[string, () => string[], RegExp]> = [
    ['--ca-file missing', () => ['--target', 'https://127.0.0.1:1', '--ca-file', '/nonexistent/ca.pem'], /^gw-conformance: error GWC-BAD-FLAG: --ca-file \/nonexistent\/ca.pem: cannot be read \(ENOENT\)$/],
    ['--ca-file not PEM', () => ['--target', 'https://127.0.0.1:1', '--ca-file', notPem()], /^gw-conformance: error GWC-BAD-FLAG: --ca-file .*: not a PEM file of the expected kind/],
    ['--client-key not a key', () => ['--target', 'https://127.0.0.1:1', '--client-cert', certs.client.cert, '--client-key', certs.client.cert], /^gw-conformance: error GWC-BAD-FLAG: --client-key .*: not a PEM file of the expected kind \(no "-----BEGIN PRIVATE KEY-----" block\)$/],
    ['--client-cert alone', () => ['--target', 'https://127.0.0.1:1', '--client-cert', certs.client.cert], /^gw-conformance: error GWC-BAD-FLAG: --client-cert and --client-key go together/],
    ['h2c to https', () => ['--target', 'https://127.0.0.1:1', '--http2', 'h2c'], /^gw-conformance: error GWC-BAD-FLAG: --http2 h2c is HTTP\/2 over plain text/],
    ['h2 to http', () => ['--target', 'http://127.0.0.1:1', '--http2', 'h2'], /^gw-conformance: error GWC-BAD-FLAG: --http2 h2 is negotiated in the TLS handshake/],
    ['--ca-file with http', () => ['--target', 'http://127.0.0.1:1', '--ca-file', certs.ca], /^gw-conformance: error GWC-BAD-FLAG: --ca-file, --insecure, --client-cert and --client-key apply to an https:\/\/ target/],
    ['--upstream-http2 alone', () => ['--target', 'http://127.0.0.1:1', '--upstream-http2'], /^gw-conformance: error GWC-BAD-FLAG: --upstream-http2 needs --upstream-tls/],
    ['{upstream_ca} without --upstream-tls', () => ['--gateway-cmd', 'true {upstream_ca}'], /^gw-conformance: error GWC-BAD-FLAG: --gateway-cmd uses \{upstream_ca\}: give --upstream-tls/],
  ];
  for (const [name, args, want] of cases)
    it(name, async () => {
      const r = await cliInProcess(['run', '--reporter', 'json', '--out', tempDir('gwc-tls-out-'), ...args()]);
      oneLine(r, want);
      // Caught before the upstream starts or the gateway is waited for.
      expect(r.stdout).not.toMatch(/waiting|started the gateway/);
    });
});

describe('the recording upstream over TLS and HTTP/2', () => {
  it('keeps case tokens and raw bodies byte for byte over h2 and HTTP/1.1, and counts the versions', async () => {
    const tls = await upstreamTls('127.0.0.1');
    cleanup.push(() => import('node:fs/promises').then((fs) => fs.rm(join(tls.caFile, '..'), { recursive: true, force: true })));
    const up = new RecordingUpstream({ key: tls.keyPem, cert: tls.certPem, http2: true });
    const url = await up.start('127.0.0.1', 0);
    cleanup.push(() => up.stop());
    expect(url).toMatch(/^https:/);
    // Bytes a JSON round-trip would change: odd spacing, escapes, a lone surrogate escape, key order.
    const body = Buffer.from('{"b":1,  "a":"\\u00e9\\ud800 x", "z":[ 1.50 ]}');
    for (const allowH2 of [true, false]) {
      const e = up.expect({ kind: 'json', status: 200, headers: JSON_HEADERS, body: '{"ok":true}' });
      const agent = new Agent({ allowH2, connect: { ca: tls.caPem } });
      const res = await request(`${url}/v1/messages?x=${e.token}`, { method: 'POST', body, headers: { 'content-type': 'application/json', 'X-Mixed-Case': 'v', [CASE_HEADER]: e.token }, dispatcher: agent });
      expect(res.statusCode).toBe(200);
      expect(await res.body.json()).toEqual({ ok: true });
      const rec = await e.received(1000);
      expect(rec?.body.equals(body)).toBe(true);
      expect(rec?.url).toBe(`/v1/messages?x=${e.token}`);
      // Over h2 header names arrive lower-case (the protocol's rule); :authority is recorded as host.
      expect(rec?.rawHeaders.find(([k]) => k.toLowerCase() === 'host')?.[1]).toBe(new URL(url).host);
      expect(rec?.rawHeaders.some(([k]) => k.startsWith(':'))).toBe(false);
      expect(rec?.rawHeaders.find(([k]) => k.toLowerCase() === 'x-mixed-case')?.[0]).toBe(allowH2 ? 'x-mixed-case' : 'X-Mixed-Case');
      await agent.close();
    }
    expect(up.httpVersions).toEqual({ '2.0': 1, '1.1': 1 });
  });

  it('a reset reply resets the h2 stream (the session goes on) and the TLS connection under HTTP/1.1', async () => {
    const tls = await upstreamTls('127.0.0.1');
    const up = new RecordingUpstream({ key: tls.keyPem, cert: tls.certPem, http2: true });
    const url = await up.start('127.0.0.1', 0);
    cleanup.push(() => up.stop());
    const session = http2.connect(url, { ca: tls.caPem });
    cleanup.push(() => session.close());
    const reset = up.expect({ kind: 'reset' });
    const s = session.request({ ':method': 'POST', ':path': '/v1/messages', [CASE_HEADER]: reset.token });
    s.on('error', () => undefined); // the reset is the expected end
    s.end('{}');
    await new Promise((r) => s.once('close', r));
    expect(s.rstCode).toBe(http2.constants.NGHTTP2_INTERNAL_ERROR);
    expect(session.closed || session.destroyed).toBe(false);
    const h1 = new Agent({ connect: { ca: tls.caPem } });
    const reset1 = up.expect({ kind: 'reset' });
    const e = await request(`${url}/v1/messages`, { method: 'POST', body: '{}', headers: { [CASE_HEADER]: reset1.token }, dispatcher: h1 }).catch((x: { code?: string }) => x);
    expect((e as { code?: string }).code).toMatch(/ECONNRESET|UND_ERR_SOCKET/);
    await h1.close();
  });

  for (const how of ['flags', 'environment'] as const)
  it(`mock --upstream-tls prints the CA file and serves https with it (set by ${how})`, async () => {
    const port = await freePort();
    const args = how === 'flags' ? ['--upstream-tls', '--upstream-http2'] : [];
    const env = how === 'flags' ? {} : { GWC_UPSTREAM_TLS: 'true', GWC_UPSTREAM_HTTP2: 'true' };
    const mock = startInProcess(['mock', '--listen', `127.0.0.1:${port}`, ...args], { env });
    cleanup.push(() => mock.stop());
    const ca = /: (\S+)$/.exec(await mock.line(/^the recording upstream's CA \(tell the gateway to trust it\): /))![1];
    expect(mock.stdout).toMatch(new RegExp(`recording upstream listening on https://127\\.0\\.0\\.1:${port}`));
    const agent = new Agent({ allowH2: true, connect: { ca: readFileSync(ca, 'utf8') } });
    const res = await request(`https://127.0.0.1:${port}/v1/messages`, { method: 'POST', body: '{}', dispatcher: agent });
    // No check expects it: the upstream's own 404, over a verified TLS connection.
    expect(res.statusCode).toBe(404);
    await res.body.dump();
    await agent.close();
  });
});
