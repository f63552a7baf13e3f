// One turn of Codex CLI in its WebSocket mode through one real proxy (or straight), measured in a
// loopback-only network namespace: `unshare -n` runs test/helpers/ws-codex-ns.mjs, which starts
// the WebSocket-speaking upstream, the proxy and Codex in there and prints one JSON line. Shared
// by the table of bench/ws-codex.ts and the tests of test/real/sockets/.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootPath } from '../src/core/paths.js';
import { runInLoopbackNamespace } from '../src/real-clients/namespace.js';

export const WS_GATEWAYS = ['none', 'nginx-plain', 'nginx-streaming', 'nginx-websockets', 'caddy', 'haproxy', 'reference'] as const;
export type WsGateway = (typeof WS_GATEWAYS)[number];

/** One line the upstream logged: an HTTP request, an upgrade, a socket's open or close, a frame. */
export interface WsUpstreamLine {
  at: number;
  kind: 'http' | 'upgrade' | 'open' | 'frame' | 'close';
  method?: string;
  path?: string;
  /** An HTTP request's version (nginx speaks 1.0 to its upstream unless told otherwise). */
  version?: string;
  headers?: Record<string, string | string[]> | string[];
  dir?: 'in' | 'out';
  type?: string;
  generate?: boolean;
  binary?: boolean;
  code?: number;
}

export interface WsCodexRun {
  gateway: WsGateway;
  error?: string;
  codex?: {
    code: number | null;
    ms: number;
    timedOut: boolean;
    turnStartedMs: number | null;
    /** The answer's item.completed line, from Codex's start. */
    firstItemMs: number | null;
    fellBack: boolean;
    fellBackMs: number | null;
    /** Its "Reconnecting... n/5" lines. */
    retries: number;
    /** Its "failed to connect to Responses WebSocket" lines (the start-up prewarm's included). */
    attempts: number;
    answer: string | null;
    notes: string[];
  };
  upstream: WsUpstreamLine[];
  gatewayLog: string | null;
}

/** A bound on the whole namespace run (Codex's own time limit is CODEX_MS): it times nothing. */
const RUN_MS = 180_000;
const CODEX_MS = 120_000;

/** Runs one measured turn; rejects when the namespace run printed no result. */
export async function codexWsRun(gateway: WsGateway, o: { connectTimeoutMs?: number; refuse?: number } = {}): Promise<WsCodexRun> {
  const work = mkdtempSync(join(tmpdir(), `gwc-ws-codex-${gateway}-`));
  // As root, nginx's workers run as nobody and must reach the prefix below (a body past its buffer goes to a temp file there).
  chmodSync(work, 0o755);
  const opts = { root: rootPath(), work: join(work, 'run'), gateway, connectTimeoutMs: o.connectTimeoutMs, refuse: o.refuse, timeoutMs: CODEX_MS };
  try {
    const { result } = await runInLoopbackNamespace<WsCodexRun>(rootPath('test', 'helpers', 'ws-codex-ns.mjs'), opts, { cwd: rootPath(), limitMs: RUN_MS, label: `through ${gateway}` });
    return result;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** What reached the upstream, counted: upgrades (accepted sockets), plain GETs of the socket's path, POSTs. */
export function wsUpstreamCounts(r: WsCodexRun): { upgrades: number; plainGets: number; posts: number; framesIn: number } {
  const u = r.upstream;
  return {
    upgrades: u.filter((l) => l.kind === 'upgrade').length,
    plainGets: u.filter((l) => l.kind === 'http' && l.method === 'GET' && l.path === '/v1/responses').length,
    posts: u.filter((l) => l.kind === 'http' && l.method === 'POST').length,
    framesIn: u.filter((l) => l.kind === 'frame' && l.dir === 'in').length,
  };
}
