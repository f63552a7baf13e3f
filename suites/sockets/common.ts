// What only the WebSocket checks use: the routes the gateway serves (--websockets), opening a
// route through the gateway for one socket case, and the evidence of a socket (the upgrade both
// sides, a bounded and masked transcript of its messages).
import type { CheckContext, Evidence, RunSettings, Verdict } from '../../src/check/check.js';
import { SOCKET_ROUTES, type SocketRouteName } from '../../src/core/protocols.js';
import type { FrameLine, FrameTranscript } from '../../src/core/evidence.js';
import { maskCut, maskHeaders, maskUrl } from '../../src/core/mask.js';
import { openSocket, type SocketOpening } from '../../src/client/socket.js';
import { socketRoute, type SocketRoute } from '../../src/protocols/index.js';
import type { SocketExpectation, SocketFrame, SocketScript } from '../../src/upstream/socket.js';

/** The most transcript lines one piece of evidence keeps. */
const TRANSCRIPT_LINES = 60;
/** The most of one message's text a line shows. */
const LINE_TEXT = 240;

/** The socket routes the gateway says it serves (all, unless --websockets says otherwise). */
export function servedRoutes(ctx: CheckContext): SocketRouteName[] {
  return ctx.settings.websockets?.served ?? [...SOCKET_ROUTES];
}

/** The silence a socket must survive (--websocket-idle-s). */
export const DEFAULT_IDLE_S = 10;
export const idleSeconds = (s: RunSettings) => s.websockets?.idleS ?? DEFAULT_IDLE_S;

/** A socket case opened through the gateway: what the upstream got, what the client got. */
export interface Opened {
  route: SocketRoute;
  c: SocketExpectation;
  o: SocketOpening;
}

/** Registers a socket case for `script` and opens its route through the gateway, the route's own headers and credential with it. */
export async function openRoute(ctx: CheckContext, script: SocketScript, opts: { headers?: Array<[string, string]>; protocols?: string[]; deflate?: boolean; path?: string } = {}): Promise<Opened> {
  const { route } = socketRoute(script.route);
  const c = ctx.upstream.socket(script);
  const o = await openSocket(ctx.gateway, { path: opts.path ?? route.path(route.model), headers: [...route.headers, ...(opts.headers ?? [])], auth: route.credential, caseToken: c.token, protocols: opts.protocols, deflate: opts.deflate, timeoutMs: Math.min(10_000, ctx.settings.timeoutMs) });
  ctx.signal.addEventListener('abort', () => o.kind === 'open' && o.socket.end(), { once: true });
  return { route, c, o };
}

/** The upstream speaks no WebSocket here (it runs in another process): the check cannot judge. */
export const noSocketUpstream = (): Verdict => ({ ok: false, skip: true, message: 'could not judge: this run\'s recording upstream speaks no WebSocket (it runs in another process: a run attached to `gw-conformance mock`)' });

/** The socket did not open: another check (sockets.upgrade.carried) judges the upgrade; this one could not judge. */
export function notOpened(x: Opened): Verdict {
  const how = x.o.kind === 'refused' ? `answered ${x.o.status}` : x.o.kind === 'failed' ? `failed: ${x.o.error}` : 'opened';
  return { ok: false, skip: true, message: `could not judge: the ${x.route.name} socket did not open through the gateway (${how}); sockets.upgrade.carried judges the upgrade`, evidence: socketEvidence(x) };
}

/** A message of a record as a transcript line. */
function line(f: SocketFrame, seen: FrameLine['seen'], t0: number, route: SocketRoute): FrameLine {
  const text = f.binary && !/^[\x20-\x7e\s\u00a0-\uffff]*$/.test(f.text) ? `(binary, ${f.bytes} bytes)` : maskCut(f.text, LINE_TEXT, f.bytes);
  return { dir: f.dir === 'in' ? 'up' : 'down', seen, atMs: Math.round((f.at - t0) * 10) / 10, binary: f.binary, bytes: f.bytes, type: route.typeOf(f.text), text };
}

/** The socket's messages both ways, as the upstream and the client saw them, in time order, bounded. */
export function transcript(x: Opened): FrameTranscript {
  const up = x.c.sockets[0];
  const t0 = up?.openedAt ?? (x.o.kind === 'open' ? x.o.socket.openedAt : 0);
  const all = [...(up?.frames ?? []).map((f) => line(f, 'upstream', t0, x.route)), ...(x.o.kind === 'open' ? [...x.o.socket.sent, ...x.o.socket.frames].map((f) => line(f, 'client', t0, x.route)) : [])].sort((a, b) => a.atMs - b.atMs);
  return { lines: all.slice(0, TRANSCRIPT_LINES), total: all.length, left: Math.max(0, all.length - TRANSCRIPT_LINES) };
}

/** The evidence of a socket: the upgrade as the client and the upstream saw it, and the transcript. */
export function socketEvidence(x: Opened, more: Evidence = {}): Evidence {
  const up = x.c.sockets[0];
  const plain = x.c.plain[0];
  const client =
    x.o.kind === 'open'
      ? { status: 101, headers: maskHeaders(x.o.headers), ms: x.o.ms, body: '', protocol: x.o.socket.protocol, extensions: x.o.socket.extensions, closed: x.o.socket.closed ?? null }
      : x.o.kind === 'refused'
        ? { status: x.o.status, headers: maskHeaders(x.o.headers), ms: x.o.ms, body: maskCut(x.o.body, 1000) }
        : `the upgrade failed after ${x.o.ms} ms: ${maskCut(x.o.error, 400)}`;
  const upstream = up
    ? { method: 'GET', url: maskUrl(up.url), headers: maskHeaders(up.headers), subprotocols: up.subprotocols, protocol: up.protocol, offered: up.offered, extensions: up.extensions, closed: up.closed ?? null, ...(up.error ? { error: up.error } : {}) }
    : plain
      ? { method: plain.method, url: maskUrl(plain.url), headers: maskHeaders(plain.headers), upgraded: false }
      : 'the upstream received no upgrade and no request for this case';
  return { route: x.route.name, client, upstream, socketFrames: transcript(x), ...more };
}

/** Sends the route's turn carrying the case token, and waits for the answer's end at the client; true when it came. */
export async function oneTurn(x: Opened & { o: { kind: 'open' } }, extra: Record<string, unknown> = {}, graceMs = 5000): Promise<boolean> {
  const s = x.o.socket;
  const before = s.frames.filter((f) => x.route.typeOf(f.text) === x.route.ends).length;
  for (const f of x.route.turn(`Say hello. ${x.c.token}`, extra)) s.send(f);
  return s.until(() => s.frames.filter((f) => x.route.typeOf(f.text) === x.route.ends).length > before, graceMs);
}

/** Ends the check's socket. */
export function endSocket(x: Opened): void {
  if (x.o.kind === 'open') x.o.socket.end();
}
