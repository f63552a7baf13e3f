// Realistic native content-generation (Gemini) bodies for the recording upstream and the
// service emulator, shaped like the real API's. JSON answers are pretty-printed with two spaces, as the
// API writes them; stream frames are `data:` lines of compact JSON (`": "` after a key, `","`
// between items) ending in `\r\n\r\n`, with no `event:` line and no `[DONE]`.
import type { HeaderList, JsonReply, SseFrame, SseReply } from '../../upstream/scenario.js';

/** The model the native protocol's requests and answers name by default. */
export const NATIVE_MODEL = 'gemini-2.5-flash';

/** The headers Google's front end puts on a JSON answer beside its content type (Gemini's and Vertex AI's alike). */
export const GOOGLE_FRONT_END_HEADERS: HeaderList = [
  ['vary', 'Origin'],
  ['vary', 'X-Origin'],
  ['vary', 'Referer'],
  ['x-content-type-options', 'nosniff'],
];
/** Headers of a real generateContent answer (the ones a client may read). */
export const NATIVE_JSON_HEADERS: HeaderList = [['content-type', 'application/json; charset=UTF-8'], ...GOOGLE_FRONT_END_HEADERS];
export const NATIVE_SSE_HEADERS: HeaderList = [
  ['content-type', 'text/event-stream'],
  ['x-content-type-options', 'nosniff'],
];

export const FINISH_REASONS = ['STOP', 'MAX_TOKENS', 'SAFETY', 'RECITATION', 'OTHER', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII'] as const;

const SAFETY_RATINGS = [
  { category: 'HARM_CATEGORY_HATE_SPEECH', probability: 'NEGLIGIBLE' },
  { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true },
  { category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' },
  { category: 'HARM_CATEGORY_SEXUALLY_EXPLICIT', probability: 'NEGLIGIBLE' },
];

let counter = 0;
export function responseId(): string {
  counter++;
  return `gwcNat${String(counter).padStart(8, '0')}AbCdEf`;
}

export interface NativeUsage {
  promptTokenCount: number;
  candidatesTokenCount?: number;
  totalTokenCount: number;
  thoughtsTokenCount?: number;
  [extra: string]: unknown;
}

const usage = (prompt: number, out: number): NativeUsage => ({
  promptTokenCount: prompt,
  candidatesTokenCount: out,
  totalTokenCount: prompt + out,
  promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }],
});

/** A generateContent answer with text; `extra` fields are appended after the usual ones. */
export function nativeResponseValue(opts: { text?: string; model?: string; finishReason?: string; extra?: Record<string, unknown> } = {}): Record<string, unknown> {
  return {
    candidates: [{ content: { parts: [{ text: opts.text ?? 'Hello' }], role: 'model' }, finishReason: opts.finishReason ?? 'STOP', avgLogprobs: -0.0412, index: 0 }],
    usageMetadata: usage(5, 1),
    modelVersion: opts.model ?? NATIVE_MODEL,
    responseId: responseId(),
    ...opts.extra,
  };
}

export function nativeResponse(opts: Parameters<typeof nativeResponseValue>[0] = {}): string {
  return JSON.stringify(nativeResponseValue(opts), null, 2);
}

/** An answer whose only candidate was blocked: a finish reason, safety ratings, no content. */
export function blockedResponse(opts: { finishReason?: string; model?: string } = {}): string {
  return JSON.stringify(
    {
      candidates: [{ finishReason: opts.finishReason ?? 'SAFETY', index: 0, safetyRatings: SAFETY_RATINGS }],
      usageMetadata: { promptTokenCount: 9, totalTokenCount: 9, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 9 }] },
      modelVersion: opts.model ?? NATIVE_MODEL,
      responseId: responseId(),
    },
    null,
    2,
  );
}

/** A prompt refused before generation: no candidates, `promptFeedback.blockReason`. */
export function promptBlockedResponse(opts: { blockReason?: string; model?: string } = {}): string {
  return JSON.stringify(
    {
      promptFeedback: { blockReason: opts.blockReason ?? 'SAFETY', safetyRatings: SAFETY_RATINGS },
      usageMetadata: { promptTokenCount: 9, totalTokenCount: 9, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 9 }] },
      modelVersion: opts.model ?? NATIVE_MODEL,
      responseId: responseId(),
    },
    null,
    2,
  );
}

/** JSON the way the streaming endpoint writes it: `": "` after keys, no space after commas. */
export function googleCompact(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(googleCompact).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${googleCompact(x)}`).join(',')}}`;
  return JSON.stringify(v);
}

export interface NativeStreamShape {
  /** Text pieces, one frame each. */
  pieces?: string[];
  model?: string;
  /** The last frame blocks the answer: a candidate with this finish reason and no content. */
  blockedWith?: string;
}

/** The data payloads of one streamed answer (streamGenerateContent?alt=sse). */
export function nativeStream(shape: NativeStreamShape = {}): string[] {
  const pieces = shape.pieces ?? ['Hel', 'lo, wor', 'ld é😀 "q" \\ ', 'done.'];
  const id = responseId();
  const model = shape.model ?? NATIVE_MODEL;
  const out: string[] = [];
  let n = 0;
  pieces.forEach((text, i) => {
    n += 1;
    const last = i === pieces.length - 1 && !shape.blockedWith;
    const cand: Record<string, unknown> = { content: { parts: [{ text }], role: 'model' } };
    if (last) cand.finishReason = 'STOP';
    cand.index = 0;
    out.push(googleCompact({ candidates: [cand], usageMetadata: last ? usage(8, n) : { promptTokenCount: 8, totalTokenCount: 8 }, modelVersion: model, responseId: id }));
  });
  if (shape.blockedWith)
    out.push(googleCompact({ candidates: [{ finishReason: shape.blockedWith, index: 0, safetyRatings: SAFETY_RATINGS }], usageMetadata: usage(8, n), modelVersion: model, responseId: id }));
  return out;
}

/** Frames of a native stream: `data: <json>\r\n\r\n`, the first after `firstGapMs`, the others `gapMs` apart. */
export function nativeFrames(payloads: string[], opts: { gapMs?: number; firstGapMs?: number } = {}): SseFrame[] {
  return payloads.map((p, i) => ({ gapMs: i === 0 ? (opts.firstGapMs ?? 0) : (opts.gapMs ?? 0), data: `data: ${p}\r\n\r\n` }));
}

/** google.rpc status names by HTTP status. */
export const NATIVE_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

const DEFAULT_MESSAGES: Record<number, string> = {
  400: 'Invalid JSON payload received. Unknown name "gwc": Cannot find field.',
  403: 'Permission denied: Consumer does not have access to this model.',
  404: 'models/gwc-unknown-model is not found for API version v1beta, or is not supported for generateContent.',
  429: 'You exceeded your current quota, please check your plan and billing details.',
  500: 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
  503: 'The model is overloaded. Please try again later.',
  504: 'Deadline expired before operation could complete.',
};

/** A native error body: `{"error": {"code", "message", "status", "details"?}}`, pretty-printed. */
export function nativeError(status: number, opts: { message?: string; details?: unknown[] } = {}): string {
  const error: Record<string, unknown> = { code: status, message: opts.message ?? DEFAULT_MESSAGES[status] ?? `gw-conformance upstream: scripted ${status}`, status: NATIVE_STATUS[status] ?? 'UNKNOWN' };
  if (opts.details) error.details = opts.details;
  else if (status === 429)
    error.details = [
      { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests', quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier' }] },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '17s' },
    ];
  return JSON.stringify({ error }, null, 2);
}

/** What the API answers to a key it does not know: 400 INVALID_ARGUMENT, not 401, as the real API does. */
export function nativeBadKey(): string {
  return nativeError(400, {
    message: 'API key not valid. Please pass a valid API key.',
    details: [
      { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } },
      { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message: 'API key not valid. Please pass a valid API key.' },
    ],
  });
}

/** What the API answers to a request with no key at all. */
export function nativeNoKey(): string {
  return nativeError(403, {
    message: "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
  });
}

/** Reply scenarios (plain data) for the recording upstream. */
export const nativeJsonReply = (body: string, status = 200): JsonReply => ({ kind: 'json', protocol: 'native', status, headers: NATIVE_JSON_HEADERS, body });
export const nativeSseReply = (frames: SseFrame[]): SseReply => ({ kind: 'sse', protocol: 'native', status: 200, headers: NATIVE_SSE_HEADERS, frames });

/** The text of an answer (all candidates' parts), and each candidate's finish reason; for checks and the service profile. */
export function nativeAnswer(value: unknown): { text: string; finishReasons: string[]; blockReason: string | null; candidates: number } {
  const v = (value ?? {}) as { candidates?: Array<{ content?: { parts?: Array<{ text?: unknown; thought?: unknown }> }; finishReason?: unknown }>; promptFeedback?: { blockReason?: unknown } };
  const cands = Array.isArray(v.candidates) ? v.candidates : [];
  const text = cands
    .flatMap((c) => (Array.isArray(c?.content?.parts) ? c.content.parts : []))
    .filter((p) => typeof p?.text === 'string' && p.thought !== true)
    .map((p) => p.text as string)
    .join('');
  const finishReasons = cands.map((c) => c?.finishReason).filter((r): r is string => typeof r === 'string');
  const br = v.promptFeedback?.blockReason;
  return { text, finishReasons, blockReason: typeof br === 'string' ? br : null, candidates: cands.length };
}

/** The `:countTokens` answer: the total and its split by modality. */
export function nativeCountTokensBody(totalTokens: number): string {
  return JSON.stringify({ totalTokens, promptTokensDetails: [{ modality: 'TEXT', tokenCount: totalTokens }] }, null, 2);
}
