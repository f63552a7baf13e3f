// Per-protocol targeting (base path, headers, credential style, upstream base path) and the
// readiness gate, through the CLI (called in this process, test/helpers/in-process.ts) against
// the reference gateway in its prefix-and-header mode.
import http from 'node:http';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import type net from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReferenceGateway } from '../../../reference/gateway.js';
import { faultByName } from '../../../reference/faults/index.js';
import { loadConfigFile, resolveConfig } from '../../../src/config/config.js';
import { expandTargeting, protocolOfPath } from '../../../src/config/targeting.js';
import { PROTOCOLS } from '../../../src/core/protocols.js';
import { CHECKS } from '../../../suites/index.js';
import { GatewayClient } from '../../../src/client/gateway.js';
import { readStream } from '../../../src/client/sse.js';
import { curlCommand, replayCommand } from '../../../src/report/run/replay.js';
import { freePort } from '../../helpers/cli.js';
import { cliInProcess } from '../../helpers/in-process.js';
import { cleanupAfterAll } from '../../helpers/cleanup.js';

const { cleanup, tempDir } = cleanupAfterAll();
const outDir = () => tempDir('gwc-targeting-');

/** A reference gateway (optionally in prefix-and-header mode) forwarding to a free port the CLI's upstream then takes. */
async function reference(opts: { basePath?: string; requireHeaders?: Array<[string, string]>; upstreamPath?: string; fault?: string } = {}) {
  const upstreamPort = await freePort();
  const gw = new ReferenceGateway({
    upstream: `http://127.0.0.1:${upstreamPort}${opts.upstreamPath ?? ''}`,
    upstreamTimeoutMs: 2000,
    basePath: opts.basePath,
    requireHeaders: opts.requireHeaders,
    fault: opts.fault ? faultByName(opts.fault) : undefined,
  });
  const url = await gw.start('127.0.0.1', 0);
  cleanup.push(() => gw.stop());
  return { url, upstreamPort };
}

/** Each protocol's check of its path (`<area>.path.*`, the first of its checks that is one), from the checks themselves. */
const PATH_CHECKS = PROTOCOLS.map((p) => {
  const check = CHECKS.find((c) => c.protocol === p && /^[^.]+\.path\./.test(c.id));
  if (!check) throw new Error(`protocol ${p} has no check of its path (an id <area>.path.*): the targeting test runs one per protocol`);
  return check.id;
});
/** The other routes (models, streams) under the base path, of the protocols that have them. */
const OTHER_ROUTES = ['discovery.models.forwarded', 'chat.stream.complete', 'streaming.frame.events', 'bedrock.stream.frames'];
const ONE_PER_PROTOCOL = [...PATH_CHECKS, ...OTHER_ROUTES];
const only = ONE_PER_PROTOCOL.flatMap((id) => ['--only', id]);
const readReport = (dir: string) => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));

describe('targeting options', () => {
  it('protocols: a list, or a map with base paths, headers, credential and false; flags add to it', () => {
    const file = { protocols: { messages: { 'base-path': '/anthropic', headers: { 'x-provider': 'anthropic' }, credential: 'x-api-key' }, chat: { 'base-path': '/openai/' }, native: false } };
    const cfg = resolveConfig({ header: ['x-all=1', 'chat:x-p=openai'], basePath: ['native=/gemini'] }, file, {});
    expect(cfg.protocols).toEqual(['messages', 'chat']);
    expect(cfg.targeting.messages).toEqual({ basePath: '/anthropic', headers: [['x-provider', 'anthropic'], ['x-all', '1']], credential: 'x-api-key', upstreamBasePath: '' });
    expect(cfg.targeting.chat).toMatchObject({ basePath: '/openai', headers: [['x-all', '1'], ['x-p', 'openai']] });
    expect(cfg.targeting.native.basePath).toBe('/gemini');
    // --protocols replaces the declared list; the file's targeting stays.
    expect(resolveConfig({ protocols: ['messages'] }, file, {}).protocols).toEqual(['messages']);
    expect(resolveConfig({}, { protocols: ['chat'] }, {}).protocols).toEqual(['chat']);
  });

  it('gwc.yaml protocols map: a wrong entry is named by its key', () => {
    const dir = outDir();
    const bad = (yaml: string) => {
      writeFileSync(join(dir, 'gwc.yaml'), yaml);
      return () => loadConfigFile(join(dir, 'gwc.yaml'), true);
    };
    expect(bad('protocols:\n  messages: { base-path: anthropic }\n')).toThrow(/key "protocols\.messages\.base-path" must match pattern "\^\/"/);
    expect(bad('protocols:\n  bogus: { base-path: /x }\n')).toThrow(/unknown key "protocols\.bogus"/);
    expect(bad('protocols:\n  messages: { credntial: x-api-key }\n')).toThrow(/unknown key "protocols\.messages\.credntial"/);
    expect(bad('protocols:\n  chat: { credential: cookie }\n')).toThrow(/key "protocols\.chat\.credential" must be equal to one of the allowed values/);
    expect(bad('protocols:\n  messages: { headers: { x-a: "{upstream_url}" } }\n')).not.toThrow();
    expect(() => resolveConfig({}, { protocols: { messages: { headers: { 'x-a': '{upstream_url}' } } } }, {})).toThrow(/gwc\.yaml protocols\.messages\.headers\.x-a: unknown placeholder "\{upstream_url\}"/);
  });

  it('header values expand ${VAR} and {upstream}; env values are secrets', () => {
    const cfg = resolveConfig({ header: ['messages:x-key=${GW_KEY}', 'x-up={upstream}/v1'] }, {}, {});
    const { resolved, secrets, names } = expandTargeting(cfg.targeting, 'http://127.0.0.1:1', { GW_KEY: 'sk-123456' });
    expect(resolved.messages.headers).toEqual([['x-key', 'sk-123456'], ['x-up', 'http://127.0.0.1:1/v1']]);
    expect(resolved.chat.headers).toEqual([['x-up', 'http://127.0.0.1:1/v1']]);
    expect(secrets).toEqual(['sk-123456']);
    expect(names.sort()).toEqual(['x-key', 'x-up']);
    expect(() => expandTargeting(cfg.targeting, 'http://x', {})).toThrow(/GW_KEY is not set/);
  });

  it('replay: the curl line goes under the base path, in the credential style, with the added headers masked; the command masks literal header values', () => {
    const sent = { method: 'POST', path: '/v1/messages', auth: 'bearer' as const, headers: [['content-type', 'application/json']] as Array<[string, string]>, body: '{}', bodyBytes: 2 };
    const line = curlCommand('http://127.0.0.1:8080', sent, { basePath: '/anthropic', headers: ['x-provider'], credential: 'x-api-key' });
    expect(line).toContain('http://127.0.0.1:8080/anthropic/v1/messages');
    expect(line).toContain('"x-api-key: $GWC_TOKEN"');
    expect(line).not.toContain('authorization');
    expect(line).toContain("'x-provider: ***'");
    expect(curlCommand('http://h', sent)).toContain('http://h/v1/messages');
    const cmd = replayCommand(['run', '--header', 'messages:x-provider=anthropic', '--header=x-key=${KEY}', '--header', 'x-up={upstream}'], 'a.b', 1);
    expect(cmd).toContain("--header 'messages:x-provider=***'");
    expect(cmd).toContain("'--header=x-key=${KEY}'");
    expect(cmd).toContain("--header 'x-up={upstream}'");
  });

  it('paths belong to protocols: discovery and count_tokens are the messages protocol', () => {
    expect(['/v1/messages', '/v1/models?limit=1000', '/v1/messages/count_tokens', '/v1beta/models/m:generateContent', '/v1/chat/completions', '/v1/responses', '/v1/responses/input_tokens'].map(protocolOfPath)).toEqual(['messages', 'messages', 'messages', 'native', 'chat', 'responses', 'responses']);
  });

  it('the client puts base path, headers and credential style on every request, streams included', async () => {
    const seen: Array<{ url: string; headers: http.IncomingHttpHeaders }> = [];
    const server = http.createServer((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers });
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: {}\n\n');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    cleanup.push(() => void server.close());
    const cfg = resolveConfig({ header: ['messages:x-provider=anthropic', 'chat:x-provider=openai'], basePath: ['messages=/anthropic', 'chat=/openai'] }, { protocols: { messages: { credential: 'x-api-key' }, chat: true, native: true } }, {});
    const { resolved } = expandTargeting(cfg.targeting, null, {});
    const gw = new GatewayClient(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, { token: 'tok-1234', timeoutMs: 5000, targeting: resolved });
    await gw.send({ method: 'POST', path: '/v1/messages', body: '{}' });
    await gw.send({ method: 'GET', path: '/v1/models?limit=1000', auth: 'bearer' });
    // A check that tries another style on purpose keeps it.
    await gw.send({ method: 'GET', path: '/v1/models?limit=1000', auth: 'none' });
    await readStream(gw, { path: '/v1/chat/completions', body: '{}' });
    await gw.send({ method: 'POST', path: '/v1beta/models/m:generateContent', auth: 'x-goog-api-key', body: '{}' });
    await gw.close();
    expect(seen.map((s) => s.url)).toEqual(['/anthropic/v1/messages', '/anthropic/v1/models?limit=1000', '/anthropic/v1/models?limit=1000', '/openai/v1/chat/completions', '/v1beta/models/m:generateContent']);
    expect(seen.map((s) => [s.headers['x-provider'] ?? null, s.headers['x-api-key'] ?? null, s.headers.authorization ?? null])).toEqual([
      ['anthropic', 'tok-1234', null],
      ['anthropic', 'tok-1234', null],
      ['anthropic', null, null],
      ['openai', null, 'Bearer tok-1234'],
      [null, null, null],
    ]);
    expect(seen[4].headers['x-goog-api-key']).toBe('tok-1234');
  });
});

describe('the reference gateway in prefix-and-header mode', () => {
  it('without the right flags the readiness gate exits 2 with what the gateway answered; with them the checks pass', async () => {
    const ref = await reference({ basePath: '/anthropic', requireHeaders: [['x-provider', 'anthropic']] });
    const common = ['run', '--target', ref.url, '--upstream-listen', `127.0.0.1:${ref.upstreamPort}`, '--reporter', 'json', ...only];

    // Every protocol declared (mcp is not among the defaults): each protocol's path check runs.
    const all = ['--protocols', PROTOCOLS.join(',')];
    const bare = await cliInProcess([...common, ...all, '--ready-timeout-s', '3', '--out', outDir()], { timeoutMs: 40_000 });
    expect(bare.code, bare.stderr).toBe(2);
    const line = bare.stderr.trim().split('\n');
    expect(line).toHaveLength(1);
    const notReady = new RegExp(`^gw-conformance: error GWC-NOT-READY: gateway not ready: in 3 s no (${PROTOCOLS.join('|')}) canary \\(POST http://127\\.0\\.0\\.1:\\d+/(v1/|model/|mcp)\\S*\\) reached the recording upstream; \\d+ tries, the last answered 404 application/json ".*serves under /anthropic/.*"`);
    expect(line[0]).toMatch(notReady);
    expect(line[0]).toContain(`is its upstream set to http://127.0.0.1:${ref.upstreamPort}?`);
    expect(bare.ms).toBeLessThan(30_000); // the 3 s gate, not a time-out per check (minutes)

    // The header alone is not enough: the path is still wrong.
    const headerOnly = await cliInProcess([...common, ...all, '--header', 'x-provider=anthropic', '--ready-timeout-s', '2', '--out', outDir()], { timeoutMs: 20_000 });
    expect(headerOnly.code, headerOnly.stderr).toBe(2);
    expect(headerOnly.stderr).toMatch(/the last answered 404/);
    // The path alone is not enough either: the gateway routes by the header.
    const pathOnly = await cliInProcess([...common, '--base-path', 'messages=/anthropic', '--protocols', 'messages', '--ready-timeout-s', '2', '--out', outDir()], { timeoutMs: 20_000 });
    expect(pathOnly.code, pathOnly.stderr).toBe(2);
    expect(pathOnly.stderr).toMatch(/no messages canary \(POST http:\/\/127\.0\.0\.1:\d+\/anthropic\/v1\/messages\).*the last answered 400 application\/json ".*x-provider header/);

    const out = outDir();
    const right = await cliInProcess([...common, ...all, '--header', 'x-provider=anthropic', ...PROTOCOLS.flatMap((p) => ['--base-path', `${p}=/anthropic`]), '--out', out], { timeoutMs: 60_000 });
    expect(right.code, right.stdout + right.stderr).toBe(0);
    const report = readReport(out);
    expect(report.summary).toMatchObject({ total: ONE_PER_PROTOCOL.length, pass: ONE_PER_PROTOCOL.length });
    expect(report.targeting.messages).toEqual({ basePath: '/anthropic', headers: ['x-provider'], credential: 'bearer', upstreamBasePath: '/' });
    expect(report.readiness.ready).toBe(true);
    expect(report.readiness.protocols.map((p: { protocol: string; ready: boolean }) => [p.protocol, p.ready])).toEqual(PROTOCOLS.map((p) => [p, true]));
  }, 90_000);

  it('gwc.yaml protocols map with upstream-base-path: a gateway forwarding under its own path passes the path checks', async () => {
    const ref = await reference({ basePath: '/llm', upstreamPath: '/fwd' });
    const dir = outDir();
    const yaml = ['protocols:', '  messages: { base-path: /llm, upstream-base-path: /fwd }', '  chat: { base-path: /llm, upstream-base-path: /fwd }', '  native: false', ''].join('\n');
    writeFileSync(join(dir, 'gwc.yaml'), yaml);
    const args = ['run', '--target', ref.url, '--upstream-listen', `127.0.0.1:${ref.upstreamPort}`, '--reporter', 'json', '--only', 'messages.path.preserved', '--only', 'chat.path.preserved', '--only', 'native.path.colon'];
    const ok = await cliInProcess([...args, '--config', join(dir, 'gwc.yaml'), '--out', join(dir, 'a')], { timeoutMs: 60_000 });
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    const report = readReport(join(dir, 'a'));
    expect(Object.fromEntries(report.results.map((r: { id: string; outcome: string }) => [r.id, r.outcome]))).toEqual({ 'messages.path.preserved': 'pass', 'chat.path.preserved': 'pass', 'native.path.colon': 'skip' });
    expect(report.declared.protocols).toEqual(['messages', 'chat']);
    // Without upstream-base-path the same gateway's forwarded path is not today's path.
    writeFileSync(join(dir, 'plain.yaml'), ['protocols:', '  messages: { base-path: /llm }', ''].join('\n'));
    const bad = await cliInProcess([...args, '--config', join(dir, 'plain.yaml'), '--out', join(dir, 'b')], { timeoutMs: 60_000 });
    expect(bad.code, bad.stdout + bad.stderr).toBe(1);
    const r2 = readReport(join(dir, 'b'));
    expect(r2.results.find((r: { id: string }) => r.id === 'messages.path.preserved').message).toContain('/fwd/v1/messages');
  }, 90_000);

  it('added headers never reach a report: env values anywhere, any header by name, in every reporter', async () => {
    const SECRET = 'sk-gwc-HEADER-SECRET-77';
    const LITERAL = 'literal-provider-value-3141';
    const out = outDir();
    // A fault makes checks fail, so their evidence (with the upstream's headers) is in the reports.
    const r = await cliInProcess(['demo', '--fault', 'drop-anthropic-beta', '--header', 'x-gw-key=${GW_HEADER_KEY}', '--header', `messages:x-route=${LITERAL}`, '--only', 'messages', '--reporter', 'json', '--reporter', 'junit', '--reporter', 'html', '--out', out], { env: { GW_HEADER_KEY: SECRET }, timeoutMs: 90_000 });
    expect(r.code, r.stderr).toBe(1);
    const files = ['report.json', 'junit.xml', 'report.html'].map((f) => readFileSync(join(out, f), 'utf8'));
    for (const text of files) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(LITERAL);
    }
    // The gateway forwarded them: the upstream's headers in the evidence show them masked.
    expect(files[0]).toMatch(/\[\s*"x-gw-key",\s*"\*\*\*"\s*\]/);
    expect(files[0]).toMatch(/\[\s*"x-route",\s*"\*\*\*"\s*\]/);
    expect(r.stdout).not.toContain(SECRET);
  }, 120_000);
});

describe('the readiness gate', () => {
  it('a proxy that answers its own 502 for its first requests is waited for; no check fails for it', async () => {
    const ref = await reference();
    const target = new URL(ref.url);
    let own502 = 6;
    const proxy = http.createServer((req, res) => {
      if (req.method !== 'HEAD' && own502 > 0) {
        own502--;
        req.resume();
        res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1> upstream marked down</body></html>');
        return;
      }
      const up = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (ur) => {
        res.writeHead(ur.statusCode ?? 502, ur.headers);
        ur.pipe(res);
      });
      req.pipe(up);
    });
    proxy.listen(0, '127.0.0.1');
    await once(proxy, 'listening');
    cleanup.push(() => void proxy.close());
    const out = outDir();
    const r = await cliInProcess(['run', '--target', `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`, '--upstream-listen', `127.0.0.1:${ref.upstreamPort}`, '--reporter', 'console', '--reporter', 'json', '--out', out, '--protocols', PROTOCOLS.join(','), ...only], { timeoutMs: 60_000 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`waiting up to 30 s for the gateway to forward a canary request \\(${PROTOCOLS.join(', ')}\\) to the recording upstream http://127\\.0\\.0\\.1:\\d+`));
    const report = readReport(out);
    expect(report.summary.fail).toBe(0);
    const answers = report.readiness.protocols.flatMap((p: { answers: Array<{ status: number; forwarded: boolean; contentType: string }> }) => p.answers);
    expect(answers.filter((a: { status: number }) => a.status === 502)).toHaveLength(6);
    expect(answers.find((a: { status: number }) => a.status === 502).contentType).toBe('text/html');
    expect(report.readiness.protocols.every((p: { ready: boolean; answers: Array<{ forwarded: boolean }> }) => p.ready && p.answers.at(-1)!.forwarded)).toBe(true);
  }, 90_000);

  it('a gateway that accepts connections and never answers is diagnosed within the readiness time-out', async () => {
    const sockets = new Set<net.Socket>();
    const { createServer } = await import('node:net');
    const silent = createServer((s) => {
      sockets.add(s);
      s.on('error', () => {});
    });
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    cleanup.push(() => {
      for (const s of sockets) s.destroy();
      silent.close();
    });
    const up = await freePort();
    const r = await cliInProcess(['run', '--target', `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`, '--upstream-listen', `127.0.0.1:${up}`, '--ready-timeout-s', '3', '--reporter', 'json', '--out', outDir()], { timeoutMs: 40_000 });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/gateway not ready: in 3 s no \w+ canary .* the last answered no answer \(time-out\).*is its upstream set to/);
    // The HEAD probe (3 s) and the gate (3 s), not one time-out per check (minutes).
    expect(r.ms).toBeLessThan(30_000);
  }, 60_000);
});
