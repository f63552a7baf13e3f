// What the load checks share: the mixed workload (three protocols, streamed and not), each
// request with its own case token that the recording upstream's answer carries back, so every
// answer can be tied to the request that asked for it; sending it through the gateway or
// straight to the recording upstream (the harness's own ceiling); and reading the streams.
import type { CheckContext, LoadSettings, Verdict } from '../../src/check/check.js';
import { limitText } from '../../src/core/limits.js';
import { DEFAULT_MODEL, minimalRequest, RECORDS, type Protocol, type StreamStep, framesOf, jsonReply } from '../../src/protocols/index.js';
import { tokensIn } from '../../src/upstream/contract.js';
import type { Expectation } from '../../src/upstream/upstream.js';
import type { HeaderList, Hold, Reply } from '../../src/upstream/scenario.js';
import { randomUUID } from 'node:crypto';
import { ERROR_MESSAGES } from '../../src/protocols/messages/index.js';
import { runLoad, type LoadOutcome, type LoadRequest, type LoadResult } from '../../src/load/engine.js';
import { cut } from '../shared/evidence.js';
import { plural } from '../../src/core/words.js';

export interface Kind {
  protocol: Protocol;
  stream: boolean;
}

export interface Planned {
  kind: Kind;
  expectation: Expectation;
}

/** The load settings of the run: set with --profile load, the only run that picks these checks (they need its feature). */
export function loadSettings(ctx: CheckContext): LoadSettings {
  if (!ctx.settings.load) throw new Error('harness bug: a load check ran without the load profile\'s settings');
  return ctx.settings.load;
}

/**
 * The load checks other than the LIMIT ones send more than a declared limit allows: in a run
 * with a declared limit they are skipped, with this reason (run them in a run without one).
 */
export function limitedSkip(ctx: CheckContext): Verdict | null {
  const l = loadSettings(ctx).declaredLimit;
  return l ? { ok: true, skip: true, message: `a gateway-level limit is declared (${limitText(l)}): this load would be refused by it; run without --declared-limit for this check` } : null;
}

/** A load check's run, skipped with limitedSkip's reason in a run with a declared limit. */
export const unlessLimited =
  (run: (ctx: CheckContext) => Promise<Verdict>) =>
  async (ctx: CheckContext): Promise<Verdict> =>
    limitedSkip(ctx) ?? run(ctx);

/** Every kind of request the run's protocols allow: each protocol, streamed and not. */
export function kindsOf(ctx: CheckContext): Kind[] {
  return loadSettings(ctx).protocols.flatMap((protocol) => [false, true].map((stream) => ({ protocol, stream })));
}

/** What the upstream answers one request, by meaning: text that begins with the request's token. */
function answerFor(p: Protocol, pieces: string[]): StreamStep[] {
  const usage = { input: 25, output: pieces.length };
  return [{ t: 'start', model: DEFAULT_MODEL[p], usage: { ...usage, output: 1 } }, ...pieces.map((text): StreamStep => ({ t: 'text', text })), { t: 'stop', stop: 'end', usage }, { t: 'end' }];
}

/** The upstream's answer to one request of `kind`, in its protocol (the record writes it), carrying its token back. */
function replyFor(kind: Kind, token: string, timing: { firstGapMs: number; gapMs: number }, hold?: Hold): Reply {
  const r = RECORDS[kind.protocol].replies;
  if (!kind.stream) return { ...jsonReply(r, r.answer({ model: DEFAULT_MODEL[kind.protocol], text: `${token} answer`, toolCalls: [], stop: 'end', usage: { input: 25, output: 2 } })), protocol: kind.protocol, ...(hold ? { hold } : {}) };
  const writer = r.streamWriter();
  const texts = answerFor(kind.protocol, [`${token} `, 'a ', 'b ', 'c']).flatMap((s) => writer.write(s));
  return { kind: 'sse', protocol: kind.protocol, status: 200, headers: r.sseHeaders, frames: framesOf(texts, timing), ...(hold ? { hold } : {}) };
}

/**
 * The upstream's error answer (429, 529...) to one request of `kind`, in its protocol's error
 * shape, its message carrying the token, with `headers` (retry-after); streamed requests get
 * the same JSON error, as the APIs answer before a stream starts.
 */
function errorFor(kind: Kind, token: string, status: number, headers: HeaderList, hold?: Hold): Reply {
  const r = RECORDS[kind.protocol].replies;
  return { ...jsonReply(r, r.error({ status, message: `${token} ${ERROR_MESSAGES[status] ?? `scripted ${status}`}` }), status, headers), protocol: kind.protocol, ...(hold ? { hold } : {}) };
}

export interface PlanOptions {
  /** Time before the first frame of a stream, and between frames. */
  firstGapMs?: number;
  gapMs?: number;
  /** The upstream answers this error instead, with these headers. */
  error?: { status: number; headers: HeaderList };
  /** The upstream holds the answer until a batch of the group is waiting (overlap). */
  hold?: Hold;
  /** Characters added to the prompt after the token (a large body). */
  padChars?: number;
}

/** Registers the upstream's answer for one request of `kind` and returns the request. */
export function plan(ctx: CheckContext, kind: Kind, opts: PlanOptions = {}): { planned: Planned; request: Omit<LoadRequest, 'headers'> & { headers: Array<[string, string]> } } {
  const timing = { firstGapMs: opts.firstGapMs ?? 0, gapMs: opts.gapMs ?? 0 };
  const err = opts.error;
  const e = ctx.upstream.answer((token) => (err ? errorFor(kind, token, err.status, err.headers, opts.hold) : replyFor(kind, token, timing, opts.hold)));
  const m = minimalRequest(kind.protocol, { text: `${e.token} load${opts.padChars ? ` ${'x'.repeat(opts.padChars)}` : ''}`, stream: kind.stream, maxTokens: 64 });
  return { planned: { kind, expectation: e }, request: { path: m.path, method: m.method, headers: m.headers, body: m.body } };
}

/** Where a request goes: through the gateway (its base path, credential, targeting) or straight to the recording upstream. */
export type Route = 'gateway' | 'direct';

/** The origin and the flat header list of a request on a route. */
export function routed(ctx: CheckContext, route: Route, r: { path: string; headers: Array<[string, string]> }, credentialSuffix = ''): { origin: string; path: string; headers: string[] } {
  if (route === 'direct') return { origin: ctx.upstream.url, path: r.path, headers: r.headers.flat() };
  const p = ctx.gateway.prepare({ path: r.path, headers: r.headers }, 'POST');
  const u = new URL(p.url);
  // Another credential: the run's own with a suffix (the limits are per credential).
  const own = new Set(ctx.gateway.credentialHeaders(ctx.gateway.authFor(r.path)).map(([, v]) => v));
  const headers = credentialSuffix ? p.headers.map((h) => (own.has(h) ? `${h}${credentialSuffix}` : h)) : p.headers;
  return { origin: u.origin, path: `${u.pathname}${u.search}`, headers };
}

export interface Sent {
  result: LoadResult;
  planned: Planned[];
  /** With `overlap`: the batch the upstream waited for, and how long at most. */
  hold?: Hold;
}

/** Answers held until this many requests are waiting at the upstream, so that they are in flight at the gateway at once. */
export const OVERLAP_BATCH = 8;

/** The hold of a mix sent with overlap: its own group, a batch of `size`, the wait for it bounded by twice the batch's arrival time and a second. */
function holdFor(size: number, rate: number, total: number): Hold {
  return { group: `overlap-${randomUUID()}`, size, total, waitMs: Math.ceil(1000 + (2 * size * 1000) / rate) };
}

/**
 * Sends `count` requests of the given kinds (round robin) at `rate` per second on a route. With
 * `overlap`, the upstream holds the answers until that many requests are waiting (Hold).
 */
export async function sendMix(ctx: CheckContext, o: { route: Route; credentialSuffix?: string; kinds: (i: number) => Kind; rate: number; count: number; clients?: number; deadlineMs?: number; keepBytes?: number; plan?: (i: number) => PlanOptions; overlap?: number }): Promise<Sent> {
  const planned: Planned[] = [];
  const hold = o.overlap && o.overlap > 1 ? holdFor(Math.min(o.overlap, o.count), o.rate, o.count) : undefined;
  const requests = Array.from({ length: o.count }, (_, i) => {
    const p = plan(ctx, o.kinds(i), { ...o.plan?.(i), hold });
    planned.push(p.planned);
    return p.request;
  });
  const first = routed(ctx, o.route, requests[0] ?? { path: '/', headers: [] }, o.credentialSuffix);
  // An upstream in another process has the cases before the first request, and every arrival after the last answer.
  await ctx.upstream.sync();
  // A launched gateway's readings tell its load windows from its idle time (src/launch/resources.ts).
  const loaded = o.route === 'gateway' ? ctx.gateway.resources?.loadBegins() : undefined;
  const result = await runLoad({
    origin: first.origin,
    rate: o.rate,
    requests: o.count,
    durationMs: Math.ceil((o.count * 1000) / o.rate) + 1,
    clients: o.clients ?? loadSettings(ctx).clients,
    keepBytes: o.keepBytes ?? 64 * 1024,
    signal: ctx.signal,
    deadlineMs: o.deadlineMs,
    firstSend: loadSettings(ctx).firstSend,
    make: (i) => {
      const r = routed(ctx, o.route, requests[i], o.credentialSuffix);
      return { path: r.path, method: requests[i].method, headers: r.headers, body: requests[i].body };
    },
  });
  loaded?.(result.sent);
  await ctx.upstream.sync();
  return { result, planned, hold };
}

/** The most of these requests the upstream held open at once: from each arrival to its answer's last write (or its connection's close). */
export function upstreamPeak(planned: Planned[]): number {
  const edges: Array<[number, number]> = [];
  for (const p of planned)
    for (const h of p.expectation.hits) {
      edges.push([h.receivedAt, 1]);
      const end = h.sentAt.length ? h.sentAt[h.sentAt.length - 1] : h.closedAt;
      if (end !== undefined) edges.push([end, -1]);
    }
  // An end before a start at the same moment: touching is not overlapping.
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let peak = 0;
  for (const [, d] of edges) peak = Math.max(peak, (open += d));
  return peak;
}

/** The concurrency a mix reached, for the evidence and the message: in flight at the client, open at the upstream, and the batch it waited for. */
export function concurrencyOf(sent: Sent): { client: number; upstream: number; batch: number | null; text: string } {
  const client = sent.result.peakInFlight;
  const upstream = upstreamPeak(sent.planned);
  const batch = sent.hold?.size ?? null;
  const held = batch ? `; the upstream held answers until ${batch} requests were waiting (at most ${sent.hold!.waitMs} ms)` : '';
  const one = upstream < 2 ? ': the gateway never had two of these requests open at the upstream at once (it forwards one at a time), so no two answers were in flight there together' : '';
  return { client, upstream, batch, text: `in flight at once: up to ${client} at the client, ${upstream} at the upstream${held}${one}` };
}

/** What became of one request: its own answer, another's, none, or more than one upstream arrival. */
export function attribution(o: LoadOutcome, p: Planned): string | null {
  if (o.error) return `no answer (${o.error})`;
  if (o.status !== 200) return `status ${o.status}`;
  const token = p.expectation.token;
  const tokens = new Set(tokensIn(o.body));
  const others = [...tokens].filter((t) => t !== token);
  if (others.length) return `carried the answer to another request (${others[0]})`;
  if (!tokens.has(token)) return `its answer does not carry its case token (${answerText(o)}; ${upstreamText(p)})`;
  if (p.expectation.hits.length !== 1) return `reached the upstream ${p.expectation.hits.length} times`;
  return null;
}

/** What a client got, in short: status, type, length and its first characters (quoted: whatever it holds stays text). */
export function answerText(o: LoadOutcome): string {
  const type = o.headers['content-type'];
  const head = cut(o.body, 160);
  return `status ${o.status}${type ? `, ${String(type)}` : ''}, ${o.body.length} characters in ${plural(o.chunks.length, 'piece')}${head ? `, beginning ${JSON.stringify(head)}` : ''}`;
}

/** What the recording upstream saw of a request and wrote back: the other side of a wrong answer. */
export function upstreamText(p: Planned): string {
  const hits = p.expectation.hits;
  if (!hits.length) return 'it never reached the upstream';
  const reply = p.expectation.reply;
  const pieces = reply.kind === 'sse' ? ` and wrote ${hits[0].sentAt.length} of its ${reply.frames.length} events` : reply.kind === 'json' ? ` and answered ${reply.status}` : '';
  return `the upstream received it${hits.length > 1 ? ` ${hits.length} times` : ''}${pieces}${hits[0].closedAt === undefined ? ', its connection still open' : ''}`;
}

/** Arrival time of each SSE event in a kept body: the chunk that completed it. */
export function eventArrivals(o: LoadOutcome): number[] {
  const out: number[] = [];
  const re = /\r?\n\r?\n/g;
  let chunk = 0;
  for (let m = re.exec(o.body); m; m = re.exec(o.body)) {
    const end = m.index + m[0].length;
    while (chunk < o.chunks.length - 1 && o.chunks[chunk].end < end) chunk++;
    if (o.chunks[chunk]) out.push(o.chunks[chunk].at);
  }
  return out;
}
