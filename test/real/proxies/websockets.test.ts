// A WebSocket through real proxies, read from the wire: a `ws` client opens Codex's Responses
// socket (GET /v1/responses, `Upgrade: websocket`, its beta header and a credential) through
// nginx (plain.conf and streaming.conf: refused; websockets.conf: carried), Caddy and HAProxy
// (carried by default) to the small upstream of both transports (test/helpers/ws-upstream.mjs),
// whose log says what arrived: a plain HTTP GET with no upgrade, or the upgrade with its headers,
// then every frame and the close with its code. Nothing here judges time.
//
// Needs nginx, caddy and haproxy on PATH and the built CLI (dist/); a missing tool skips its
// proxy's tests unless GWC_REQUIRE_NGINX / GWC_REQUIRE_CADDY / GWC_REQUIRE_HAPROXY is 1 (CI).
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { freePort } from '../../../src/launch/ports.js';
import { ROOT } from '../../helpers/cli.js';
import { cleanupAfterAll } from '../../helpers/cleanup.js';
import { listening, proxyCommand, startChild, stopChild, type WsProxy } from '../../helpers/ws-gateways.mjs';
import type { WsUpstreamLine } from '../../../bench/ws-codex-run.js';

const { cleanup, tempDir } = cleanupAfterAll();
const TEST_MS = 60_000;
/** A bound on each wait for the upstream's log (it times nothing). */
const WAIT_MS = 10_000;
const BETA = 'responses_websockets=2026-02-06';
const tool = (cmd: string, arg: string, env: string) => ({ available: spawnSync(cmd, [arg], { stdio: 'ignore' }).status === 0, required: process.env[env] === '1', cmd });
const TOOLS = { nginx: tool('nginx', '-v', 'GWC_REQUIRE_NGINX'), caddy: tool('caddy', 'version', 'GWC_REQUIRE_CADDY'), haproxy: tool('haproxy', '-v', 'GWC_REQUIRE_HAPROXY') };
const toolOf = (p: WsProxy) => TOOLS[p.startsWith('nginx') ? 'nginx' : (p as 'caddy' | 'haproxy')];

/** The upstream and the proxy in front of it, each on a port of its own; stopped after the file. */
async function through(proxy: WsProxy) {
  const t = toolOf(proxy);
  expect(t.available, `${t.cmd} is required here (its GWC_REQUIRE_* is 1)`).toBe(true);
  const work = tempDir(`gwc-ws-${proxy}-`);
  chmodSync(work, 0o755); // nginx's workers run as nobody when the tests run as root
  const log = path.join(work, 'upstream.jsonl');
  writeFileSync(log, '');
  const [up, listen] = [await freePort(), await freePort()];
  const upstream = startChild(process.execPath, [path.join(ROOT, 'test', 'helpers', 'ws-upstream.mjs'), ROOT, up, log], {}, work);
  cleanup.push(() => stopChild(upstream));
  await listening(upstream, up, 'the ws upstream');
  const [cmd, args, env] = proxyCommand(proxy, ROOT, listen, up, work);
  const gw = startChild(cmd, args, env, work);
  cleanup.push(() => stopChild(gw));
  await listening(gw, listen, proxy);
  const lines = () => readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as WsUpstreamLine & { text?: string; bytes?: number; reason?: string; version?: string });
  /** The upstream's log once `ok` holds of it, or a failure naming what it holds. */
  const until = async (ok: (l: ReturnType<typeof lines>) => boolean, what: string) => {
    const deadline = performance.now() + WAIT_MS;
    while (!ok(lines())) {
      if (performance.now() > deadline) expect.fail(`the upstream's log never showed ${what}: ${JSON.stringify(lines())}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return lines();
  };
  return { url: `ws://127.0.0.1:${listen}/v1/responses`, lines, until };
}

/** Opens the socket as Codex does; resolves with it open, or with the HTTP answer that refused it. */
function open(url: string): Promise<{ ws: WebSocket } | { status: number; body: string }> {
  const ws = new WebSocket(url, { headers: { authorization: 'Bearer sk-gwc-ws-test', 'openai-beta': BETA }, perMessageDeflate: false });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('utf8')));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    ws.once('error', reject);
  });
}

/** Sends one response.create (with a field no schema has) and collects events up to response.completed. */
function turn(ws: WebSocket, n: number): Promise<{ sent: string; events: { type: string; sequence_number: number }[] }> {
  const sent = JSON.stringify({ type: 'response.create', model: 'gpt-5.5', input: [{ role: 'user', content: `turn ${n}` }], gwc_unknown_field: { keep: [1, 2.5, 'é', null] } });
  const events: { type: string; sequence_number: number }[] = [];
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const e = JSON.parse(data.toString()) as { type: string; sequence_number: number };
      events.push(e);
      if (e.type === 'response.completed') {
        ws.off('message', onMessage);
        resolve({ sent, events });
      }
    };
    ws.on('message', onMessage);
    ws.send(sent);
  });
}

const EVENTS = ['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added', 'response.output_text.delta', 'response.output_text.delta', 'response.output_text.delta', 'response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed'];

for (const proxy of ['nginx-plain', 'nginx-streaming'] as const) {
  describe.skipIf(!TOOLS.nginx.available && !TOOLS.nginx.required)(`${proxy}: the upgrade refused without a word`, () => {
    it("the upstream gets a plain HTTP/1.0 GET with no Upgrade header and answers it as one; nginx hands that 404 to the client", async () => {
      const p = await through(proxy);
      const r = await open(p.url);
      expect(r).toMatchObject({ status: 404 });
      expect((r as { body: string }).body).toContain('no route GET /v1/responses');
      const [get] = (await p.until((l) => l.some((x) => x.kind === 'http'), 'the GET')).filter((x) => x.kind === 'http');
      expect(get).toMatchObject({ method: 'GET', path: '/v1/responses', version: proxy === 'nginx-plain' ? '1.0' : '1.1' });
      expect(get.headers).not.toContain('upgrade');
      expect(get.headers).toContain('openai-beta');
      expect(p.lines().filter((x) => x.kind === 'upgrade')).toEqual([]);
    }, TEST_MS);
  });
}

for (const proxy of ['nginx-websockets', 'caddy', 'haproxy'] as const) {
  const t = toolOf(proxy);
  describe.skipIf(!t.available && !t.required)(`${proxy}: the socket carried`, () => {
    it('the upgrade reaches the upstream with its beta header and credential; two turns on one socket come back whole and in order; the close code and reason pass', async () => {
      const p = await through(proxy);
      const r = await open(p.url);
      expect('ws' in r, JSON.stringify(r)).toBe(true);
      const { ws } = r as { ws: WebSocket };
      const [upgrade] = p.lines().filter((x) => x.kind === 'upgrade');
      expect(upgrade.headers).toMatchObject({ upgrade: 'websocket', 'openai-beta': BETA, authorization: '(present)' });
      for (const n of [1, 2]) {
        const { sent, events } = await turn(ws, n);
        expect(events.map((e) => e.type)).toEqual(EVENTS);
        expect(events.map((e) => e.sequence_number)).toEqual(EVENTS.map((_, i) => i));
        const ins = (await p.until((l) => l.filter((x) => x.kind === 'frame' && x.dir === 'in').length >= n, `frame ${n}`)).filter((x) => x.kind === 'frame' && x.dir === 'in');
        expect(ins[n - 1]).toMatchObject({ type: 'response.create', binary: false, text: sent, bytes: Buffer.byteLength(sent) });
      }
      ws.close(4001, 'gwc: done');
      const closes = (await p.until((l) => l.some((x) => x.kind === 'close'), 'the close')).filter((x) => x.kind === 'close');
      expect(closes).toEqual([expect.objectContaining({ code: 4001, reason: 'gwc: done' })]);
      expect(p.lines().filter((x) => x.kind === 'http')).toEqual([]);
    }, TEST_MS);
  });
}
