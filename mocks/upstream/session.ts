// Session mode of the recording upstream, for the client profile: a real client (Claude Code,
// an official SDK) runs the scripted session of src/real-clients/script.ts against it, straight
// or through the gateway. Every request is kept in memory (raw headers, credentials masked, the
// body bytes), and every request is answered as the real API would, the same way in both runs:
// ids count up per session, so the two runs get byte-identical answers when their requests
// come in the same order. The messages, chat and native protocols, model discovery (both
// list shapes), count_tokens and HEAD are answered, and a turn on any other protocol's path by
// its record; a turn offering a known tool gets a tool call, the turn carrying its result gets
// the streamed text answer.
import type http from 'node:http';
import { performance } from 'node:perf_hooks';
import { isRecord } from '../../src/core/json.js';
import { maskHeaders } from '../../src/core/mask.js';
import type { RecordedRequest } from '../../src/upstream/record.js';
import type { Reply, SseFrame } from '../../src/upstream/scenario.js';
import { modelListBody, countTokensBody } from '../../src/protocols/messages/index.js';
import { CAPTURE_MODELS } from './capture.js';
import { CHAT_PATH, MESSAGES_PATH, nativeGenerateOf, RECORDS, RESPONSES_PATH, routeOfRequest, translateReply } from '../../src/protocols/index.js';
import { compactedResponse, compactionStream, RESPONSES_SSE_HEADERS } from '../../src/protocols/responses/index.js';
import { play } from './play.js';
import { SESSION_GAP_MS, SESSION_PROMPT, SESSION_TOOLS, SESSION_USAGE, sessionDeltas } from '../../src/real-clients/script.js';
import type { UpstreamRequest } from '../../src/real-clients/types.js';
import { SessionSockets } from './session-sockets.js';
import type { Duplex } from 'node:stream';

type Obj = Record<string, unknown>;
/** The sealed content of the session's compaction item (opaque to the client, sent back unread). */
const COMPACTED = 'gwc-session-compacted-history';
const isObj: (v: unknown) => v is Obj = isRecord;
const JSON_H: Array<[string, string]> = [['content-type', 'application/json']];
const SSE_H: Array<[string, string]> = [['content-type', 'text/event-stream; charset=utf-8'], ['cache-control', 'no-cache']];

/** A tool of the script the request offers, by its name in the protocol's tool list. */
function offeredTool(names: string[]): string | undefined {
  return names.find((n) => n in SESSION_TOOLS);
}

const sse = (payloads: Array<{ event?: string; data: unknown }>, gapFrom: number): SseFrame[] =>
  payloads.map((p, i) => ({ gapMs: i >= gapFrom ? SESSION_GAP_MS : 0, data: `${p.event ? `event: ${p.event}\n` : ''}data: ${typeof p.data === 'string' ? p.data : JSON.stringify(p.data)}\n\n` }));

export class SessionCapture {
  readonly requests: UpstreamRequest[] = [];
  private n = 0;
  /** The protocols' own answer ids, renumbered for this run (renumbered()). */
  private readonly ids = new Map<string, string>();
  private received = 0;
  private waiting: Array<() => void> = [];
  /** The last HTTP request's sequence number: a socket opened after it is ordered just after it. */
  private lastSeq = 0;
  private readonly sockets = new SessionSockets({
    began: () => void this.received++,
    ended: (r) => this.push({ ...r, seq: this.lastSeq + 0.5 }),
    headers: (raw) => this.headers(raw),
  });
  /**
   * `credential`: the one the clients are given; a masked credential header that does not hold
   * it is marked, so a gateway that swaps in a key of its own is seen without showing either.
   * `delays`: answer the requests to these paths (query excluded) this many ms late.
   */
  constructor(private readonly opts: { credential?: string; delays?: Record<string, number> } = {}) {}

  private headers(raw: Array<[string, string]>): Array<[string, string]> {
    // A WebSocket client's key is drawn anew per connection: kept by name, not value.
    const masked = maskHeaders(raw).map(([k, v]): [string, string] => [k, k.toLowerCase() === 'sec-websocket-key' ? '(per connection)' : v]);
    const cred = this.opts.credential;
    return masked.map(([k, v], i) => [k, cred && v !== raw[i][1] && !raw[i][1].includes(cred) ? `${v} (not the client's credential)` : v]);
  }

  /** Resolves once every request received so far has closed (its line is recorded). */
  settled(): Promise<UpstreamRequest[]> {
    if (this.requests.length >= this.received) return Promise.resolve(this.requests);
    return new Promise((resolve) => this.waiting.push(() => resolve(this.requests)));
  }

  /** A WebSocket upgrade of a socket client (session-sockets.ts); false when its path is no socket route. */
  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer, url: string): boolean {
    return this.sockets.upgrade(req, socket, head, url);
  }

  /** Ends the sockets still open (the run's record is done). */
  stopSockets(): void {
    this.sockets.stop();
  }

  private push(r: UpstreamRequest): void {
    this.requests.push(r);
    this.requests.sort((a, b) => a.seq - b.seq);
    if (this.requests.length >= this.received) for (const w of this.waiting.splice(0)) w();
  }

  record(rec: RecordedRequest, res: http.ServerResponse): void {
    this.received++;
    this.lastSeq = rec.seq;
    res.on('close', () => {
      this.push({
        seq: rec.seq,
        method: rec.method,
        url: rec.url,
        headers: this.headers(rec.rawHeaders),
        body: rec.body.toString('base64'),
        receivedAt: rec.receivedAt,
        status: res.headersSent ? res.statusCode : null,
        ended: res.writableFinished ? 'answered' : 'client-closed',
        durationMs: Math.round(performance.now() - rec.receivedAt),
      });
    });
  }

  answer(rec: RecordedRequest, res: http.ServerResponse): void {
    let json: unknown;
    try {
      json = rec.body.length ? JSON.parse(rec.body.toString('utf8')) : undefined;
    } catch {
      json = undefined;
    }
    const reply = this.reply(rec, isObj(json) ? json : {});
    const delay = this.opts.delays?.[rec.url.split('?')[0]] ?? 0;
    if (delay <= 0) return play(reply, rec, res);
    // The scripted delay of a slow answer, not synchronisation.
    const t = setTimeout(() => play(reply, rec, res), delay);
    res.on('close', () => clearTimeout(t));
  }

  private reply(rec: RecordedRequest, body: Obj): Reply {
    const path = rec.url.split('?')[0];
    const header = (name: string) => rec.rawHeaders.find(([k]) => k.toLowerCase() === name)?.[1];
    if (rec.method === 'HEAD') return { kind: 'json', status: 200, headers: [], body: '' };
    if (rec.method === 'GET' && path === '/v1/models')
      return { kind: 'json', status: 200, headers: JSON_H, body: header('anthropic-version') ? modelListBody(CAPTURE_MODELS) : JSON.stringify({ object: 'list', data: CAPTURE_MODELS.map((m) => ({ id: m.id, object: 'model', created: Date.parse(m.created_at) / 1000, owned_by: 'gw-conformance' })) }) };
    if (rec.method === 'GET' && path === '/v1beta/models')
      return { kind: 'json', status: 200, headers: JSON_H, body: JSON.stringify({ models: [{ name: 'models/gemini-2.5-flash', displayName: 'Gemini 2.5 Flash', supportedGenerationMethods: ['generateContent'] }] }) };
    if (rec.method === 'POST' && path === `${MESSAGES_PATH}/count_tokens`) return { kind: 'json', status: 200, headers: JSON_H, body: countTokensBody(Math.max(1, Math.ceil(rec.body.length / 4))) };
    if (rec.method === 'POST' && path === MESSAGES_PATH) return this.messages(body);
    if (rec.method === 'POST' && path === CHAT_PATH) return this.chat(body);
    const native = nativeGenerateOf(path);
    if (rec.method === 'POST' && native) return this.native(body, native.model, native.stream, rec.url);
    const compaction = this.compaction(rec.method, path, body);
    if (compaction) return compaction;
    const other = this.otherProtocol(rec, body);
    if (other) return other;
    return { kind: 'json', status: 404, headers: JSON_H, body: JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `gw-conformance session upstream: no route for ${rec.method} ${path}` } }) };
  }

  /**
   * Codex's remote compaction: POST /v1/responses/compact answered with the compacted object,
   * and a streamed turn whose input ends in a `compaction_trigger` item with a stream carrying
   * the compaction item (src/protocols/responses/beyond.ts), the same sealed content each time.
   */
  private compaction(method: string, path: string, body: Obj): Reply | null {
    if (method !== 'POST') return null;
    if (path === `${RESPONSES_PATH}/compact`) return this.renumbered({ kind: 'json', status: 200, headers: JSON_H, body: JSON.stringify(compactedResponse(SESSION_PROMPT, COMPACTED)) });
    const input = Array.isArray(body.input) ? (body.input as unknown[]) : [];
    const last = input[input.length - 1];
    if (path !== RESPONSES_PATH || !isObj(last) || last.type !== 'compaction_trigger') return null;
    return this.renumbered({ kind: 'sse', status: 200, headers: RESPONSES_SSE_HEADERS, frames: compactionStream(COMPACTED).map((data) => ({ gapMs: 0, data })) });
  }

  /**
   * A turn on any other protocol's path (Bedrock, Vertex, the Responses API...): read by its
   * record into meaning, answered as the messages turn of the same meaning would be, and
   * written in the protocol it arrived in (src/protocols/translate.ts), frame gaps kept; its
   * model list, the capture mode's models in its own shape.
   */
  private otherProtocol(rec: RecordedRequest, body: Obj): Reply | null {
    const at = routeOfRequest(rec.method, rec.url, rec.rawHeaders);
    if (at?.route === 'models') {
      const codec = RECORDS[at.protocol].replies;
      return { kind: 'json', status: 200, headers: codec.jsonHeaders, body: codec.models(CAPTURE_MODELS.map((m) => ({ id: m.id, displayName: m.display_name, created: m.created_at }))) };
    }
    if (!at || (at.route !== 'generate' && at.route !== 'stream')) return null;
    const meaning = RECORDS[at.protocol].readRequest(rec.url.split('?')[0], rec.body.toString('utf8'));
    if (!meaning) return null;
    // A history holding a tool call carries its result, and one compacted (a Responses
    // `compaction` item in its input) stands for the turns before: the next answer is the text.
    const compacted = Array.isArray(body.input) && (body.input as unknown[]).some((i) => isObj(i) && i.type === 'compaction');
    const last = meaning.toolCalls.length || compacted ? [{ role: 'user', content: [{ type: 'tool_result' }] }] : [];
    const reply = { ...this.messages({ model: meaning.model || undefined, stream: meaning.stream, tools: meaning.tools.map((name) => ({ name })), messages: last }), protocol: 'messages' as const };
    return this.renumbered(translateReply(reply, { protocol: at.protocol, route: at.route, stream: meaning.stream }) ?? reply);
  }

  /**
   * The ids a protocol's replies draw from its process-wide counter (`...gwc00000042...`),
   * numbered from 1 in this run instead, in order of appearance: both runs get the same ids.
   */
  private renumbered(reply: Reply): Reply {
    const fix = (text: string) => text.replace(/(gwc(?:Nat)?)(\d{8})/g, (_m, pre: string, n: string) => `${pre}${this.ids.get(n) ?? (this.ids.set(n, String(this.ids.size + 1).padStart(8, '0')), this.ids.get(n))}`);
    if (reply.kind === 'json') return { ...reply, body: fix(reply.body) };
    if (reply.kind === 'sse') return { ...reply, frames: reply.frames.map((f) => ({ ...f, data: fix(f.data) })) };
    return reply;
  }

  private messages(body: Obj): Reply {
    const id = `msg_01gwcsession${String(++this.n).padStart(4, '0')}`;
    const model = typeof body.model === 'string' ? body.model : 'claude-sonnet-4-5-20250929';
    const msgs = Array.isArray(body.messages) ? (body.messages as Obj[]) : [];
    const last = msgs[msgs.length - 1];
    const answered = Array.isArray(last?.content) && (last.content as Obj[]).some((b) => b.type === 'tool_result');
    const tool = answered ? undefined : offeredTool((Array.isArray(body.tools) ? (body.tools as Obj[]) : []).map((t) => String(t.name)));
    const { output_tokens, ...startUsage } = SESSION_USAGE;
    if (body.stream !== true) {
      const content = tool ? [{ type: 'tool_use', id: `toolu_01gwcsession${this.n}`, name: tool, input: SESSION_TOOLS[tool] }] : [{ type: 'text', text: sessionDeltas().join('') }];
      return { kind: 'json', status: 200, headers: JSON_H, body: JSON.stringify({ id, type: 'message', role: 'assistant', model, content, stop_reason: tool ? 'tool_use' : 'end_turn', stop_sequence: null, usage: SESSION_USAGE }) };
    }
    const ev: Array<{ event: string; data: unknown }> = [{ event: 'message_start', data: { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...startUsage, output_tokens: 1 } } } }];
    if (tool) {
      ev.push({ event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: `toolu_01gwcsession${this.n}`, name: tool, input: {} } } });
      ev.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(SESSION_TOOLS[tool]) } } });
    } else {
      ev.push({ event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } });
      for (const text of sessionDeltas()) ev.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } } });
    }
    ev.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } });
    ev.push({ event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: tool ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens } } });
    ev.push({ event: 'message_stop', data: { type: 'message_stop' } });
    return { kind: 'sse', status: 200, headers: SSE_H, frames: sse(ev, 2) };
  }

  private chat(body: Obj): Reply {
    const id = `chatcmpl-gwcsession${String(++this.n).padStart(4, '0')}`;
    const model = typeof body.model === 'string' ? body.model : 'gpt-4o-mini';
    const msgs = Array.isArray(body.messages) ? (body.messages as Obj[]) : [];
    const answered = msgs[msgs.length - 1]?.role === 'tool';
    const tool = answered ? undefined : offeredTool((Array.isArray(body.tools) ? (body.tools as Obj[]) : []).map((t) => String((t.function as Obj | undefined)?.name)));
    const usage = { prompt_tokens: 1200, completion_tokens: 24, total_tokens: 1224, prompt_tokens_details: { cached_tokens: 900, audio_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 } };
    const call = tool && { index: 0, id: `call_gwcsession${this.n}`, type: 'function', function: { name: tool, arguments: JSON.stringify(SESSION_TOOLS[tool]) } };
    const base = { id, object: 'chat.completion', created: 1730000000, model, system_fingerprint: 'fp_gwcsession' };
    if (body.stream !== true) {
      const message = call ? { role: 'assistant', content: null, tool_calls: [{ id: call.id, type: call.type, function: call.function }], refusal: null } : { role: 'assistant', content: sessionDeltas().join(''), refusal: null };
      return { kind: 'json', status: 200, headers: JSON_H, body: JSON.stringify({ ...base, choices: [{ index: 0, message, logprobs: null, finish_reason: call ? 'tool_calls' : 'stop' }], usage }) };
    }
    const chunk = (delta: Obj, finish: string | null) => ({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
    const ev: Array<{ data: unknown }> = [{ data: chunk({ role: 'assistant', content: call ? null : '', refusal: null }, null) }];
    if (call) ev.push({ data: chunk({ tool_calls: [call] }, null) });
    else for (const content of sessionDeltas()) ev.push({ data: chunk({ content }, null) });
    ev.push({ data: chunk({}, call ? 'tool_calls' : 'stop') });
    if (isObj(body.stream_options) && body.stream_options.include_usage === true) ev.push({ data: { ...base, object: 'chat.completion.chunk', choices: [], usage } });
    ev.push({ data: '[DONE]' });
    return { kind: 'sse', status: 200, headers: SSE_H, frames: sse(ev, 1) };
  }

  private native(body: Obj, model: string, stream: boolean, url: string): Reply {
    const responseId = `gwcSession${String(++this.n).padStart(4, '0')}`;
    const contents = Array.isArray(body.contents) ? (body.contents as Obj[]) : [];
    const lastParts = (contents[contents.length - 1]?.parts as Obj[] | undefined) ?? [];
    const answered = lastParts.some((p) => 'functionResponse' in p);
    const decls = (Array.isArray(body.tools) ? (body.tools as Obj[]) : []).flatMap((t) => (Array.isArray(t.functionDeclarations) ? (t.functionDeclarations as Obj[]) : []));
    const tool = answered ? undefined : offeredTool(decls.map((d) => String(d.name)));
    const usageMetadata = { promptTokenCount: 1200, candidatesTokenCount: 24, totalTokenCount: 1224, cachedContentTokenCount: 900 };
    const value = (parts: Obj[], finish: string | undefined, withUsage: boolean) => ({
      candidates: [{ content: { parts, role: 'model' }, ...(finish ? { finishReason: finish } : {}), index: 0 }],
      ...(withUsage ? { usageMetadata } : {}),
      modelVersion: model,
      responseId,
    });
    if (!stream) {
      const parts = tool ? [{ functionCall: { name: tool, args: SESSION_TOOLS[tool] } }] : [{ text: sessionDeltas().join('') }];
      return { kind: 'json', status: 200, headers: [['content-type', 'application/json; charset=UTF-8']], body: JSON.stringify(value(parts, 'STOP', true), null, 2) };
    }
    const texts = tool ? [] : sessionDeltas();
    const ev = tool ? [{ data: value([{ functionCall: { name: tool, args: SESSION_TOOLS[tool] } }], 'STOP', true) }] : texts.map((text, i) => ({ data: value([{ text }], i === texts.length - 1 ? 'STOP' : undefined, i === texts.length - 1) }));
    const frames = sse(ev, 1).map((f) => ({ ...f, data: f.data.replace(/\n\n$/, '\r\n\r\n') }));
    // Without alt=sse the API answers one JSON array, as a client that asks so gets it.
    const plain = RECORDS.native.unframedStream?.(url, frames.map((f) => f.data));
    if (plain) return { kind: 'sse', status: 200, headers: plain.headers, frames: plain.texts.map((data, i) => ({ gapMs: frames[i].gapMs, data })) };
    return { kind: 'sse', status: 200, headers: [['content-type', 'text/event-stream']], frames };
  }
}
