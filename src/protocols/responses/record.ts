// The Responses API protocol (OpenAI, POST /v1/responses) as one record: its paths (one path for
// answers and streams, told apart by the body's `stream`, as chat's; the input-token count), its
// credential style, where the model goes, its minimal request, and its replies written from
// meaning and read back (record.ts). Realistic headers, ids and bodies are the upstream's
// (replies.ts beside it); this file maps meaning onto them.
import { eventFrame, functionCallItem, messageItem, responseObject, responsesId, RESPONSES_COUNT_PATH, RESPONSES_JSON_HEADERS, RESPONSES_PATH, RESPONSES_SSE_HEADERS, textPart, type ResponsesUsage } from './replies.js';
import { CHAT } from '../chat/index.js';
import { arr, num, obj, parseJson, str, type Json } from '../read.js';
import { mergedTurns, setParams, type Answer, type ProtocolRecord, type ReplyCodec, type RequestMeaning, type StopReason, type StreamStep, type StreamWriter, type ToolCall, type Usage } from '../record.js';

export { RESPONSES_PATH, RESPONSES_COUNT_PATH };

/** input_tokens counts the cached share too; the neutral input is the uncached part. */
function readUsage(u: Json): Usage | undefined {
  const o = obj(u);
  if (o.input_tokens === undefined) return undefined;
  const cached = num(obj(o.input_tokens_details).cached_tokens);
  const reasoning = num(obj(o.output_tokens_details).reasoning_tokens);
  return { input: num(o.input_tokens) - cached, output: num(o.output_tokens), ...(cached ? { cacheRead: cached } : {}), ...(reasoning ? { reasoning } : {}) };
}

function writeUsage(u: Usage): ResponsesUsage {
  const input = u.input + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0);
  return { input_tokens: input, input_tokens_details: { cached_tokens: u.cacheRead ?? 0 }, output_tokens: u.output, output_tokens_details: { reasoning_tokens: u.reasoning ?? 0 }, total_tokens: input + u.output };
}

/** The answer a response object carries: its message text, function calls, why it stopped, usage. */
function answerOfResponse(v: Record<string, Json>): Answer {
  const items = arr(v.output).map((x) => obj(x));
  const text = items.filter((i) => i.type === 'message').flatMap((i) => arr(i.content).map((c) => obj(c))).filter((c) => c.type === 'output_text').map((c) => str(c.text)).join('');
  const thinking = items.filter((i) => i.type === 'reasoning').flatMap((i) => arr(i.summary).map((s) => str(obj(s).text))).join('');
  const toolCalls: ToolCall[] = items.filter((i) => i.type === 'function_call').map((i) => ({ id: str(i.call_id), name: str(i.name), args: str(i.arguments) }));
  const reason = str(obj(v.incomplete_details).reason);
  const stop: StopReason = toolCalls.length ? 'tool_use' : reason === 'max_output_tokens' ? 'max_tokens' : reason === 'content_filter' ? 'refusal' : 'end';
  return { model: str(v.model), text, ...(thinking ? { thinking } : {}), toolCalls, stop, usage: readUsage(v.usage) ?? { input: 0, output: 0 } };
}

function readAnswer(body: string): Answer | null {
  const v = obj(parseJson(body));
  return v.object === 'response' ? answerOfResponse(v) : null;
}

function answer(a: Answer): string {
  const output: unknown[] = [];
  if (a.text || !a.toolCalls.length) output.push(messageItem(responsesId('msg'), a.text));
  for (const c of a.toolCalls) output.push(functionCallItem(responsesId('fc'), c.id || responsesId('call'), c.name, c.args));
  const incomplete = a.stop === 'max_tokens' ? 'max_output_tokens' : a.stop === 'refusal' ? 'content_filter' : null;
  return JSON.stringify(responseObject({ id: responsesId('resp'), model: a.model, status: incomplete ? 'incomplete' : 'completed', output, usage: writeUsage(a.usage), incomplete }), null, 2);
}

function readFrame(data: string): StreamStep[] | null {
  const line = /^data: ?(.*)$/m.exec(data);
  if (!line) return null;
  const v = obj(parseJson(line[1]));
  const type = str(v.type);
  if (!type.startsWith('response.') && type !== 'error') return null;
  const item = obj(v.item);
  switch (type) {
    case 'response.created':
      return [{ t: 'start', model: str(obj(v.response).model) }];
    case 'response.output_item.added':
      return item.type === 'function_call' ? [{ t: 'tool', id: str(item.call_id), name: str(item.name) }] : [];
    case 'response.output_text.delta':
      return [{ t: 'text', text: str(v.delta) }];
    case 'response.reasoning_summary_text.delta':
      return [{ t: 'thinking', text: str(v.delta) }];
    case 'response.function_call_arguments.delta':
      return [{ t: 'args', json: str(v.delta) }];
    case 'response.completed':
    case 'response.incomplete': {
      const a = answerOfResponse(obj(v.response));
      return [{ t: 'stop', stop: a.stop, usage: a.usage }, { t: 'end' }];
    }
    case 'response.failed':
      return [{ t: 'error', message: str(obj(obj(v.response).error).message) }];
    case 'error':
      return [{ t: 'error', message: str(v.message) }];
    default:
      return [];
  }
}

type Open = { kind: 'message'; id: string; text: string } | { kind: 'call'; id: string; callId: string; name: string; args: string };

/** Writes named events with an increasing sequence_number: created, in_progress, items opened and closed, completed (or failed). */
class ResponsesWriter implements StreamWriter {
  private id = responsesId('resp');
  private model = '';
  private seq = 0;
  private open: Open | null = null;
  private output: unknown[] = [];
  private stop: StopReason = 'end';
  private usage: Usage | null = null;
  private over = false;
  private ev(type: string, fields: Record<string, unknown>): string {
    return eventFrame({ type, sequence_number: this.seq++, ...fields });
  }
  private response(status: string, extra: { usage?: Usage | null; error?: { code: string; message: string }; incomplete?: string | null } = {}) {
    return responseObject({ id: this.id, model: this.model, status, output: this.output, usage: extra.usage ? writeUsage(extra.usage) : null, error: extra.error, incomplete: extra.incomplete });
  }
  /** Closes the open output item: its done events. */
  private close(): string[] {
    const o = this.open;
    if (!o) return [];
    this.open = null;
    const at = this.output.length;
    if (o.kind === 'message') {
      const done = messageItem(o.id, o.text);
      this.output.push(done);
      const place = { item_id: o.id, output_index: at, content_index: 0 };
      return [this.ev('response.output_text.done', { ...place, text: o.text, logprobs: [] }), this.ev('response.content_part.done', { ...place, part: textPart(o.text) }), this.ev('response.output_item.done', { output_index: at, item: done })];
    }
    const done = functionCallItem(o.id, o.callId, o.name, o.args);
    this.output.push(done);
    return [this.ev('response.function_call_arguments.done', { item_id: o.id, output_index: at, name: o.name, arguments: o.args }), this.ev('response.output_item.done', { output_index: at, item: done })];
  }
  private text(t: string): string[] {
    const out: string[] = [];
    if (this.open?.kind !== 'message') {
      out.push(...this.close());
      this.open = { kind: 'message', id: responsesId('msg'), text: '' };
      out.push(this.ev('response.output_item.added', { output_index: this.output.length, item: messageItem(this.open.id, '', 'in_progress') }));
      out.push(this.ev('response.content_part.added', { item_id: this.open.id, output_index: this.output.length, content_index: 0, part: textPart('') }));
    }
    this.open.text += t;
    return [...out, this.ev('response.output_text.delta', { item_id: this.open.id, output_index: this.output.length, content_index: 0, delta: t, logprobs: [] })];
  }
  write(s: StreamStep): string[] {
    if (this.over) return [];
    switch (s.t) {
      case 'start':
        this.model = s.model;
        if (s.usage) this.usage = s.usage;
        return [this.ev('response.created', { response: this.response('in_progress') }), this.ev('response.in_progress', { response: this.response('in_progress') })];
      case 'text':
        return s.text ? this.text(s.text) : [];
      case 'thinking':
        return [];
      case 'tool': {
        const out = this.close();
        this.open = { kind: 'call', id: responsesId('fc'), callId: s.id || responsesId('call'), name: s.name, args: '' };
        return [...out, this.ev('response.output_item.added', { output_index: this.output.length, item: functionCallItem(this.open.id, this.open.callId, s.name, '', 'in_progress') })];
      }
      case 'args':
        if (this.open?.kind !== 'call') return [];
        this.open.args += s.json;
        return [this.ev('response.function_call_arguments.delta', { item_id: this.open.id, output_index: this.output.length, delta: s.json })];
      case 'stop':
      case 'usage':
        if (s.t === 'stop') this.stop = s.stop;
        if (s.usage) this.usage = { ...(this.usage ?? {}), ...s.usage };
        return [];
      case 'error':
        this.over = true;
        return [...this.close(), this.ev('response.failed', { response: this.response('failed', { error: { code: 'server_error', message: s.message } }) })];
      case 'end': {
        this.over = true;
        const incomplete = this.stop === 'max_tokens' ? 'max_output_tokens' : this.stop === 'refusal' ? 'content_filter' : null;
        const closed = this.close();
        const last = this.ev(incomplete ? 'response.incomplete' : 'response.completed', { response: this.response(incomplete ? 'incomplete' : 'completed', { usage: this.usage ?? { input: 0, output: 0 }, incomplete }) });
        return [...closed, last];
      }
    }
  }
}

const replies: ReplyCodec = {
  jsonHeaders: RESPONSES_JSON_HEADERS,
  sseHeaders: RESPONSES_SSE_HEADERS,
  answer,
  readAnswer,
  streamWriter: () => new ResponsesWriter(),
  streamReader: () => ({ read: readFrame }),
  // OpenAI's error shape, the same as chat completions'.
  error: (e) => CHAT.replies.error(e),
  readError: (body, status) => CHAT.replies.readError(body, status),
  count: (n) => JSON.stringify({ object: 'response.input_tokens', input_tokens: n }),
  readCount(body) {
    const v = obj(parseJson(body));
    return v.object === 'response.input_tokens' && typeof v.input_tokens === 'number' ? v.input_tokens : null;
  },
  // No model list of its own: OpenAI's /v1/models, as chat's.
  models: (list) => CHAT.replies.models(list),
  readModels: (body) => CHAT.replies.readModels(body),
};

/** The text of an input item's content: a string, or its text parts. */
const textOf = (content: Json): string => (typeof content === 'string' ? content : arr(content).map((p) => str(obj(p).text)).filter(Boolean).join(' '));

function readRequest(_path: string, body: string): RequestMeaning | null {
  const v = obj(parseJson(body));
  if (typeof v.input !== 'string' && !Array.isArray(v.input)) return null;
  const items = typeof v.input === 'string' ? [{ type: 'message', role: 'user', content: v.input }] : v.input.map((i) => obj(i));
  const messages = items.filter((i) => (i.type ?? 'message') === 'message');
  const system = messages.filter((m) => m.role === 'system' || m.role === 'developer');
  const turns = items
    .filter((i) => !system.includes(i))
    .map((i) => (i.type === 'function_call' ? { role: 'assistant' as const, text: '' } : i.type === 'function_call_output' ? { role: 'user' as const, text: textOf(i.output) } : { role: i.role === 'assistant' ? ('assistant' as const) : ('user' as const), text: textOf(i.content) }));
  return {
    model: str(v.model),
    system: [typeof v.instructions === 'string' ? v.instructions : '', ...system.map((m) => textOf(m.content))].filter(Boolean).join('\n'),
    turns: mergedTurns(turns),
    toolCalls: items.filter((i) => i.type === 'function_call').map((i) => str(i.name)),
    tools: arr(v.tools).map((t) => obj(t)).filter((t) => t.type === 'function').map((t) => str(t.name)),
    params: setParams({ maxTokens: v.max_output_tokens as number | undefined, temperature: v.temperature as number | undefined, topP: v.top_p as number | undefined }),
    stream: v.stream === true,
  };
}

export const RESPONSES: ProtocolRecord = {
  name: 'responses',
  title: 'Responses API (OpenAI)',
  defaultCredential: 'bearer',
  defaultModel: 'gpt-4.1-mini',
  modelIn: 'body',
  features: ['tools', 'json-mode'],
  service: { modelEnv: 'GWC_RESPONSES_MODEL', optional: true },
  paths: { generate: () => RESPONSES_PATH, stream: () => RESPONSES_PATH, count: () => RESPONSES_COUNT_PATH, models: null },
  // Codex's remote compaction, a stored response and its cancel, and Codex's own model catalog (its manifest, asked with its version).
  apiRoutes: [
    { name: 'compact', method: 'POST', path: /^\/v1\/responses\/compact$/, example: () => `${RESPONSES_PATH}/compact` },
    { name: 'cancel-response', method: 'POST', path: /^\/v1\/responses\/[^/]+\/cancel$/, example: (id) => `${RESPONSES_PATH}/${id}/cancel` },
    { name: 'stored-response', method: 'GET', path: /^\/v1\/responses\/[^/]+$/, example: (id) => `${RESPONSES_PATH}/${id}` },
    { name: 'client-catalog', method: 'GET', path: /^\/v1\/models$/, query: 'client_version', example: (version) => `/v1/models?client_version=${encodeURIComponent(version)}` },
  ],
  routeOf(method, path) {
    if (method !== 'POST') return null;
    const p = path.split('?')[0];
    return p === RESPONSES_PATH ? 'generate' : p === RESPONSES_COUNT_PATH ? 'count' : null;
  },
  minimalRequest(o) {
    const limit = o.maxTokens === undefined ? {} : { max_output_tokens: o.maxTokens };
    const body = JSON.stringify({ model: o.model ?? RESPONSES.defaultModel, input: o.text, ...limit, ...(o.stream ? { stream: true } : {}) });
    return { method: 'POST', path: RESPONSES_PATH, auth: RESPONSES.defaultCredential, headers: [['content-type', 'application/json']], body };
  },
  readRequest,
  replies,
};
