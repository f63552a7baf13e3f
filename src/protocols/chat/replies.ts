// Realistic chat-completions (OpenAI) bodies for the recording upstream and the service
// emulator, shaped like the real API's so gateways meet what they meet in production. JSON
// answers are pretty-printed as the API writes them; a stream is data-only SSE: a role chunk,
// content chunks, a finish chunk, with `include_usage` a usage chunk whose `choices` is empty,
// then `data: [DONE]`.
import type { HeaderList, JsonReply, SseFrame, SseReply } from '../../upstream/scenario.js';

export const CHAT_MODEL = 'gpt-4o-mini-2024-07-18';
export const DONE = '[DONE]';

export const CHAT_JSON_HEADERS: HeaderList = [
  ['content-type', 'application/json'],
  ['openai-processing-ms', '312'],
  ['x-request-id', 'req_gwc0chat0000000000000000000001'],
];
export const CHAT_SSE_HEADERS: HeaderList = [
  ['content-type', 'text/event-stream; charset=utf-8'],
  ['openai-processing-ms', '187'],
  ['x-request-id', 'req_gwc0chat0000000000000000000002'],
];

const CREATED = 1730000000;
const FINGERPRINT = 'fp_0ba0d124f1';
let counter = 0;
export function completionId(): string {
  counter++;
  return `chatcmpl-gwc${String(counter).padStart(8, '0')}`;
}

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  [extra: string]: unknown;
}

export const CHAT_USAGE: ChatUsage = {
  prompt_tokens: 9,
  completion_tokens: 12,
  total_tokens: 21,
  prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
};

/** A chat.completion answer; `extra` fields are appended after the usual ones. */
export function chatCompletion(opts: { content?: string | null; model?: string; finishReason?: string; extra?: Record<string, unknown> } = {}): string {
  return JSON.stringify(
    {
      id: completionId(),
      object: 'chat.completion',
      created: CREATED,
      model: opts.model ?? CHAT_MODEL,
      choices: [{ index: 0, message: { role: 'assistant', content: opts.content === undefined ? 'Hello' : opts.content, refusal: null, annotations: [] }, logprobs: null, finish_reason: opts.finishReason ?? 'stop' }],
      usage: CHAT_USAGE,
      service_tier: 'default',
      system_fingerprint: FINGERPRINT,
      ...opts.extra,
    },
    null,
    2,
  );
}

export interface ChatStreamShape {
  pieces?: string[];
  model?: string;
  /** The usage chunk (empty `choices`) before [DONE], as with `stream_options.include_usage`. */
  includeUsage?: boolean;
}

/** The data payloads of one streamed completion, `[DONE]` last. */
export function chatStream(shape: ChatStreamShape = {}): string[] {
  const id = completionId();
  const model = shape.model ?? CHAT_MODEL;
  const includeUsage = shape.includeUsage ?? true;
  const chunk = (choices: unknown[], usage?: ChatUsage) =>
    JSON.stringify({ id, object: 'chat.completion.chunk', created: CREATED, model, service_tier: 'default', system_fingerprint: FINGERPRINT, choices, ...(includeUsage ? { usage: usage ?? null } : {}) });
  const out = [chunk([{ index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null }])];
  for (const text of shape.pieces ?? ['Hel', 'lo, wor', 'ld é😀 "q" \\ ', 'done.']) out.push(chunk([{ index: 0, delta: { content: text }, logprobs: null, finish_reason: null }]));
  out.push(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }]));
  if (includeUsage) out.push(chunk([], CHAT_USAGE));
  out.push(DONE);
  return out;
}

/** Frames of a chat stream: `data: <payload>\n\n`, the first after `firstGapMs`, the others `gapMs` apart. */
export function chatFrames(payloads: string[], opts: { gapMs?: number; firstGapMs?: number } = {}): SseFrame[] {
  return payloads.map((p, i) => ({ gapMs: i === 0 ? (opts.firstGapMs ?? 0) : (opts.gapMs ?? 0), data: `data: ${p}\n\n` }));
}

/** What each status carries: error.type and error.code, as the API sends them. */
export const CHAT_ERRORS: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: 'invalid_request_error', code: null, message: "Invalid value for 'temperature': expected a number between 0 and 2." },
  401: { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided: gwc-bad-***. You can find your API key at https://platform.openai.com/account/api-keys.' },
  403: { type: 'request_forbidden', code: 'unsupported_country_region_territory', message: 'Country, region, or territory not supported' },
  404: { type: 'invalid_request_error', code: 'model_not_found', message: 'The model `gwc-unknown-model` does not exist or you do not have access to it.' },
  429: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.' },
  500: { type: 'server_error', code: null, message: 'The server had an error while processing your request. Sorry about that!' },
  503: { type: 'server_error', code: null, message: 'The engine is currently overloaded, please try again later.' },
};

/** A chat error body `{"error": {"message", "type", "param", "code"}}`, indented by four as the API does. */
export function chatError(status: number, opts: { message?: string } = {}): string {
  const e = CHAT_ERRORS[status] ?? { type: 'server_error', code: null, message: `gw-conformance upstream: scripted ${status}` };
  return JSON.stringify({ error: { message: opts.message ?? e.message, type: e.type, param: null, code: e.code } }, null, 4);
}

export const chatJsonReply = (body: string, status = 200): JsonReply => ({ kind: 'json', protocol: 'chat', status, headers: CHAT_JSON_HEADERS, body });
export const chatSseReply = (frames: SseFrame[]): SseReply => ({ kind: 'sse', protocol: 'chat', status: 200, headers: CHAT_SSE_HEADERS, frames });
