// The native content-generation protocol (Gemini) as one record: its paths (the model is in the
// path, the stream is its own route), its credential style, its minimal request, and its
// replies written from meaning and read back (record.ts). Realistic headers and error bodies
// are the upstream's (replies.ts beside it); this file maps meaning onto them.
import { NATIVE_JSON_HEADERS, NATIVE_MODEL, NATIVE_SSE_HEADERS, googleCompact, nativeCountTokensBody, nativeError, responseId } from './replies.js';
import { LIVE_SOCKET } from './socket.js';
import { arr, decodedPath, num, obj, parseJson, str } from '../read.js';
import { mergedTurns, setParams, type Answer, type ProtocolRecord, type ReplyCodec, type RequestMeaning, type StopReason, type StreamStep, type StreamWriter, type ToolCall, type Usage } from '../record.js';

/** `POST /v1beta/models/{model}:generateContent`, or `:streamGenerateContent?alt=sse` to stream. */
export function nativePath(model = NATIVE_MODEL, stream = false): string {
  return `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
}

/** The model a `/v1beta` generate or stream path names (query removed, not decoded) and whether it streams; null for any other path. */
export function nativeGenerateOf(path: string): { model: string; stream: boolean } | null {
  const m = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(path);
  return m ? { model: m[1], stream: m[2] === 'streamGenerateContent' } : null;
}

const STOP: Record<string, StopReason> = { STOP: 'end', MAX_TOKENS: 'max_tokens', SAFETY: 'refusal', RECITATION: 'refusal', BLOCKLIST: 'refusal', PROHIBITED_CONTENT: 'refusal', SPII: 'refusal' };
const STOP_BACK: Record<StopReason, string> = { end: 'STOP', max_tokens: 'MAX_TOKENS', tool_use: 'STOP', stop_sequence: 'STOP', refusal: 'SAFETY', pause: 'STOP', context_window: 'MAX_TOKENS', other: 'OTHER' };

function readUsage(u: unknown): Usage | undefined {
  const o = obj(u);
  if (o.promptTokenCount === undefined) return undefined;
  const cached = num(o.cachedContentTokenCount);
  return { input: num(o.promptTokenCount) - cached, output: num(o.candidatesTokenCount), ...(cached ? { cacheRead: cached } : {}), ...(o.thoughtsTokenCount ? { reasoning: num(o.thoughtsTokenCount) } : {}) };
}

function writeUsage(u: Usage): Record<string, unknown> {
  const prompt = u.input + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0);
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: u.output,
    totalTokenCount: prompt + u.output + (u.reasoning ?? 0),
    ...(u.cacheRead ? { cachedContentTokenCount: u.cacheRead } : {}),
    ...(u.reasoning ? { thoughtsTokenCount: u.reasoning } : {}),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }],
  };
}

let calls = 0;
/** Native function calls carry no id: one is made for the protocols that need it. */
const callId = () => `call_gwcnative${String(++calls).padStart(8, '0')}`;

/** The parts of one candidate, read into text, thinking and tool calls. */
function readParts(cand: Record<string, unknown>): { text: string; thinking: string; calls: ToolCall[] } {
  const parts = arr(obj(cand.content).parts).map((p) => obj(p));
  return {
    text: parts.filter((p) => typeof p.text === 'string' && p.thought !== true).map((p) => str(p.text)).join(''),
    thinking: parts.filter((p) => p.thought === true).map((p) => str(p.text)).join(''),
    calls: parts.filter((p) => p.functionCall !== undefined).map((p) => obj(p.functionCall)).map((f) => ({ id: str(f.id) || callId(), name: str(f.name), args: JSON.stringify(f.args ?? {}) })),
  };
}

function stopOf(reason: unknown, calls: ToolCall[]): StopReason {
  return calls.length && reason === 'STOP' ? 'tool_use' : (STOP[str(reason)] ?? 'other');
}

function readAnswer(body: string): Answer | null {
  const v = obj(parseJson(body));
  if (!Array.isArray(v.candidates)) return null;
  const cand = obj(v.candidates[0]);
  const p = readParts(cand);
  return { model: str(v.modelVersion), text: p.text, ...(p.thinking ? { thinking: p.thinking } : {}), toolCalls: p.calls, stop: stopOf(cand.finishReason, p.calls), usage: readUsage(v.usageMetadata) ?? { input: 0, output: 0 } };
}

const partsOf = (text: string, calls: ToolCall[]) => [...(text || !calls.length ? [{ text }] : []), ...calls.map((c) => ({ functionCall: { name: c.name, args: parseJson(c.args) ?? {} } }))];

function answer(a: Answer): string {
  const cand = { content: { parts: partsOf(a.text, a.toolCalls), role: 'model' }, finishReason: STOP_BACK[a.stop], index: 0 };
  return JSON.stringify({ candidates: [cand], usageMetadata: writeUsage(a.usage), modelVersion: a.model, responseId: responseId() }, null, 2);
}

/** Reads `data:` frames: the first starts the answer, the one with a finish reason ends it. */
function reader() {
  let started = false;
  return {
    read(data: string): StreamStep[] | null {
      const line = /^data: ?(.*)$/m.exec(data);
      if (!line) return null;
      const v = obj(parseJson(line[1]));
      if (v.error !== undefined) return [{ t: 'error', message: str(obj(v.error).message) }];
      if (!Array.isArray(v.candidates)) return null;
      const steps: StreamStep[] = [];
      if (!started) steps.push({ t: 'start', model: str(v.modelVersion) });
      started = true;
      const cand = obj(v.candidates[0]);
      const p = readParts(cand);
      if (p.thinking) steps.push({ t: 'thinking', text: p.thinking });
      if (p.text) steps.push({ t: 'text', text: p.text });
      for (const c of p.calls) steps.push({ t: 'tool', id: c.id, name: c.name }, { t: 'args', json: c.args });
      if (typeof cand.finishReason === 'string') steps.push({ t: 'stop', stop: stopOf(cand.finishReason, p.calls), usage: readUsage(v.usageMetadata) }, { t: 'end' });
      return steps;
    },
  };
}

/** Writes `data:` frames of compact JSON; tool calls and the finish go out whole in the last frame. */
class NativeWriter implements StreamWriter {
  private id = responseId();
  private model = '';
  private calls: ToolCall[] = [];
  private stop: StopReason | null = null;
  private usage: Usage = { input: 0, output: 0 };
  private frame(cand: Record<string, unknown>, usage?: Usage): string {
    return `data: ${googleCompact({ candidates: [{ ...cand, index: 0 }], usageMetadata: usage ? writeUsage(usage) : { promptTokenCount: this.usage.input, totalTokenCount: this.usage.input }, modelVersion: this.model, responseId: this.id })}\r\n\r\n`;
  }
  write(s: StreamStep): string[] {
    switch (s.t) {
      case 'start':
        this.model = s.model;
        if (s.usage) this.usage = s.usage;
        return [];
      case 'text':
        return [this.frame({ content: { parts: [{ text: s.text }], role: 'model' } })];
      case 'thinking':
        return [this.frame({ content: { parts: [{ text: s.text, thought: true }], role: 'model' } })];
      case 'tool':
        this.calls.push({ id: s.id, name: s.name, args: '' });
        return [];
      case 'args':
        if (this.calls.length) this.calls[this.calls.length - 1].args += s.json;
        return [];
      case 'stop':
        this.stop = s.stop;
        if (s.usage) this.usage = { ...this.usage, ...s.usage };
        return [];
      case 'usage':
        this.usage = s.usage;
        return [];
      case 'error':
        return [`data: ${googleCompact({ error: { code: 500, message: s.message, status: 'INTERNAL' } })}\r\n\r\n`];
      case 'end':
        return [this.frame({ content: { parts: partsOf('', this.calls), role: 'model' }, finishReason: STOP_BACK[this.stop ?? 'end'] }, this.usage)];
    }
  }
}

const replies: ReplyCodec = {
  jsonHeaders: NATIVE_JSON_HEADERS,
  sseHeaders: NATIVE_SSE_HEADERS,
  answer,
  readAnswer,
  streamWriter: () => new NativeWriter(),
  streamReader: reader,
  error: (e) => nativeError(e.status, { message: e.message }),
  readError(body, status) {
    const e = obj(obj(parseJson(body)).error);
    return typeof e.message === 'string' && typeof e.status === 'string' ? { status, message: e.message } : null;
  },
  count: (n) => nativeCountTokensBody(n),
  readCount: (body) => {
    const v = obj(parseJson(body));
    return typeof v.totalTokens === 'number' ? v.totalTokens : null;
  },
  models: (list) =>
    JSON.stringify(
      { models: list.map((m) => ({ name: `models/${m.id}`, version: '001', displayName: m.displayName, inputTokenLimit: 1048576, outputTokenLimit: 65536, supportedGenerationMethods: ['generateContent', 'countTokens'] })) },
      null,
      2,
    ),
  readModels(body) {
    const v = obj(parseJson(body));
    if (!Array.isArray(v.models)) return null;
    return v.models.map((m) => obj(m)).map((m) => ({ id: str(m.name).replace(/^models\//, ''), displayName: str(m.displayName), created: '1970-01-01T00:00:00Z' }));
  },
};

/** A part's text: its text, or a function response's result. */
function partText(p: Record<string, unknown>): string {
  if (typeof p.text === 'string') return p.thought === true ? '' : p.text;
  if (p.functionResponse === undefined) return '';
  const r = obj(obj(p.functionResponse).response);
  return typeof r.content === 'string' ? r.content : typeof r.result === 'string' ? r.result : JSON.stringify(r);
}

function readRequest(path: string, body: string): RequestMeaning | null {
  const v = obj(parseJson(body));
  if (!Array.isArray(v.contents)) return null;
  const contents = v.contents.map((c) => obj(c));
  const parts = (c: Record<string, unknown>) => arr(c.parts).map((p) => obj(p));
  const g = obj(v.generationConfig);
  return {
    model: /\/models\/([^/:]+):/.exec(decodedPath(path))?.[1] ?? '',
    system: parts(obj(v.systemInstruction)).map(partText).join('\n'),
    turns: mergedTurns(contents.map((c) => ({ role: c.role === 'model' ? 'assistant' : 'user', text: parts(c).map(partText).filter(Boolean).join(' ') }))),
    toolCalls: contents.flatMap((c) => parts(c).filter((p) => p.functionCall !== undefined).map((p) => str(obj(p.functionCall).name))),
    tools: arr(v.tools).flatMap((t) => arr(obj(t).functionDeclarations).map((f) => str(obj(f).name))),
    params: setParams({ maxTokens: g.maxOutputTokens as number | undefined, temperature: g.temperature as number | undefined, topP: g.topP as number | undefined, stop: Array.isArray(g.stopSequences) ? g.stopSequences.map(str) : undefined }),
    stream: decodedPath(path).endsWith(':streamGenerateContent'),
  };
}

export const NATIVE: ProtocolRecord = {
  name: 'native',
  title: 'native content generation (Gemini)',
  defaultCredential: 'x-goog-api-key',
  defaultModel: NATIVE_MODEL,
  modelIn: 'path',
  features: ['tools', 'images'],
  service: { modelEnv: 'GWC_NATIVE_MODEL' },
  paths: { generate: (m) => nativePath(m), stream: (m) => nativePath(m, true), count: (m) => `/v1beta/models/${m}:countTokens`, models: () => '/v1beta/models', rpc: null },
  routeOf(method, path) {
    const m = /^\/v1(beta)?\/models\/[^/]+:(generateContent|streamGenerateContent|countTokens)$/.exec(decodedPath(path));
    if (m) return m[2] === 'generateContent' ? 'generate' : m[2] === 'countTokens' ? 'count' : 'stream';
    return method === 'GET' && /^\/v1beta\/models$/.test(decodedPath(path)) ? 'models' : null;
  },
  minimalRequest(o) {
    const limit = o.maxTokens === undefined ? {} : { generationConfig: { maxOutputTokens: o.maxTokens } };
    const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: o.text }] }], ...limit });
    return { method: 'POST', path: nativePath(o.model ?? NATIVE.defaultModel, o.stream), auth: NATIVE.defaultCredential, headers: [['content-type', 'application/json']], body };
  },
  readRequest,
  replies,
  unframedStream(path, frames) {
    if (new URLSearchParams(path.split('?')[1] ?? '').get('alt') === 'sse') return null;
    // Without alt=sse the endpoint answers one JSON array, each payload pretty-printed, `,\r\n` between them.
    const payloads = frames.map((f) => /^data: ?(.*)$/m.exec(f)?.[1] ?? null);
    const last = payloads.reduce((k, p, i) => (p === null ? k : i), -1);
    let first = true;
    const texts = payloads.map((p, i) => {
      if (p === null) return '';
      const text = `${first ? '[' : ',\r\n'}${JSON.stringify(parseJson(p), null, 2)}${i === last ? ']' : ''}`;
      first = false;
      return text;
    });
    return { headers: NATIVE_JSON_HEADERS, texts: last < 0 ? ['[]'] : texts };
  },
  sockets: [LIVE_SOCKET],
};
