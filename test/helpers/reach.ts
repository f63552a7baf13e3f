// Which checks a fault of the reference gateway can reach, read off a traced clean run
// (reference/trace.ts): a check is reached when its fault's hooks would alter one of the
// requests it sent, or that request's answer. The detection matrix runs a fault with the
// checks it reaches (its expected ones among them, held by a test) instead of with every
// check. A fault whose effect goes beyond the requests it alters one by one (a translating
// route, an HTTP/2 hop, a connection pool, an outage answer, a limit, a fallback, state kept
// between requests, declared by Fault.fresh or seen when its hooks are asked twice) is run with
// every check: `full` says why. A fault of the WebSocket relay alone reaches the checks of suites/sockets/.
import { Writable } from 'node:stream';
import type http from 'node:http';
import type { Fault, RequestParts } from '../../reference/faults/index.js';
import type { TracedExchange } from '../../reference/trace.js';
import { tokensIn, tokensInBytes } from '../../src/upstream/contract.js';
import { SOCKETS_CHECKS } from '../../suites/sockets/index.js';

/** The checks that open sockets: a fault of the WebSocket relay alone reaches these. */
const SOCKET_CHECKS = SOCKETS_CHECKS.map((c) => c.id).sort();

export interface Reach {
  /** Why the fault runs with every check; null when its reach is `checks`. */
  full: string | null;
  /** The checks one of whose exchanges the fault alters (empty when `full`). */
  checks: string[];
  /**
   * It alters a readiness canary (a request of the run, not of a check): every run, the
   * fault's with fewer checks too, passes the readiness gate first, so this is held by the
   * matrix (the fault's run picks and runs exactly `checks`, on untranslated routes).
   */
  canary: boolean;
}

/** Who sent what in the traced run: each case token's check, and the checks that sent a request to each path (query left off), for the requests that carry no token. */
export interface Owners {
  tokens: Map<string, string>;
  lines: Map<string, Set<string>>;
}

/** The hooks whose effect is not confined to the requests they alter, each with its reason. */
const BEYOND_REQUESTS: Array<[keyof Fault, string]> = [
  ['translate', 'a translating route'],
  ['fallback', 'a declared fallback'],
  ['upstreamHttp2', 'an HTTP/2 hop to the upstream'],
  ['upstreamPool', 'its own upstream connection pool'],
  ['upstreamSockets', 'a bound on upstream connections'],
  ['limit', 'a gateway-level limit'],
  ['upstreamDown', 'its answer when the upstream is down'],
];

/** Exchanges whose request body is at most this long are asked twice (state between requests shows as a second answer unlike the first). */
const ASK_AGAIN_BYTES = 1024 * 1024 - 1;

/** A response that takes whatever a hook writes and sends nothing. */
function sink(): http.ServerResponse {
  const w = new Writable({ write: (_c, _e, done) => done() }) as unknown as http.ServerResponse & Record<string, unknown>;
  Object.assign(w, { headersSent: false, statusCode: 200, writeHead: () => w, setHeader: () => w, getHeader: () => undefined, removeHeader: () => undefined, flushHeaders: () => undefined, socket: null });
  return w;
}

// The body is handed on as it is, not copied (a large one is up to 32 MB, asked of every fault):
// the hooks give a request a new body, none writes into the one it has.
const EMPTY = Buffer.alloc(0);
const copy = (p: TracedExchange['parts']): RequestParts => ({ method: p.method, path: p.path, headers: p.headers.map(([k, v]) => [k, v] as [string, string]), body: p.body ?? EMPTY });
const same = (a: RequestParts, b: RequestParts) => a.method === b.method && a.path === b.path && JSON.stringify(a.headers) === JSON.stringify(b.headers) && (a.body === b.body || a.body.equals(b.body));
const pairs = (h: http.IncomingHttpHeaders): Array<[string, string]> => Object.entries(h).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x] as [string, string]) : v === undefined ? [] : [[k, String(v)] as [string, string]]));

/** Whether the fault's hooks would change anything of this exchange, as the gateway calls them (reference/gateway.ts). A hook that throws counts as a change. */
export function alters(f: Fault, x: TracedExchange): boolean {
  try {
    const before = copy(x.parts);
    const parts = copy(x.parts);
    // A body the trace could not keep: any hook that reads requests may change it.
    if (x.parts.body === null && (f.request || f.intercept || f.delayMs)) return true;
    if (f.intercept?.(parts, sink())) return true;
    f.request?.(parts);
    if (!same(before, parts)) return true;
    if ((f.delayMs?.(parts) ?? 0) > 0) return true;
    if (x.aborted && f.keepUpstreamOnAbort) return true;
    const up = x.upstream;
    // An exchange the upstream never answered is the one a resend after a time-out alters.
    if (!up) return !!f.resendAfterTimeout;
    if (f.retry && up.status === f.retry.status) return true;
    if (!up.complete && f.upstreamCut) return true;
    // A rewritten answer is buffered whatever the rewrite returns: its delivery changes.
    if (f.response && (f.responseWhen?.(parts, up.status) ?? true)) return true;
    const isJson = /json/i.test(String(up.headers['content-type'] ?? ''));
    if (f.responseJson && isJson && /^\/v1\/messages(\?|$)/.test(parts.path)) return true;
    const streamed = f.stream?.(parts, up.status, pairs(up.headers));
    // Made only to be asked: destroyed at once, so none of its timers runs.
    streamed?.transform.destroy();
    return !!streamed;
  } catch {
    return true;
  }
}

/** The case tokens an exchange carries (in its URL, its headers, its body). */
export function tokensOf(x: TracedExchange): string[] {
  return [...tokensIn(x.parts.path), ...x.parts.headers.flatMap(([, v]) => tokensIn(v)), ...(x.parts.body ? tokensInBytes(x.parts.body) : [])];
}

/** One pass of the fault's hooks over the trace: the checks of the exchanges it alters, or why it reaches the whole run. */
function pass(f: Fault, trace: TracedExchange[], owners: Owners): { checks: Set<string>; canary: boolean; whole: string | null } {
  const checks = new Set<string>();
  let canary = false;
  for (const x of trace) {
    if (!alters(f, x)) continue;
    const tokens = tokensOf(x);
    const line = x.parts.path.split('?')[0];
    if (!tokens.length) {
      const senders = owners.lines.get(line);
      if (!senders) return { checks, canary, whole: `it alters a request that carries no case token and that no check sent (${x.parts.method} ${line})` };
      senders.forEach((c) => checks.add(c));
      continue;
    }
    const mine = [...new Set(tokens.flatMap((t) => (owners.tokens.has(t) ? [owners.tokens.get(t)!] : [])))];
    if (!mine.length) canary = true;
    mine.forEach((c) => checks.add(c));
  }
  return { checks, canary, whole: null };
}

/**
 * The reach of `f` over a clean run's `trace`, with who sent what (`owners`). The hooks are run
 * twice over the trace: a fault that answers otherwise the second time keeps state between
 * requests (a cache, a counter), so it is run with every check.
 */
export function reachOf(f: Fault, trace: TracedExchange[], owners: Owners): Reach {
  // A fault of the WebSocket relay only acts on sockets, which the trace (HTTP exchanges) does not
  // see: it reaches the checks that open sockets, those of suites/sockets/.
  if (f.socket && Object.keys(f).every((k) => ['name', 'breaks', 'description', 'socket'].includes(k))) return { full: null, checks: SOCKET_CHECKS, canary: false };
  const beyond = BEYOND_REQUESTS.find(([k]) => f[k] !== undefined);
  if (beyond) return { full: beyond[1], checks: [], canary: false };
  // A fault that makes a copy of itself for each gateway says it keeps state (Fault.fresh).
  if (f.fresh) return { full: 'it keeps state between requests (its own copy for each gateway)', checks: [], canary: false };
  // The second time the small exchanges only: asking again of the large bodies (five, of 1 to
  // 32 MB) took two thirds of the time and tells no more of state than the others do.
  const isSmall = (x: TracedExchange) => (x.parts.body?.length ?? Infinity) <= ASK_AGAIN_BYTES;
  const small = trace.filter(isSmall);
  const first = pass(f, small, owners);
  const again = pass(f, small, owners);
  const large = pass(f, trace.filter((x) => !isSmall(x)), owners);
  const whole = first.whole ?? again.whole ?? large.whole;
  if (whole) return { full: whole, checks: [], canary: false };
  if ([...again.checks].sort().join() !== [...first.checks].sort().join()) return { full: 'its hooks answer otherwise when asked again: it keeps state between requests', checks: [], canary: false };
  return { full: null, checks: [...new Set([...first.checks, ...large.checks])].sort(), canary: first.canary || large.canary };
}
