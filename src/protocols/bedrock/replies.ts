// Realistic Bedrock InvokeModel bodies and headers for the recording upstream, shaped like the
// service's: a JSON answer is the messages-protocol message, a streamed answer is AWS
// event-stream framing whose chunks each carry one messages-protocol event (the last,
// message_stop, with Bedrock's invocation metrics), and an error is a status with its type in
// `x-amzn-errortype` and a body `{"message": ...}`. The binary framing itself is
// src/core/framing.ts's: a frame text here is the event JSON a chunk carries.
import { EVENTSTREAM_CONTENT_TYPE, exceptionText } from '../../core/framing.js';
import type { HeaderList, JsonReply, SseFrame, SseReply } from '../../upstream/scenario.js';
import { messageStream, STREAM_USAGE_DELTA, STREAM_USAGE_START } from '../messages/index.js';

/** A cross-region inference profile id, as Claude Code names its model on Bedrock. */
export const BEDROCK_MODEL = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
/** The `anthropic_version` a Bedrock body carries. */
export const BEDROCK_VERSION = 'bedrock-2023-05-31';
/** The model an answer names (Bedrock answers with the Anthropic model id). */
export const BEDROCK_ANSWER_MODEL = 'claude-sonnet-4-5-20250929';

const REQUEST_ID = '6c1e2f3a-9b7d-4c21-8e5f-0a1b2c3d4e5f';

export const BEDROCK_JSON_HEADERS: HeaderList = [
  ['content-type', 'application/json'],
  ['x-amzn-requestid', REQUEST_ID],
  ['x-amzn-bedrock-invocation-latency', '812'],
  ['x-amzn-bedrock-input-token-count', '12'],
  ['x-amzn-bedrock-output-token-count', '9'],
];
export const BEDROCK_STREAM_HEADERS: HeaderList = [
  ['content-type', EVENTSTREAM_CONTENT_TYPE],
  ['x-amzn-requestid', REQUEST_ID],
  ['x-amzn-bedrock-content-type', 'application/json'],
];

/** What each status is called in `x-amzn-errortype`, and the service's words for it. */
export const BEDROCK_ERRORS: Record<number, { type: string; message: string }> = {
  400: { type: 'ValidationException', message: 'Malformed input request: #: extraneous key [gwc_unknown] is not permitted, please reformat your input and try again.' },
  403: { type: 'AccessDeniedException', message: "You don't have access to the model with the specified model ID." },
  404: { type: 'ResourceNotFoundException', message: 'The provided model identifier is invalid.' },
  408: { type: 'ModelTimeoutException', message: 'Model has timed out in processing the request. Try your request again.' },
  424: { type: 'ModelErrorException', message: 'The model returned an error. Try your request again.' },
  429: { type: 'ThrottlingException', message: 'Too many requests, please wait before trying again.' },
  500: { type: 'InternalServerException', message: 'The server encountered an internal error while processing the request.' },
  503: { type: 'ServiceUnavailableException', message: 'Bedrock is unable to process your request.' },
};

/** The `x-amzn-errortype` value of a status, as the service writes it. */
export function bedrockErrorType(status: number): string {
  const type = BEDROCK_ERRORS[status]?.type ?? (status >= 500 ? 'InternalServerException' : 'ValidationException');
  return `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`;
}

/** An error body `{"message": ...}`. */
export function bedrockErrorBody(status: number, message?: string): string {
  return JSON.stringify({ message: message ?? BEDROCK_ERRORS[status]?.message ?? `gw-conformance upstream: scripted ${status}` });
}

/** An error reply: the status, `x-amzn-errortype`, the JSON message. */
export function bedrockErrorReply(status: number, message?: string): JsonReply {
  return { kind: 'json', protocol: 'bedrock', status, headers: [['content-type', 'application/json'], ['x-amzn-requestid', REQUEST_ID], ['x-amzn-errortype', bedrockErrorType(status)]], body: bedrockErrorBody(status, message) };
}

/** The invocation metrics Bedrock adds to the stream's message_stop event. */
export function invocationMetrics(input = STREAM_USAGE_START.input_tokens, output = STREAM_USAGE_DELTA.output_tokens) {
  return { 'amazon-bedrock-invocationMetrics': { inputTokenCount: input, outputTokenCount: output, invocationLatency: 1204, firstByteLatency: 388 } };
}

/** The event JSONs of one realistic streamed answer (messages events, message_stop with the metrics). */
export function bedrockStream(shape: { textDeltas?: number; full?: boolean; model?: string } = {}): string[] {
  return messageStream({ full: false, model: BEDROCK_ANSWER_MODEL, ...shape }).map((e) => (e.event === 'message_stop' ? JSON.stringify({ type: 'message_stop', ...invocationMetrics() }) : e.data));
}

/** A mid-stream exception's frame text (`:message-type` exception). */
export const bedrockException = (type: string, message: string) => exceptionText(type, message);

/** Frames of a Bedrock stream, `gapMs` apart (the first after `firstGapMs`): each one event-stream message. */
export function bedrockFrames(texts: string[], opts: { gapMs?: number; firstGapMs?: number } = {}): SseFrame[] {
  return texts.map((data, i) => ({ gapMs: i === 0 ? (opts.firstGapMs ?? 0) : (opts.gapMs ?? 0), data }));
}

export const bedrockJsonReply = (body: string, status = 200): JsonReply => ({ kind: 'json', protocol: 'bedrock', status, headers: BEDROCK_JSON_HEADERS, body });
export const bedrockStreamReply = (frames: SseFrame[]): SseReply => ({ kind: 'sse', protocol: 'bedrock', framing: 'aws-eventstream', status: 200, headers: BEDROCK_STREAM_HEADERS, frames });
