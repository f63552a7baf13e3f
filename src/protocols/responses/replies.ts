// Realistic Responses API (OpenAI, POST /v1/responses) bodies for the recording upstream, shaped
// like the real API's (openai-node's resources/responses types): the response object with
// message and function_call output items and usage with its token details, and a stream of
// named SSE events (`event:` line, JSON data carrying `type` and an increasing
// `sequence_number`) from response.created to response.completed, or response.failed carrying
// the response's error. Errors are OpenAI's `{"error": {"message", "type", "param", "code"}}`.
import type { HeaderList, JsonReply, SseFrame, SseReply } from '../../upstream/scenario.js';

export const RESPONSES_PATH = '/v1/responses';
export const RESPONSES_COUNT_PATH = '/v1/responses/input_tokens';
export const RESPONSES_MODEL = 'gpt-4.1-mini-2025-04-14';
export const RESPONSES_CREATED = 1730000000;

export const RESPONSES_JSON_HEADERS: HeaderList = [
  ['content-type', 'application/json'],
  ['openai-processing-ms', '402'],
  ['openai-version', '2020-10-01'],
  ['x-request-id', 'req_gwc0resp0000000000000000000001'],
];
export const RESPONSES_SSE_HEADERS: HeaderList = [
  ['content-type', 'text/event-stream; charset=utf-8'],
  ['openai-processing-ms', '95'],
  ['openai-version', '2020-10-01'],
  ['x-request-id', 'req_gwc0resp0000000000000000000002'],
];

let counter = 0;
/** A fresh id with the API's prefix: `resp`, `msg`, `fc`, `call`. */
export function responsesId(prefix: string): string {
  counter++;
  return `${prefix}_gwc${String(counter).padStart(8, '0')}${'0'.repeat(32)}`;
}

export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

/** Usage with a cached share of the input and reasoning tokens in the output, as a reasoning model's answer has. */
export const RESPONSES_USAGE: ResponsesUsage = { input_tokens: 2318, input_tokens_details: { cached_tokens: 1920 }, output_tokens: 412, output_tokens_details: { reasoning_tokens: 256 }, total_tokens: 2730 };

/** The response object's fields around `output` and `usage`, as the API echoes the request's settings. */
export function responseObject(o: { id: string; model: string; status: string; output: unknown[]; usage: ResponsesUsage | null; error?: { code: string; message: string } | null; incomplete?: string | null; previous?: string | null }): Record<string, unknown> {
  return {
    id: o.id,
    object: 'response',
    created_at: RESPONSES_CREATED,
    status: o.status,
    background: false,
    error: o.error ?? null,
    incomplete_details: o.incomplete ? { reason: o.incomplete } : null,
    instructions: null,
    max_output_tokens: null,
    model: o.model,
    output: o.output,
    parallel_tool_calls: true,
    previous_response_id: o.previous ?? null,
    reasoning: { effort: null, summary: null },
    service_tier: 'default',
    store: true,
    temperature: 1,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage: o.usage,
    user: null,
    metadata: {},
  };
}

export const messageItem = (id: string, text: string, status = 'completed') => ({ id, type: 'message', status, content: text === '' && status !== 'completed' ? [] : [textPart(text)], role: 'assistant' });
export const textPart = (text: string) => ({ type: 'output_text', annotations: [], logprobs: [], text });
export const functionCallItem = (id: string, callId: string, name: string, args: string, status = 'completed') => ({ id, type: 'function_call', status, arguments: args, call_id: callId, name });

/** A whole response: one message with `text`, then a function call when `tool` is given. */
export function responsesAnswer(opts: { text?: string; model?: string; tool?: { name: string; args: string }; usage?: ResponsesUsage; previous?: string } = {}): string {
  const output: unknown[] = [messageItem(responsesId('msg'), opts.text ?? 'Hello')];
  if (opts.tool) output.push(functionCallItem(responsesId('fc'), responsesId('call'), opts.tool.name, opts.tool.args));
  return JSON.stringify(responseObject({ id: responsesId('resp'), model: opts.model ?? RESPONSES_MODEL, status: 'completed', output, usage: opts.usage ?? RESPONSES_USAGE, previous: opts.previous }), null, 2);
}

/** One named event's frame: `event: <type>` and its JSON data. */
export const eventFrame = (data: Record<string, unknown>) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;

export interface ResponsesStreamShape {
  pieces?: string[];
  /** A function call after the message, its arguments in these deltas. */
  toolArgs?: string[];
  /** Ends with response.failed (this error) after the text deltas instead of finishing the message. */
  failWith?: { code: string; message: string };
  model?: string;
}

/** The frames' texts of one streamed response, every lifecycle event included, sequence_number from 0. */
export function responsesStream(shape: ResponsesStreamShape = {}): string[] {
  const model = shape.model ?? RESPONSES_MODEL;
  const id = responsesId('resp');
  const out: string[] = [];
  const ev = (type: string, fields: Record<string, unknown>) => out.push(eventFrame({ type, sequence_number: out.length, ...fields }));
  const pending = (status: string, output: unknown[], usage: ResponsesUsage | null, error?: { code: string; message: string }) => responseObject({ id, model, status, output, usage, error });
  ev('response.created', { response: pending('in_progress', [], null) });
  ev('response.in_progress', { response: pending('in_progress', [], null) });
  const msg = responsesId('msg');
  const pieces = shape.pieces ?? ['Hel', 'lo, wor', 'ld é😀 "q" \\ ', 'done.'];
  const text = pieces.join('');
  ev('response.output_item.added', { output_index: 0, item: messageItem(msg, '', 'in_progress') });
  ev('response.content_part.added', { item_id: msg, output_index: 0, content_index: 0, part: textPart('') });
  for (const delta of pieces) ev('response.output_text.delta', { item_id: msg, output_index: 0, content_index: 0, delta, logprobs: [] });
  if (shape.failWith) {
    ev('response.failed', { response: pending('failed', [messageItem(msg, text, 'incomplete')], null, shape.failWith) });
    return out;
  }
  ev('response.output_text.done', { item_id: msg, output_index: 0, content_index: 0, text, logprobs: [] });
  ev('response.content_part.done', { item_id: msg, output_index: 0, content_index: 0, part: textPart(text) });
  ev('response.output_item.done', { output_index: 0, item: messageItem(msg, text) });
  const output: unknown[] = [messageItem(msg, text)];
  if (shape.toolArgs) {
    const fc = responsesId('fc');
    const call = responsesId('call');
    const args = shape.toolArgs.join('');
    ev('response.output_item.added', { output_index: 1, item: functionCallItem(fc, call, 'get_weather', '', 'in_progress') });
    for (const delta of shape.toolArgs) ev('response.function_call_arguments.delta', { item_id: fc, output_index: 1, delta });
    ev('response.function_call_arguments.done', { item_id: fc, output_index: 1, name: 'get_weather', arguments: args });
    ev('response.output_item.done', { output_index: 1, item: functionCallItem(fc, call, 'get_weather', args) });
    output.push(functionCallItem(fc, call, 'get_weather', args));
  }
  ev('response.completed', { response: pending('completed', output, RESPONSES_USAGE) });
  return out;
}

/** The `type` of an event frame's data, or what the frame is when it has none. */
export function eventType(frame: string): string {
  const data = /^data: ?(.*)$/m.exec(frame)?.[1];
  try {
    const v = JSON.parse(data ?? '') as { type?: unknown };
    return typeof v.type === 'string' ? v.type : '(data without type)';
  } catch {
    return data === undefined ? '(no data line)' : '(data not JSON)';
  }
}

export const responsesJsonReply = (body: string, status = 200): JsonReply => ({ kind: 'json', protocol: 'responses', status, headers: RESPONSES_JSON_HEADERS, body });
export const responsesSseReply = (frames: SseFrame[]): SseReply => ({ kind: 'sse', protocol: 'responses', status: 200, headers: RESPONSES_SSE_HEADERS, frames });
