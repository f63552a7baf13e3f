// Shared steps of the mcp checks: an MCP client over the gateway client, as an MCP client speaks
// Streamable HTTP (one endpoint; POST with Accept for JSON and event streams; the session id and
// protocol version sent back after initialize), its requests tied to one McpReply case (the token
// in each body's `_meta`, and in the session id), each request paired with what reached the
// upstream and what the upstream's MCP server wrote (RecordedRequest.mcp).
import type { CheckContext, Evidence, Verdict } from '../../src/check/check.js';
import type { GwResponse } from '../../src/client/gateway.js';
import { readStream, type SseResult, type StreamOptions } from '../../src/client/sse.js';
import { maskHeaders } from '../../src/core/mask.js';
import { LAST_EVENT_ID_HEADER, MCP_PATH, MCP_PROTOCOL_VERSION, MCP_SESSION_HEADER, mcpHeaders, rpc } from '../../src/protocols/mcp/index.js';
import type { RecordedRequest } from '../../src/upstream/record.js';
import type { Expectation } from '../../src/upstream/upstream.js';
import { cut, excerpt, upstreamEvidence } from '../shared/evidence.js';

export { MCP_PATH, MCP_PROTOCOL_VERSION, MCP_SESSION_HEADER, rpc };

/** How long a request the client sent may take to show among the case's hits after its answer came (the upstream records it before it answers). */
const SEEN_GRACE_MS = 1000;

/** One request and what became of it: the client's answer, and the upstream's record of it (null: it never arrived). */
export interface McpStep<R = GwResponse> {
  sent: string;
  res: R;
  seen: RecordedRequest | null;
}

/** A header of a recorded request (the first value), or undefined. */
export const headerOf = (r: Pick<RecordedRequest, 'rawHeaders'> | null | undefined, name: string) => r?.rawHeaders.find(([k]) => k.toLowerCase() === name)?.[1];

export class McpClient {
  readonly e: Expectation;
  /** The session id the client got at initialize (what it sends back). */
  session: string | undefined;
  private next = 1;
  constructor(
    private readonly ctx: CheckContext,
    opts: { json?: boolean } = {},
  ) {
    this.e = ctx.upstream.next().mcp(opts);
  }

  /** A request (`id` given: a fresh one when 'auto') or notification body, the case token in its `_meta`. */
  body(method: string, params: Record<string, unknown> = {}, id: number | string | null = this.next++): string {
    const meta = { ...((params._meta as object | undefined) ?? {}), 'gw-conformance/case': this.e.token };
    return rpc(method, { ...params, _meta: meta }, id === null ? undefined : id);
  }

  private headers(extra: Array<[string, string]> = [], o: { session?: string | null; version?: string | null } = {}): Array<[string, string]> {
    const session = o.session === null ? undefined : (o.session ?? this.session);
    return [...mcpHeaders({ session, version: o.version }), ...extra];
  }

  /** The case's request at index `n` once it arrived (bounded), or null. */
  private async seenAt(n: number): Promise<RecordedRequest | null> {
    await this.ctx.upstream.sync();
    await this.e.waitForHits(n + 1, SEEN_GRACE_MS);
    return this.e.hits[n] ?? null;
  }

  /** POSTs `body`, read whole. */
  async post(body: string, o: { session?: string | null; version?: string | null; headers?: Array<[string, string]> } = {}): Promise<McpStep> {
    const n = this.e.hits.length;
    const res = await this.ctx.gateway.send({ method: 'POST', path: MCP_PATH, headers: this.headers(o.headers, o), body, signal: this.ctx.signal });
    return { sent: body, res, seen: await this.seenAt(n) };
  }

  /** POSTs `body` and reads the answer as an event stream, each event's arrival timed. */
  async postStream(body: string, opts: StreamOptions = {}): Promise<McpStep<SseResult>> {
    const n = this.e.hits.length;
    const res = await readStream(this.ctx.gateway, { method: 'POST', path: MCP_PATH, headers: this.headers(), body, signal: this.ctx.signal }, opts);
    return { sent: body, res, seen: await this.seenAt(n) };
  }

  /** initialize: the session id of the answer is kept for the later requests. */
  async initialize(): Promise<McpStep> {
    const step = await this.post(this.body('initialize', { protocolVersion: MCP_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'gw-conformance', version: '0.1.0' } }), { session: null, version: null });
    this.session = step.res.header(MCP_SESSION_HEADER);
    return step;
  }

  /** initialize, then the initialized notification, as a client opens a session; the failure when either did not go through. */
  async open(): Promise<{ init: McpStep; failed: Verdict | null }> {
    const init = await this.initialize();
    if (init.res.status !== 200 || !this.session) return { init, failed: noSession(init) };
    const note = await this.post(this.body('notifications/initialized', {}, null));
    if (note.res.status !== 202) return { init, failed: { ok: false, message: `the initialized notification was answered ${note.res.status}, not 202: the session could not be opened`, evidence: stepEvidence(note) } };
    return { init, failed: null };
  }

  /** tools/call of a scripted tool, read whole. */
  call(name: string, args: Record<string, unknown> = {}, id?: number | string): Promise<McpStep> {
    return this.post(this.body('tools/call', { name, arguments: args }, id));
  }

  /** GET: the session's stream of server messages, read as events (from `lastEventId` on when given). */
  async get(opts: StreamOptions & { lastEventId?: string } = {}): Promise<McpStep<SseResult>> {
    const n = this.e.hits.length;
    const headers: Array<[string, string]> = [['accept', 'text/event-stream'], ...this.headers().filter(([k]) => k !== 'content-type' && k !== 'accept')];
    if (opts.lastEventId) headers.push([LAST_EVENT_ID_HEADER, opts.lastEventId]);
    const res = await readStream(this.ctx.gateway, { method: 'GET', path: MCP_PATH, headers, caseToken: this.e.token, signal: this.ctx.signal }, opts);
    return { sent: '', res, seen: await this.seenAt(n) };
  }

  /** DELETE: ends the session. */
  async delete(): Promise<McpStep> {
    const n = this.e.hits.length;
    const res = await this.ctx.gateway.send({ method: 'DELETE', path: MCP_PATH, headers: this.headers().filter(([k]) => k !== 'content-type'), caseToken: this.e.token, signal: this.ctx.signal });
    return { sent: '', res, seen: await this.seenAt(n) };
  }
}

/** The JSON-RPC messages of an answer: its JSON body, or the data of each event of a stream. */
export function messagesOf(res: GwResponse | SseResult): string[] {
  if ('events' in res) return res.events.map((e) => e.data);
  const text = res.text();
  if (/event-stream/i.test(res.header('content-type') ?? '')) return text.split(/\r?\n\r?\n/).flatMap((f) => { const d = f.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, '')).join('\n'); return d ? [d] : []; });
  return text ? [text] : [];
}

/** The evidence of one step: what the client got, what reached the upstream, what its MCP server wrote. */
export function stepEvidence(s: McpStep<GwResponse | SseResult>, max = 1200): Evidence {
  const body = 'events' in s.res ? s.res.raw.toString('utf8') : s.res.text();
  const mcp = s.seen?.mcp;
  return {
    client: { status: s.res.status, headers: maskHeaders(s.res.rawHeaders), body: cut(body, max) },
    upstream: upstreamEvidence(s.seen, max),
    ...(mcp ? { serverWrote: { status: mcp.status, headers: maskHeaders(mcp.headers), messages: mcp.sent.length, body: cut(mcp.text, max) } } : {}),
  };
}

/** The failure when initialize gave the client no session. */
export function noSession(init: McpStep): Verdict {
  if (!init.seen) return { ok: false, message: `initialize never reached the upstream (the gateway answered ${init.res.status}: ${excerpt(init.res.text())})`, evidence: stepEvidence(init) };
  const issued = init.seen.mcp?.session;
  if (init.res.status !== 200) return { ok: false, message: `initialize was answered ${init.res.status} at the client (the upstream answered ${init.seen.mcp?.status ?? 'nothing'})`, evidence: stepEvidence(init) };
  return { ok: false, message: `the upstream's answer to initialize named session ${issued ?? '(none)'}, but the client got no ${MCP_SESSION_HEADER} header`, expected: issued, actual: 'no session header', evidence: stepEvidence(init) };
}

/** The check could not judge (its scripted answer never came into play): a skip that says why, never a pass. */
export const couldNotJudge = (message: string, evidence?: Evidence): Verdict => ({ ok: false, skip: true, message: `could not judge: ${message}`, ...(evidence ? { evidence } : {}) });

/** A JSON-RPC message's text parsed, or null. */
export function parsed(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
