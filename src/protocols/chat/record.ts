// The chat-completions protocol (OpenAI) as one record: its paths and how a path is recognised,
// its credential style, where the model goes, its minimal request, and its replies written from
// meaning and read back (record.ts). Realistic headers, ids and error bodies are the upstream's
// (replies.ts beside it); this file maps meaning onto them.
import { CHAT_JSON_HEADERS, CHAT_SSE_HEADERS, DONE, chatError, completionId } from './replies.js';
import { arr, num, obj, parseJson, str, type Json } from '../read.js';
import { mergedTurns, setParams, type Answer, type ProtocolRecord, type ReplyCodec, type RequestMeaning, type StopReason, type StreamStep, type StreamWriter, type Usage } from '../record.js';

export const CHAT_PATH = '/v1/chat/completions';

const CREATED = 1730000000;
const STOP: Record<string, StopReason> = { stop: 'end', length: 'max_tokens', tool_calls: 'tool_use', function_call: 'tool_use', content_filter: 'refusal' };
const STOP_BACK: Record<StopReason, string> = { end: 'stop', max_tokens: 'length', tool_use: 'tool_calls', stop_sequence: 'stop', refusal: 'content_filter', other: 'stop' };

/** Chat counts cached prompt tokens inside prompt_tokens; the neutral input is the uncached part. */
function readUsage(u: Json): Usage | undefined {
  const o = obj(u);
  if (o.prompt_tokens === undefined) return undefined;
  const cached = num(obj(o.prompt_tokens_details).cached_tokens);
  const reasoning = obj(o.completion_tokens_details).reasoning_tokens;
  return { input: num(o.prompt_tokens) - cached, output: num(o.completion_tokens), ...(cached ? { cacheRead: cached } : {}), ...(typeof reasoning === 'number' && reasoning ? { reasoning } : {}) };
}

function writeUsage(u: Usage): Record<string, unknown> {
  const prompt = u.input + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0);
  return {
    prompt_tokens: prompt,
    completion_tokens: u.output,
    total_tokens: prompt + u.output,
    prompt_tokens_details: { cached_tokens: u.cacheRead ?? 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: u.reasoning ?? 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

function readAnswer(body: string): Answer | null {
  const v = obj(parseJson(body));
  if (v.object !== 'chat.completion') return null;
  const choice = obj(arr(v.choices)[0]);
  const msg = obj(choice.message);
  return {
    model: str(v.model),
    text: str(msg.content),
    toolCalls: arr(msg.tool_calls).map((c) => obj(c)).map((c) => ({ id: str(c.id), name: str(obj(c.function).name), args: str(obj(c.function).arguments) })),
    stop: STOP[str(choice.finish_reason)] ?? 'other',
    usage: readUsage(v.usage) ?? { input: 0, output: 0 },
  };
}

function answer(a: Answer): string {
  const tools = a.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } }));
  const message = { role: 'assistant', content: a.text || (tools.length ? null : ''), ...(tools.length ? { tool_calls: tools } : {}), refusal: null, annotations: [] };
  return JSON.stringify(
    { id: completionId(), object: 'chat.completion', created: CREATED, model: a.model, choices: [{ index: 0, message, logprobs: null, finish_reason: STOP_BACK[a.stop] }], usage: writeUsage(a.usage), service_tier: 'default', system_fingerprint: 'fp_0ba0d124f1' },
    null,
    2,
  );
}

function readFrame(data: string): StreamStep[] | null {
  const line = /^data: ?(.*)$/m.exec(data);
  if (!line) return null;
  if (line[1].trim() === DONE) return [{ t: 'end' }];
  const v = obj(parseJson(line[1]));
  if (v.error !== undefined) return [{ t: 'error', message: str(obj(v.error).message) }];
  if (v.object !== 'chat.completion.chunk') return null;
  const steps: StreamStep[] = [];
  const choice = obj(arr(v.choices)[0]);
  const delta = obj(choice.delta);
  if (typeof delta.role === 'string') steps.push({ t: 'start', model: str(v.model) });
  if (typeof delta.content === 'string' && delta.content) steps.push({ t: 'text', text: delta.content });
  for (const c of arr(delta.tool_calls).map((x) => obj(x))) {
    const fn = obj(c.function);
    if (typeof c.id === 'string') steps.push({ t: 'tool', id: c.id, name: str(fn.name) });
    if (typeof fn.arguments === 'string' && fn.arguments) steps.push({ t: 'args', json: fn.arguments });
  }
  if (typeof choice.finish_reason === 'string') steps.push({ t: 'stop', stop: STOP[choice.finish_reason] ?? 'other' });
  const usage = readUsage(v.usage);
  if (usage) steps.push({ t: 'usage', usage });
  return steps;
}

/** Writes data-only chunks: a role chunk, deltas, a finish chunk, a usage chunk, `[DONE]`. */
class ChatWriter implements StreamWriter {
  private id = completionId();
  private model = '';
  private tool = -1;
  private usage: Usage | null = null;
  private usageSent = false;
  private chunk(choices: unknown[], usage?: Usage): string {
    const body = { id: this.id, object: 'chat.completion.chunk', created: CREATED, model: this.model, service_tier: 'default', system_fingerprint: 'fp_0ba0d124f1', choices, usage: usage ? writeUsage(usage) : null };
    return `data: ${JSON.stringify(body)}\n\n`;
  }
  private delta(delta: Record<string, unknown>, finish: string | null = null): string {
    return this.chunk([{ index: 0, delta, logprobs: null, finish_reason: finish }]);
  }
  write(s: StreamStep): string[] {
    switch (s.t) {
      case 'start':
        this.model = s.model;
        if (s.usage) this.usage = s.usage;
        return [this.delta({ role: 'assistant', content: '', refusal: null })];
      case 'text':
        return [this.delta({ content: s.text })];
      case 'thinking':
        return [];
      case 'tool':
        this.tool++;
        return [this.delta({ tool_calls: [{ index: this.tool, id: s.id, type: 'function', function: { name: s.name, arguments: '' } }] })];
      case 'args':
        return [this.delta({ tool_calls: [{ index: Math.max(0, this.tool), function: { arguments: s.json } }] })];
      case 'stop':
        if (s.usage) this.usage = { ...(this.usage ?? {}), ...s.usage };
        return [this.delta({}, STOP_BACK[s.stop])];
      case 'usage':
        this.usageSent = true;
        return [this.chunk([], s.usage)];
      case 'error':
        return [`data: ${JSON.stringify({ error: { message: s.message, type: 'server_error', param: null, code: null } })}\n\n`];
      case 'end': {
        const out = this.usage && !this.usageSent ? [this.chunk([], this.usage)] : [];
        return [...out, `data: ${DONE}\n\n`];
      }
    }
  }
}

const replies: ReplyCodec = {
  jsonHeaders: CHAT_JSON_HEADERS,
  sseHeaders: CHAT_SSE_HEADERS,
  answer,
  readAnswer,
  streamWriter: () => new ChatWriter(),
  streamReader: () => ({ read: readFrame }),
  error: (e) => chatError(e.status, { message: e.message }),
  readError(body, status) {
    const e = obj(obj(parseJson(body)).error);
    return typeof e.message === 'string' && e.code !== undefined ? { status, message: e.message } : null;
  },
  count: () => null,
  readCount: () => null,
  models: (list) => JSON.stringify({ object: 'list', data: list.map((m) => ({ id: m.id, object: 'model', created: Math.floor(Date.parse(m.created) / 1000) || CREATED, owned_by: 'gw-conformance' })) }),
  readModels(body) {
    const v = obj(parseJson(body));
    if (v.object !== 'list' || !Array.isArray(v.data)) return null;
    return v.data.map((m) => obj(m)).map((m) => ({ id: str(m.id), displayName: str(m.id), created: new Date(num(m.created) * 1000).toISOString() }));
  },
};

/** The text of a chat content value: a string, or its text parts. */
const textOf = (content: Json): string => (typeof content === 'string' ? content : arr(content).map((p) => str(obj(p).text)).filter(Boolean).join(' '));

function readRequest(_path: string, body: string): RequestMeaning | null {
  const v = obj(parseJson(body));
  if (!Array.isArray(v.messages)) return null;
  const msgs = v.messages.map((m) => obj(m));
  const system = msgs.filter((m) => m.role === 'system' || m.role === 'developer');
  const stop = typeof v.stop === 'string' ? [v.stop] : Array.isArray(v.stop) ? v.stop.map(str) : undefined;
  return {
    model: str(v.model),
    system: system.map((m) => textOf(m.content)).join('\n'),
    turns: mergedTurns(msgs.filter((m) => !system.includes(m)).map((m) => ({ role: m.role === 'assistant' ? 'assistant' : 'user', text: textOf(m.content) }))),
    toolCalls: msgs.flatMap((m) => arr(m.tool_calls).map((c) => str(obj(obj(c).function).name))),
    tools: arr(v.tools).map((t) => str(obj(obj(t).function).name)),
    params: setParams({ maxTokens: (v.max_tokens ?? v.max_completion_tokens) as number | undefined, temperature: v.temperature as number | undefined, topP: v.top_p as number | undefined, stop }),
    stream: v.stream === true,
  };
}

const hasHeader = (headers: Array<[string, string]>, name: string) => headers.some(([k]) => k.toLowerCase() === name);

export const CHAT: ProtocolRecord = {
  name: 'chat',
  title: 'chat completions (OpenAI)',
  defaultCredential: 'bearer',
  defaultModel: 'gpt-4o-mini',
  modelIn: 'body',
  features: ['tools', 'images', 'json-mode'],
  service: { modelEnv: 'GWC_CHAT_MODEL' },
  paths: { generate: () => CHAT_PATH, stream: () => CHAT_PATH, count: null, models: () => '/v1/models' },
  // OpenAI's files and batches, which chat completions and the Responses API share.
  apiRoutes: [
    { name: 'files', method: 'POST', path: /^\/v1\/files$/, example: () => '/v1/files' },
    { name: 'batch', method: 'GET', path: /^\/v1\/batches\/[^/]+$/, example: (id) => `/v1/batches/${id}` },
  ],
  routeOf(method, path, headers) {
    const p = path.split('?')[0];
    if (p === CHAT_PATH) return 'generate';
    if (method === 'GET' && /^\/v1\/models(\/[^/]+)?$/.test(p) && !hasHeader(headers, 'anthropic-version')) return 'models';
    return null;
  },
  minimalRequest(o) {
    const limit = o.maxTokens === undefined ? {} : { max_tokens: o.maxTokens };
    const stream = o.stream ? { stream: true, stream_options: { include_usage: true } } : {};
    const body = JSON.stringify({ model: o.model ?? CHAT.defaultModel, messages: [{ role: 'user', content: o.text }], ...limit, ...stream });
    return { method: 'POST', path: CHAT_PATH, auth: CHAT.defaultCredential, headers: [['content-type', 'application/json']], body };
  },
  readRequest,
  replies,
};
