// The recording upstream's MCP server over Streamable HTTP, on the official SDK's server side
// (StreamableHTTPServerTransport, loaded on first use: src/core/optional.ts). An McpReply case's
// initialize opens a session whose id carries the case token (so its GET and DELETE, which carry
// no body, are tied to the case: server.ts); each session has its own transport, scripted server
// (mcp-tools.ts) and event store (GET streams resume with Last-Event-ID). Every request's
// JSON-RPC messages both ways are recorded on its RecordedRequest (`mcp`), each written message
// with its time, so checks compare what the client got with what the server sent.
import type http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { EventStore, StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { importOptional } from '../../src/core/optional.js';
import { MCP_SESSION_HEADER, rpcError } from '../../src/protocols/mcp/index.js';
import { MCP_BODY_KEEP, type McpTraffic } from '../../src/upstream/mcp.js';
import { headerValues, type RecordedRequest } from '../../src/upstream/record.js';
import type { McpReply } from '../../src/upstream/scenario.js';
import { scriptedServer, type McpSdk } from './mcp-tools.js';

type Sdk = McpSdk & { Transport: typeof StreamableHTTPServerTransport };
let loaded: Promise<Sdk> | null = null;
const sdk = () =>
  (loaded ??= importOptional('mcp', async () => {
    const [t, s, types] = await Promise.all([import('@modelcontextprotocol/sdk/server/streamableHttp.js'), import('@modelcontextprotocol/sdk/server/index.js'), import('@modelcontextprotocol/sdk/types.js')]);
    return { Transport: t.StreamableHTTPServerTransport, Server: s.Server, types };
  }));

/** One session's events, numbered in order, for Last-Event-ID replay. */
class Events implements EventStore {
  private list: Array<{ id: string; stream: string; message: JSONRPCMessage }> = [];
  async storeEvent(stream: string, message: JSONRPCMessage): Promise<string> {
    const id = `${stream}_${this.list.length + 1}`;
    this.list.push({ id, stream, message });
    return id;
  }
  async getStreamIdForEventId(id: string): Promise<string | undefined> {
    return this.list.find((e) => e.id === id)?.stream;
  }
  async replayEventsAfter(last: string, { send }: { send: (id: string, m: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const at = this.list.findIndex((e) => e.id === last);
    if (at < 0) return '';
    const stream = this.list[at].stream;
    for (const e of this.list.slice(at + 1)) if (e.stream === stream) await send(e.id, e.message);
    return stream;
  }
}

/** The JSON-RPC messages of a body (a batch spread); null when it is not JSON. */
function messagesOf(body: Buffer): unknown[] | null {
  if (!body.length) return [];
  try {
    const v: unknown = JSON.parse(body.toString('utf8'));
    return Array.isArray(v) ? v : [v];
  } catch {
    return null;
  }
}

const isInitialize = (ms: unknown[]) => ms.some((m) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize');

/** One message written: in the traffic, and its moment in the record's sentAt (one per message, as the stream checks pair them). */
function sent(t: McpTraffic, rec: RecordedRequest, m: McpTraffic['sent'][number]): void {
  t.sent.push(m);
  // The record's empty list is shared (and frozen): the first write makes one of its own.
  if (rec.sentAt.length) rec.sentAt.push(m.at);
  else rec.sentAt = [m.at];
}

/** Records what the server writes on `res` into `t`: status and headers, the text, each message with its time (the `data:` of each event, or the JSON body). */
function recordAnswer(t: McpTraffic, rec: RecordedRequest, res: http.ServerResponse): void {
  const head = res.writeHead.bind(res) as (...a: unknown[]) => http.ServerResponse;
  const write = res.write.bind(res) as (...a: unknown[]) => boolean;
  const end = res.end.bind(res) as (...a: unknown[]) => http.ServerResponse;
  let pending = '';
  const hash = createHash('sha256');
  const take = (chunk: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array);
    hash.update(b);
    t.bytes += b.length;
    const s = b.toString('utf8');
    if (!s) return;
    if (t.text.length < MCP_BODY_KEEP) t.text += s.slice(0, MCP_BODY_KEEP - t.text.length);
    const at = performance.now();
    if (t.body !== 'sse') return void (pending += s);
    pending += s;
    for (let cut = pending.indexOf('\n\n'); cut >= 0; cut = pending.indexOf('\n\n')) {
      const frame = pending.slice(0, cut);
      pending = pending.slice(cut + 2);
      const data = frame.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, '')).join('\n');
      const id = /^id: ?(.*)$/m.exec(frame)?.[1];
      if (data) sent(t, rec, { at, ...(id !== undefined ? { eventId: id } : {}), text: data });
    }
  };
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    t.status = status;
    const r = head(status, ...rest);
    t.headers = Object.entries(res.getHeaders()).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, String(x)] as [string, string]) : v === undefined ? [] : [[k, String(v)] as [string, string]]));
    const raw = rest.find((x) => typeof x === 'object' && x !== null) as Record<string, unknown> | undefined;
    if (raw && !Array.isArray(raw)) for (const [k, v] of Object.entries(raw)) if (!t.headers.some(([h]) => h === k.toLowerCase())) t.headers.push([k.toLowerCase(), String(v)]);
    const type = t.headers.find(([k]) => k === 'content-type')?.[1] ?? '';
    t.body = /event-stream/i.test(type) ? 'sse' : /json/i.test(type) ? 'json' : 'empty';
    return r;
  }) as typeof res.writeHead;
  // Over HTTP/2 the compatibility layer's end(chunk) writes its chunk through write(): taken once, in end.
  let ending = false;
  res.write = ((chunk: unknown, ...rest: unknown[]) => (ending || take(chunk), write(chunk, ...rest))) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (ending || t.ended) return end(chunk, ...rest);
    take(chunk);
    if (t.body === 'json' && pending) sent(t, rec, { at: performance.now(), text: pending });
    if (t.body === 'json' && !pending && t.status !== null) t.body = 'empty';
    ending = true;
    const r = end(chunk, ...rest);
    t.ended = true;
    t.sha256 = hash.digest('hex');
    return r;
  }) as typeof res.end;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  /** Called when a GET stream of the session opens (its 200 written). */
  onGet: Array<() => void>;
  getIsOpen: boolean;
}

/** Answers one request itself with a JSON-RPC error (the SDK is not asked: no session to ask). */
function refuse(res: http.ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(rpcError(null, code, message));
}

/** Marks the session's GET stream open once its 200 is written, and closed when its answer ends. */
function watchGet(s: Session, t: McpTraffic, res: http.ServerResponse): void {
  const head = res.writeHead.bind(res) as (...a: unknown[]) => http.ServerResponse;
  res.writeHead = ((...a: unknown[]) => {
    const r = head(...a);
    if (t.status === 200 && t.body === 'sse') {
      s.getIsOpen = true;
      for (const f of s.onGet.splice(0)) f();
    }
    return r;
  }) as typeof res.writeHead;
  res.on('close', () => void (s.getIsOpen = false));
}

export class McpHost {
  private sessions = new Map<string, Session>();

  /** Answers an MCP case's request (`token` its case) as the scripted server, recording both ways on `rec`. */
  async serve(reply: McpReply, token: string, rec: RecordedRequest, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const received = messagesOf(rec.body);
    const named = headerValues(rec, MCP_SESSION_HEADER)[0];
    const t: McpTraffic = { received: received ?? [], ...(named ? { session: named } : {}), status: null, headers: [], body: null, sent: [], text: '', ended: false, bytes: 0 };
    rec.mcp = t;
    recordAnswer(t, rec, res);
    if (received === null) return refuse(res, 400, -32700, 'Parse error: the body is not JSON');
    const parsed = rec.body.length ? JSON.parse(rec.body.toString('utf8')) : undefined;
    if (!named) {
      if (req.method !== 'POST' || !isInitialize(received)) return refuse(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
      const s = await this.open(reply, token, t);
      return s.transport.handleRequest(req, res, parsed);
    }
    const s = this.sessions.get(named);
    if (!s) return refuse(res, 404, -32001, 'Session not found');
    if (req.method === 'GET') watchGet(s, t, res);
    await s.transport.handleRequest(req, res, parsed);
  }

  /** A new session for the case: its transport (the session id carrying the token) and scripted server. */
  private async open(reply: McpReply, token: string, t: McpTraffic): Promise<Session> {
    const { Transport, ...rest } = await sdk();
    const s: Session = {
      onGet: [],
      getIsOpen: false,
      transport: new Transport({
        sessionIdGenerator: () => `mcp-${token}-${randomBytes(8).toString('hex')}`,
        enableJsonResponse: reply.json === true,
        eventStore: new Events(),
        onsessioninitialized: (id) => {
          t.session = id;
          this.sessions.set(id, s);
        },
        onsessionclosed: (id) => void this.sessions.delete(id),
      }),
    };
    const forget = () => {
      const id = s.transport.sessionId;
      if (id) this.sessions.delete(id);
      void s.transport.close().catch(() => undefined);
    };
    const getOpen = (ms: number) =>
      new Promise<boolean>((resolve) => {
        if (s.getIsOpen) return resolve(true);
        const t = setTimeout(() => resolve(false), ms);
        s.onGet.push(() => (clearTimeout(t), resolve(true)));
      });
    await scriptedServer(rest, { forget, getOpen, closeGet: () => s.transport.closeStandaloneSSEStream() }).connect(s.transport);
    return s;
  }

  /** Ends every session (the upstream stops). */
  async close(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => s.transport.close().catch(() => undefined)));
  }
}
