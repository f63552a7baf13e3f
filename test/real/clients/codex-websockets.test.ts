// Codex CLI in its WebSocket mode (`supports_websockets` in its provider's table), straight and
// through real proxies, each turn in its own loopback-only network namespace (bench/ws-codex-run.ts,
// the same runs as `npm run bench:ws-codex`): what reached the upstream (an upgrade and its
// frames, plain GETs, a POST) and whether Codex fell back to HTTPS, read from the upstream's log
// and Codex's own output. The seconds a fallback costs are measured by the bench
// (docs/real-gateways.md#websockets-measured); nothing here judges time.
//
// Needs Codex under GWC_CODEX_DIR, root with `unshare` and `ip`, nginx, caddy and haproxy on PATH
// and the built CLI. Skipped when Codex is absent and GWC_REQUIRE_CODEX is not 1; a missing proxy
// skips its test unless its GWC_REQUIRE_* is 1 (CI).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { codexWsRun, wsUpstreamCounts, type WsCodexRun, type WsGateway } from '../../../bench/ws-codex-run.js';
import { codexBinary } from '../../../src/real-clients/codex.js';

const TEST_MS = 200_000;
const BETA = 'responses_websockets=2026-02-06';
/** Codex and a loopback-only namespace to run it in (root, unshare, ip). */
const namespace = spawnSync('unshare', ['-n', 'sh', '-c', 'ip link set lo up'], { stdio: 'ignore' }).status === 0;
const codex = { available: existsSync(codexBinary()) && namespace, required: process.env.GWC_REQUIRE_CODEX === '1' };
const has = (cmd: string, arg: string, env: string) => spawnSync(cmd, [arg], { stdio: 'ignore' }).status === 0 || process.env[env] === '1';
const PROXIES: Record<string, boolean> = { nginx: has('nginx', '-v', 'GWC_REQUIRE_NGINX'), caddy: has('caddy', 'version', 'GWC_REQUIRE_CADDY'), haproxy: has('haproxy', '-v', 'GWC_REQUIRE_HAPROXY') };

async function run(gateway: WsGateway, refuse?: number): Promise<WsCodexRun & { codex: NonNullable<WsCodexRun['codex']> }> {
  expect(codex.available, `GWC_REQUIRE_CODEX=1 but ${codexBinary()} is absent or \`unshare -n\` fails here (it needs root)`).toBe(true);
  const r = await codexWsRun(gateway, { refuse });
  expect(r.error, r.error).toBeUndefined();
  expect(r.codex?.timedOut, JSON.stringify(r.codex)).toBe(false);
  return r as WsCodexRun & { codex: NonNullable<WsCodexRun['codex']> };
}

/** The turn went over the socket: one upgrade carrying the beta header, the warm-up and the turn as frames, no HTTP, no fallback. */
function overTheSocket(r: Awaited<ReturnType<typeof run>>) {
  expect(r.codex, JSON.stringify(r.codex.notes)).toMatchObject({ code: 0, fellBack: false, answer: 'Hello from the socket.' });
  expect(wsUpstreamCounts(r)).toEqual({ upgrades: 1, plainGets: 0, posts: 0, framesIn: 2 });
  const upgrade = r.upstream.find((l) => l.kind === 'upgrade');
  expect(upgrade?.headers).toMatchObject({ upgrade: 'websocket', 'openai-beta': BETA, authorization: '(present)' });
  const frames = r.upstream.filter((l) => l.kind === 'frame' && l.dir === 'in');
  expect(frames.map((f) => [f.type, f.generate ?? null, f.binary])).toEqual([
    ['response.create', false, false],
    ['response.create', null, false],
  ]);
}

describe.skipIf(!codex.available && !codex.required)('Codex CLI in its WebSocket mode (in a loopback-only namespace)', () => {
  it('straight: one upgrade with the beta header; the warm-up (generate: false) and the turn as text frames on that socket; no fallback', async () => {
    overTheSocket(await run('none'));
  }, TEST_MS);

  it.skipIf(!PROXIES.nginx)('nginx plain.conf: every try reaches the upstream as a plain GET (no Upgrade), Codex falls back and sends the turn as one POST', async () => {
    const r = await run('nginx-plain');
    expect(r.codex, JSON.stringify(r.codex.notes)).toMatchObject({ code: 0, fellBack: true, answer: 'Hello over HTTP.' });
    const c = wsUpstreamCounts(r);
    expect(c).toMatchObject({ upgrades: 0, posts: 1, framesIn: 0 });
    // 7 in every run measured (the warm-up and 5 reconnects); at least one retry is what costs the seconds.
    expect(c.plainGets).toBeGreaterThanOrEqual(2);
    expect(r.upstream.filter((l) => l.kind === 'http' && l.method === 'GET').every((l) => l.version === '1.0' && !(l.headers as string[]).includes('upgrade'))).toBe(true);
    expect(r.codex.retries).toBeGreaterThanOrEqual(1);
  }, TEST_MS);

  for (const proxy of ['nginx-websockets', 'caddy', 'haproxy'] as const) {
    it.skipIf(!PROXIES[proxy.replace(/-.*/, '')])(`${proxy}: the socket is carried, nothing falls back`, async () => {
      overTheSocket(await run(proxy));
    }, TEST_MS);
  }

  it('an upgrade refused with 426 Upgrade Required: one try, no retry, no fallback notice, the turn over HTTPS at once', async () => {
    const r = await run('none', 426);
    expect(r.codex, JSON.stringify(r.codex.notes)).toMatchObject({ code: 0, fellBack: false, retries: 0, answer: 'Hello over HTTP.' });
    expect(wsUpstreamCounts(r)).toEqual({ upgrades: 1, plainGets: 0, posts: 1, framesIn: 0 });
  }, TEST_MS);

  it('an upgrade refused with 400: Codex takes it for a bad request and the turn fails, with no fallback', async () => {
    const r = await run('none', 400);
    expect(r.codex, JSON.stringify(r.codex.notes)).toMatchObject({ code: 1, fellBack: false, answer: null });
    expect(wsUpstreamCounts(r)).toMatchObject({ plainGets: 0, posts: 0, framesIn: 0 });
    expect(r.codex.notes.some((n) => n.includes('turn.failed') && n.includes('WebSockets are not served here (400)'))).toBe(true);
  }, TEST_MS);
});
