// Compares a real client's straight run with its run through the gateway. Each difference is
// evidence: what it concerns, the straight value beside the gateway's, and the smallest diff
// (the first differing byte with a little context, or the first differing JSON path; an encoded
// body decoded first, encoded-body.ts). The straight run is the reference: a difference is
// always the gateway's side that changed.
//
// Values the client draws anew per run (its session id, device id, or what matches a pattern the
// client's driver gives: Codex CLI's message ids) and the base URL each run was pointed at are
// replaced by names on each side, from that side's own client, before comparing; the keys of a
// body's objects a client serialises in an order of chance (Codex CLI's client_metadata) are
// sorted; nothing else is normalised.
import type { ClientRun, StepResult, UpstreamRequest } from './types.js';
import { pairRequests } from './pairing.js';
import { comparableBody, contentEncoding } from './encoded-body.js';
import { SESSION_SPREAD_MS } from './script.js';
import { maskCut } from '../core/mask.js';

export { align } from './pairing.js';

/**
 * Headers a proxy legitimately sets or changes: the host it connects to, where the request came
 * from (x-forwarded-*, forwarded, x-real-ip, via) and the connection's own headers (RFC 9110
 * 7.6.1), content-length among them: the body is compared byte for byte instead.
 */
export const PROXY_HEADERS = ['host', 'x-forwarded-*', 'forwarded', 'x-real-ip', 'via', 'connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'content-length'];
const isProxyHeader = (name: string) => PROXY_HEADERS.includes(name) || name.startsWith('x-forwarded-');

/** Keys of a client's output that measure time or name the run (Claude Code's socket path holds its pid), not what it got. */
const TIMING_KEYS = new Set(['duration_ms', 'duration_api_ms', 'durationMs', 'ttft_ms', 'ttft_stream_ms', 'time_to_request_ms', 'first_content_frame_ms', 'timestamp', 'uuid', 'fetchedAt', 'messaging_socket_path']);

export interface Difference {
  /** What differs: `request 2 body`, `request 1 header anthropic-beta`, `step "models.list"`... */
  what: string;
  straight: string;
  gateway: string;
  /** The smallest diff, in one line. */
  diff: string;
}

const CONTEXT = 60;
const cut = (s: string, n = 400) => maskCut(s, n);

/** The first differing offset of two strings, with context on both sides. */
export function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (i === a.length && i === b.length) return 'equal';
  const from = Math.max(0, i - CONTEXT);
  return `at byte ${i} of ${a.length}/${b.length}: straight ${JSON.stringify(maskCut(a.slice(from, i + CONTEXT), 2 * CONTEXT, a.length, undefined, from))}, gateway ${JSON.stringify(maskCut(b.slice(from, i + CONTEXT), 2 * CONTEXT, b.length, undefined, from))}`;
}

/** The first JSON path where two values differ, or null when they are equal. */
export function firstJsonDifference(a: unknown, b: unknown, at = '$'): { path: string; straight: unknown; gateway: unknown } | null {
  if (a === b) return null;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= a.length || i >= b.length) return { path: `${at}[${i}]`, straight: a[i], gateway: b[i] };
      const d = firstJsonDifference(a[i], b[i], `${at}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    for (const k of [...ka, ...kb.filter((k) => !ka.includes(k))]) {
      const d = firstJsonDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}.${k}`);
      if (d) return d;
    }
    if (ka.join() !== kb.join()) return { path: `${at} (key order)`, straight: ka, gateway: kb };
    return null;
  }
  return { path: at, straight: a, gateway: b };
}

/** Replaces a run's own volatile values (and what matches its volatile patterns) and base URL by their names. */
export function normaliser(run: Pick<ClientRun, 'volatile' | 'volatilePatterns'>, base: string): (s: string) => string {
  const pairs = [...Object.entries(run.volatile), ['BASE_URL', base]].filter(([, v]) => v).sort((x, y) => y[1].length - x[1].length);
  const patterns = Object.entries(run.volatilePatterns ?? {}).map(([name, re]) => [name, new RegExp(re, 'g')] as const);
  // Each distinct match of a pattern is numbered in order of appearance: `<NAME_1>`, `<NAME_2>`...
  const numbered = (s: string, name: string, re: RegExp) => {
    const seen = new Map<string, number>();
    return s.replace(re, (m) => `<${name}_${seen.get(m) ?? (seen.set(m, seen.size + 1), seen.size)}>`);
  };
  return (s) => patterns.reduce((acc, [name, re]) => numbered(acc, name, re), pairs.reduce((acc, [name, v]) => acc.split(v).join(`<${name}>`), s));
}

/**
 * A body with the keys of `unordered` top-level objects sorted, when it is JSON that a parse and
 * re-serialisation gives back byte for byte (so no other byte is lost); otherwise as it was.
 */
export function withSortedKeys(body: string, unordered: readonly string[] | undefined): string {
  if (!unordered?.length || !body.startsWith('{')) return body;
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return body;
  }
  if (JSON.stringify(parsed) !== body) return body;
  for (const k of unordered) {
    const v = parsed[k];
    if (v && typeof v === 'object' && !Array.isArray(v)) parsed[k] = Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
  return JSON.stringify(parsed);
}

function headerMap(h: Array<[string, string]>, norm: (s: string) => string, skip: readonly string[] = []): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const [k, v] of h) {
    const name = k.toLowerCase();
    if (isProxyHeader(name) || skip.includes(name)) continue;
    m.set(name, [...(m.get(name) ?? []), norm(v)]);
  }
  return m;
}

const line = (r: UpstreamRequest | undefined) => (r ? `${r.method} ${r.url}` : '(none)');

function compareHeaders(what: string, a: UpstreamRequest, b: UpstreamRequest, ns: (s: string) => string, ng: (s: string) => string, out: Difference[], skip: readonly string[]) {
  const ha = headerMap(a.headers, ns, skip);
  const hb = headerMap(b.headers, ng, skip);
  for (const name of new Set([...ha.keys(), ...hb.keys()])) {
    const va = JSON.stringify(ha.get(name) ?? []);
    const vb = JSON.stringify(hb.get(name) ?? []);
    if (va !== vb) out.push({ what: `${what} header ${name}`, straight: va, gateway: vb, diff: !ha.has(name) ? 'added by the gateway' : !hb.has(name) ? 'removed by the gateway' : firstDifference(va, vb) });
  }
}

/**
 * CLIENT-1: what reached the upstream, request by request (paired by endpoint, in order).
 * `targeting` names the headers the client sent the gateway only (its targeting): whether the
 * gateway forwards them or not is not a difference.
 */
export function compareRequests(s: ClientRun, g: ClientRun, bases: { straight: string; gateway: string }, targeting: readonly string[] = []): Difference[] {
  const ns = normaliser(s, bases.straight);
  const ng = normaliser(g, bases.gateway);
  const out: Difference[] = [];
  pairRequests(s, g).forEach(([a, b], k) => {
    const what = `request ${k + 1} (${line(a ?? b)})`;
    if (!a || !b) {
      out.push({ what, straight: line(a), gateway: line(b), diff: a ? 'missing through the gateway' : 'added through the gateway' });
      return;
    }
    if (a.url !== b.url) out.push({ what: `${what} path and query`, straight: a.url, gateway: b.url, diff: firstDifference(a.url, b.url) });
    // An encoded body is compared decoded (encoded-body.ts); its Content-Encoding as a header.
    const [ea, eb] = [comparableBody(a), comparableBody(b)];
    const ba = ns(withSortedKeys(ea.text, s.unorderedKeys));
    const bb = ng(withSortedKeys(eb.text, g.unorderedKeys));
    const decoded = [...new Set([ea.encoding, eb.encoding].filter((e) => e))];
    if (ba !== bb) out.push({ what: `${what} body${decoded.length ? ` (compared decoded from ${decoded.join(' and ')})` : ''}`, straight: cut(ba), gateway: cut(bb), diff: firstDifference(ba, bb) });
    // A socket's upgrade (the straight run's answer was 101) is answered with no body to encode:
    // an Accept-Encoding a proxy adds to it (Caddy 2.6's Go transport adds `gzip`) changes nothing.
    compareHeaders(what, a, b, ns, ng, out, a.status === 101 ? [...targeting, 'accept-encoding'] : targeting);
  });
  return out;
}

/** The item types of a Responses body's `input`, runs of one type counted (`message x4, function_call`); null for any other body. */
function inputTypes(body: string): string | null {
  let input: unknown;
  try {
    input = (JSON.parse(Buffer.from(body, 'base64').toString('utf8')) as { input?: unknown }).input;
  } catch {
    return null;
  }
  if (!Array.isArray(input)) return null;
  const runs: Array<[string, number]> = [];
  for (const i of input) {
    const t = String((i as { type?: unknown } | null)?.type);
    if (runs.length && runs[runs.length - 1][0] === t) runs[runs.length - 1][1]++;
    else runs.push([t, 1]);
  }
  return runs.map(([t, n]) => (n > 1 ? `${t} x${n}` : t)).join(', ');
}

/** One line per request the upstream got: method and path, its Content-Encoding when it has one, and the item types of a Responses input. */
export function requestLines(r: Pick<ClientRun, 'requests'>): string[] {
  return r.requests.map((q) => {
    const enc = contentEncoding(q);
    const body = comparableBody(q);
    const types = enc && !body.encoding ? null : inputTypes(Buffer.from(body.text, 'latin1').toString('base64'));
    return `${line(q)}${enc ? ` (content-encoding: ${enc})` : ''}${types ? ` (input: ${types})` : ''}`;
  });
}

/** Response headers a proxy legitimately sets: its own `server` (RFC 9110 10.2.4) and `date`, and the proxy set. */
const isProxyResponseHeader = (h: string) => isProxyHeader(h) || h === 'server' || h === 'date';

/**
 * A client's result as JSON with the run's own values named and timing keys dropped. Response
 * headers an SDK exposes (genai's sdkHttpResponse) lose those a proxy legitimately sets.
 */
function comparable(v: unknown, norm: (s: string) => string): unknown {
  const json = JSON.stringify(v ?? null, (k, x) => {
    if (TIMING_KEYS.has(k)) return undefined;
    if (k === 'headers' && x && typeof x === 'object' && !Array.isArray(x)) return Object.fromEntries(Object.entries(x as Record<string, unknown>).filter(([h]) => !isProxyResponseHeader(h.toLowerCase())));
    return x;
  });
  return JSON.parse(norm(json));
}

function compareJson(what: string, a: unknown, b: unknown, out: Difference[]) {
  const d = firstJsonDifference(a, b);
  if (d) out.push({ what, straight: cut(JSON.stringify(d.straight) ?? 'undefined'), gateway: cut(JSON.stringify(d.gateway) ?? 'undefined'), diff: `at ${d.path}` });
}

/**
 * How much of the straight run's spread a gateway run must keep to count as incremental. The
 * straight spread is capped at the one the upstream gave (SESSION_SPREAD_MS): a straight run a
 * busy machine stretched does not raise the bar for the gateway.
 */
export const INCREMENTAL_SHARE = 0.5;
const spread = (st: StepResult['stream']) => (st && st.arrivalsMs.length > 1 ? st.arrivalsMs[st.arrivalsMs.length - 1] - st.arrivalsMs[0] : 0);

/** CLIENT-2: what the client got, step by step, its exit, the files it wrote, and whether streams came in increments. */
export function compareAnswers(s: ClientRun, g: ClientRun, bases: { straight: string; gateway: string }): Difference[] {
  const ns = normaliser(s, bases.straight);
  const ng = normaliser(g, bases.gateway);
  const out: Difference[] = [];
  if (s.exit.code !== g.exit.code || s.exit.timedOut !== g.exit.timedOut) out.push({ what: 'exit status', straight: JSON.stringify(s.exit), gateway: JSON.stringify(g.exit), diff: `exit ${s.exit.code} straight, ${g.exit.code} through the gateway` });
  for (let i = 0; i < Math.max(s.steps.length, g.steps.length); i++) {
    const a = s.steps[i];
    const b = g.steps[i];
    const what = `step ${i + 1} "${a?.name ?? b?.name}"`;
    if (a?.error !== b?.error) out.push({ what: `${what} error`, straight: String(a?.error), gateway: String(b?.error), diff: 'the client raised a different error' });
    compareJson(`${what} result`, comparable(a?.result, ns), comparable(b?.result, ng), out);
    const sa = spread(a?.stream);
    const sb = spread(b?.stream);
    if (sa > 0 && sb < Math.min(sa, SESSION_SPREAD_MS) * INCREMENTAL_SHARE)
      out.push({ what: `${what} incremental delivery`, straight: `${a!.stream!.arrivalsMs.length} deltas over ${sa} ms`, gateway: `${b?.stream?.arrivalsMs.length ?? 0} deltas over ${sb} ms`, diff: `the answer arrived in one piece or nearly (under ${INCREMENTAL_SHARE * 100}% of the straight spread)` });
  }
  compareJson('files the client wrote', comparable(s.files, ns), comparable(g.files, ng), out);
  return out;
}

export interface TimingBounds {
  /** Added time to first token or to completion, per streamed step. */
  maxAddedMs: number;
  /** Added longest gap between two deltas. */
  maxAddedGapMs: number;
}

const maxGap = (a: number[]) => a.slice(1).reduce((m, t, i) => Math.max(m, t - a[i]), 0);
const RETRY = 'x-stainless-retry-count';

/**
 * The retries a client reports in its own output: Claude Code sets its SDK's retry count aside
 * and retries itself, each attempt a first one (`x-stainless-retry-count: 0`), and prints a
 * `{"type":"system","subtype":"api_retry","attempt":1,"error_status":529,...}` line per retry.
 */
function reportedRetries(r: ClientRun): string[] {
  const lines = r.steps.flatMap((s) => {
    const system = (s.result as { system?: unknown } | null)?.system;
    return Array.isArray(system) ? (system as unknown[]) : [];
  });
  return lines.filter((l): l is Record<string, unknown> => !!l && typeof l === 'object' && (l as Record<string, unknown>).subtype === 'api_retry').map((l) => `attempt ${l.attempt}: ${l.error_status} ${l.error}`);
}

/** CLIENT-3: time as the client feels it, and the client's own retries and time-outs. */
export function compareTiming(s: ClientRun, g: ClientRun, b: TimingBounds): { differences: Difference[]; table: Array<Record<string, unknown>> } {
  const out: Difference[] = [];
  const table: Array<Record<string, unknown>> = [];
  for (let i = 0; i < Math.min(s.steps.length, g.steps.length); i++) {
    const a = s.steps[i].stream;
    const c = g.steps[i].stream;
    if (!a || !c) continue;
    const row = { step: s.steps[i].name, firstTokenMs: { straight: a.firstTokenMs, gateway: c.firstTokenMs }, doneMs: { straight: a.doneMs, gateway: c.doneMs }, longestGapMs: { straight: maxGap(a.arrivalsMs), gateway: maxGap(c.arrivalsMs) } };
    table.push(row);
    const what = `step ${i + 1} "${s.steps[i].name}"`;
    if (a.firstTokenMs !== null && (c.firstTokenMs === null || c.firstTokenMs - a.firstTokenMs > b.maxAddedMs)) out.push({ what: `${what} time to first token`, straight: `${a.firstTokenMs} ms`, gateway: `${c.firstTokenMs ?? 'never'} ms`, diff: `more than ${b.maxAddedMs} ms added` });
    if (c.doneMs - a.doneMs > b.maxAddedMs) out.push({ what: `${what} time to completion`, straight: `${a.doneMs} ms`, gateway: `${c.doneMs} ms`, diff: `more than ${b.maxAddedMs} ms added` });
    if (maxGap(c.arrivalsMs) - maxGap(a.arrivalsMs) > b.maxAddedGapMs) out.push({ what: `${what} longest gap between deltas`, straight: `${maxGap(a.arrivalsMs)} ms`, gateway: `${maxGap(c.arrivalsMs)} ms`, diff: `more than ${b.maxAddedGapMs} ms added` });
  }
  const retries = (r: ClientRun) => r.requests.filter((q) => q.headers.some(([k, v]) => k.toLowerCase() === RETRY && v !== '0')).map(line);
  const closed = (r: ClientRun) => r.requests.filter((q) => q.ended === 'client-closed').map(line);
  const checks = [
    ['client retries (x-stainless-retry-count above 0)', retries],
    ['client retries it reported (Claude Code\'s api_retry lines)', reportedRetries],
    ['requests the client gave up on (its own time-out)', closed],
  ] as const;
  for (const [what, f] of checks) {
    const x = f(s);
    const y = f(g);
    if (y.length > x.length) out.push({ what, straight: JSON.stringify(x), gateway: JSON.stringify(y), diff: `${y.length - x.length} more through the gateway` });
  }
  // A file the client writes only on an answer in time (Claude Code's discovery cache).
  for (const [file, v] of Object.entries(s.files)) if (v !== null && g.files[file] === null) out.push({ what: `${file} not written`, straight: 'written', gateway: 'absent', diff: 'the client gave up waiting for what fills it (its own time-out)' });
  if (g.exit.timedOut && !s.exit.timedOut) out.push({ what: 'the run\'s time limit', straight: 'ended in time', gateway: 'killed at the time limit', diff: 'the client did not finish through the gateway' });
  return { differences: out, table };
}
