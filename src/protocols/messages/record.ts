// The messages protocol (Anthropic) as one record: its paths and how a path is recognised, its
// credential style, where the model goes, its minimal request, and its replies written from
// meaning and read back (record.ts). The realistic bodies themselves are the upstream's
// (replies.ts and discovery.ts beside it); this file maps meaning onto them.
import { countTokensBody, modelListBody } from './discovery.js';
import { errorBody, messageId } from './replies.js';
import { frameText } from './streams.js';
import { JSON_HEADERS, SSE_HEADERS } from '../../upstream/scenario.js';
import { arr, num, obj, parseJson, str, type Json } from '../read.js';
import { mergedTurns, setParams, type Answer, type ProtocolRecord, type ReplyCodec, type RequestMeaning, type StopReason, type StreamStep, type StreamWriter, type Usage } from '../record.js';

export const MESSAGES_PATH = '/v1/messages';
/** The `anthropic-version` a messages client sends today. */
export const ANTHROPIC_VERSION = '2023-06-01';

/** The headers of a messages-protocol POST: JSON, and `anthropic-version` (a given value, the current one, or none with null). */
export function messagesHeaders(version?: string | null): Array<[string, string]> {
  return [['content-type', 'application/json'], ...(version === null ? [] : [['anthropic-version', version ?? ANTHROPIC_VERSION] as [string, string]])];
}

const STOP: Record<string, StopReason> = { end_turn: 'end', max_tokens: 'max_tokens', tool_use: 'tool_use', stop_sequence: 'stop_sequence', refusal: 'refusal', pause_turn: 'other' };
const STOP_BACK: Record<StopReason, string> = { end: 'end_turn', max_tokens: 'max_tokens', tool_use: 'tool_use', stop_sequence: 'stop_sequence', refusal: 'refusal', other: 'end_turn' };

function readUsage(u: Json | undefined): Usage {
  const o = obj(u);
  return {
    input: num(o.input_tokens),
    output: num(o.output_tokens),
    ...(o.cache_read_input_tokens !== undefined ? { cacheRead: num(o.cache_read_input_tokens) } : {}),
    ...(o.cache_creation_input_tokens !== undefined ? { cacheWrite: num(o.cache_creation_input_tokens) } : {}),
  };
}

function writeUsage(u: Usage): Record<string, number> {
  return { input_tokens: u.input, cache_creation_input_tokens: u.cacheWrite ?? 0, cache_read_input_tokens: u.cacheRead ?? 0, output_tokens: u.output };
}

function readAnswer(body: string): Answer | null {
  const v = obj(parseJson(body));
  if (v.type !== 'message' || !Array.isArray(v.content)) return null;
  const blocks = v.content.map((b) => obj(b));
  return {
    model: str(v.model),
    text: blocks.filter((b) => b.type === 'text').map((b) => str(b.text)).join(''),
    ...(blocks.some((b) => b.type === 'thinking') ? { thinking: blocks.filter((b) => b.type === 'thinking').map((b) => str(b.thinking)).join('') } : {}),
    toolCalls: blocks.filter((b) => b.type === 'tool_use').map((b) => ({ id: str(b.id), name: str(b.name), args: JSON.stringify(b.input ?? {}) })),
    stop: STOP[str(v.stop_reason)] ?? 'other',
    usage: readUsage(v.usage),
  };
}

function answer(a: Answer): string {
  const content = [
    ...(a.thinking !== undefined ? [{ type: 'thinking', thinking: a.thinking, signature: '' }] : []),
    ...(a.text || a.toolCalls.length === 0 ? [{ type: 'text', text: a.text }] : []),
    ...a.toolCalls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: parseJson(c.args) ?? {} })),
  ];
  return JSON.stringify({ id: messageId(), type: 'message', role: 'assistant', model: a.model, content, stop_reason: STOP_BACK[a.stop], stop_sequence: null, usage: writeUsage(a.usage) });
}

/** The steps of one frame (`event:` and `data:` lines). */
function readFrame(data: string): StreamStep[] | null {
  const line = /^data: ?(.*)$/m.exec(data);
  if (!line) return null;
  const v = obj(parseJson(line[1]));
  const delta = obj(v.delta);
  switch (v.type) {
    case 'message_start': {
      const m = obj(v.message);
      return [{ t: 'start', model: str(m.model), usage: readUsage(m.usage) }];
    }
    case 'content_block_start': {
      const b = obj(v.content_block);
      return b.type === 'tool_use' ? [{ t: 'tool', id: str(b.id), name: str(b.name) }] : [];
    }
    case 'content_block_delta':
      if (delta.type === 'text_delta') return [{ t: 'text', text: str(delta.text) }];
      if (delta.type === 'thinking_delta') return [{ t: 'thinking', text: str(delta.thinking) }];
      if (delta.type === 'input_json_delta') return [{ t: 'args', json: str(delta.partial_json) }];
      return [];
    case 'message_delta':
      return [{ t: 'stop', stop: STOP[str(delta.stop_reason)] ?? 'other', usage: readUsage(v.usage) }];
    case 'message_stop':
      return [{ t: 'end' }];
    case 'error':
      return [{ t: 'error', message: str(obj(v.error).message) }];
    default:
      // ping, content_block_stop, and event types no protocol maps: nothing to carry.
      return typeof v.type === 'string' ? [] : null;
  }
}

/** Writes messages-protocol events: blocks opened and closed around their deltas. */
class MessagesWriter implements StreamWriter {
  private index = -1;
  private open: string | null = null;
  private stop: { stop: StopReason; usage?: Usage } | null = null;
  private model = '';
  private ev(event: string, data: unknown): string {
    return frameText({ event, data: JSON.stringify(data) });
  }
  private block(type: string, start: Record<string, unknown>): string[] {
    if (this.open === type && type !== 'tool_use') return [];
    const out = this.close();
    this.index++;
    this.open = type;
    out.push(this.ev('content_block_start', { type: 'content_block_start', index: this.index, content_block: start }));
    return out;
  }
  private close(): string[] {
    if (this.open === null) return [];
    this.open = null;
    return [this.ev('content_block_stop', { type: 'content_block_stop', index: this.index })];
  }
  private delta(delta: Record<string, unknown>): string {
    return this.ev('content_block_delta', { type: 'content_block_delta', index: this.index, delta });
  }
  write(s: StreamStep): string[] {
    switch (s.t) {
      case 'start':
        this.model = s.model;
        return [this.ev('message_start', { type: 'message_start', message: { id: messageId(), type: 'message', role: 'assistant', content: [], model: this.model, stop_reason: null, stop_sequence: null, usage: writeUsage(s.usage ?? { input: 0, output: 0 }) } })];
      case 'text':
        return [...this.block('text', { type: 'text', text: '' }), this.delta({ type: 'text_delta', text: s.text })];
      case 'thinking':
        return [...this.block('thinking', { type: 'thinking', thinking: '', signature: '' }), this.delta({ type: 'thinking_delta', thinking: s.text })];
      case 'tool':
        return this.block('tool_use', { type: 'tool_use', id: s.id, name: s.name, input: {} });
      case 'args':
        return [this.delta({ type: 'input_json_delta', partial_json: s.json })];
      case 'stop':
        // The usage may follow in its own step (chat sends it after the finish): written at the end.
        this.stop = { stop: s.stop, usage: s.usage };
        return this.close();
      case 'usage':
        this.stop = { stop: this.stop?.stop ?? 'end', usage: s.usage };
        return [];
      case 'error':
        return [this.ev('error', { type: 'error', error: { type: 'api_error', message: s.message } })];
      case 'end': {
        const out = this.close();
        const st = this.stop ?? { stop: 'end' as StopReason };
        out.push(this.ev('message_delta', { type: 'message_delta', delta: { stop_reason: STOP_BACK[st.stop], stop_sequence: null }, usage: writeUsage(st.usage ?? { input: 0, output: 0 }) }));
        out.push(this.ev('message_stop', { type: 'message_stop' }));
        return out;
      }
    }
  }
}

const replies: ReplyCodec = {
  jsonHeaders: JSON_HEADERS,
  sseHeaders: SSE_HEADERS,
  answer,
  readAnswer,
  streamWriter: () => new MessagesWriter(),
  streamReader: () => ({ read: readFrame }),
  error: (e) => errorBody(e.status, e.message),
  readError(body, status) {
    const v = obj(parseJson(body));
    return v.type === 'error' && typeof obj(v.error).message === 'string' ? { status, message: str(obj(v.error).message) } : null;
  },
  count: (n) => countTokensBody(n),
  readCount: (body) => {
    const v = obj(parseJson(body));
    return typeof v.input_tokens === 'number' ? v.input_tokens : null;
  },
  models: (list) => modelListBody(list.map((m) => ({ type: 'model', id: m.id, display_name: m.displayName, created_at: m.created }))),
  readModels(body) {
    const v = obj(parseJson(body));
    if (!Array.isArray(v.data) || v.has_more === undefined) return null;
    return v.data.map((m) => obj(m)).map((m) => ({ id: str(m.id), displayName: str(m.display_name), created: str(m.created_at) }));
  },
};

/** The text of a content value: a string, or its text and tool-result blocks' text. */
function textOf(content: Json): string {
  if (typeof content === 'string') return content;
  return arr(content)
    .map((b) => obj(b))
    .map((b) => (b.type === 'text' ? str(b.text) : b.type === 'tool_result' ? textOf(b.content) : ''))
    .filter(Boolean)
    .join(' ');
}

function readRequest(_path: string, body: string): RequestMeaning | null {
  const v = obj(parseJson(body));
  if (!Array.isArray(v.messages)) return null;
  const msgs = v.messages.map((m) => obj(m));
  const stop = v.stop_sequences;
  return {
    model: str(v.model),
    system: typeof v.system === 'string' ? v.system : arr(v.system).map((b) => str(obj(b).text)).join('\n'),
    turns: mergedTurns(msgs.map((m) => ({ role: m.role === 'assistant' ? 'assistant' : 'user', text: textOf(m.content) }))),
    toolCalls: msgs.flatMap((m) => arr(m.content).map((b) => obj(b)).filter((b) => b.type === 'tool_use').map((b) => str(b.name))),
    tools: arr(v.tools).map((t) => str(obj(t).name)),
    params: setParams({ maxTokens: v.max_tokens as number | undefined, temperature: v.temperature as number | undefined, topP: v.top_p as number | undefined, stop: Array.isArray(stop) ? stop.map(str) : undefined }),
    stream: v.stream === true,
  };
}

const pathOnly = (path: string) => path.split('?')[0];
const hasHeader = (headers: Array<[string, string]>, name: string) => headers.some(([k]) => k.toLowerCase() === name);

export const MESSAGES: ProtocolRecord = {
  name: 'messages',
  title: 'messages (Anthropic)',
  defaultCredential: 'bearer',
  defaultModel: 'claude-sonnet-4-5-20250929',
  modelIn: 'body',
  features: ['tools', 'images', 'documents', 'thinking', 'cache-5m', 'cache-1h', 'web-search', 'context-1m', 'citations'],
  service: { modelEnv: 'GWC_MESSAGES_MODEL' },
  paths: { generate: () => MESSAGES_PATH, stream: () => MESSAGES_PATH, count: () => `${MESSAGES_PATH}/count_tokens`, models: () => '/v1/models' },
  // The files API's path is OpenAI's too: the messages protocol's upload carries its version header.
  apiRoutes: [
    { name: 'files', method: 'POST', path: /^\/v1\/files$/, header: 'anthropic-version', example: () => '/v1/files' },
    { name: 'batch', method: 'GET', path: /^\/v1\/messages\/batches\/[^/]+$/, example: (id) => `${MESSAGES_PATH}/batches/${id}` },
  ],
  routeOf(method, path, headers) {
    const p = pathOnly(path);
    if (p === MESSAGES_PATH) return 'generate';
    if (p === `${MESSAGES_PATH}/count_tokens`) return 'count';
    // The model list's path is chat's too: the messages protocol's carries its version header.
    if (method === 'GET' && /^\/v1\/models(\/[^/]+)?$/.test(p) && hasHeader(headers, 'anthropic-version')) return 'models';
    return null;
  },
  minimalRequest(o) {
    const body = JSON.stringify({ model: o.model ?? MESSAGES.defaultModel, max_tokens: o.maxTokens ?? 1024, messages: [{ role: 'user', content: o.text }], ...(o.stream ? { stream: true } : {}) });
    return { method: 'POST', path: MESSAGES_PATH, auth: MESSAGES.defaultCredential, headers: messagesHeaders(), body };
  },
  readRequest,
  replies,
};
