// Realistic bodies and headers of Anthropic models on Vertex AI (rawPredict, streamRawPredict,
// count-tokens:rawPredict) for the recording upstream. An answer, a stream and a model's error
// are the messages protocol's (../messages/replies.ts, streams.ts); what is Vertex's
// own: the request's `anthropic_version`, the `msg_vrtx_` ids, Google's response headers, and
// the errors Google's front end answers itself (`{"error": {"code", "message", "status"}}`).
import type { HeaderList, JsonReply, SseFrame, SseReply } from '../../upstream/scenario.js';
import { messageBody } from '../messages/index.js';
import { GOOGLE_FRONT_END_HEADERS, NATIVE_STATUS } from '../native/index.js';

/** The `anthropic_version` a Vertex request body carries (what @anthropic-ai/vertex-sdk sets). */
export const VERTEX_VERSION = 'vertex-2023-10-16';
/** The model the vertex protocol's requests name: Vertex writes the date after an `@`. */
export const VERTEX_MODEL = 'claude-sonnet-4-5@20250929';
/** The project and region a path names unless the user aims the run elsewhere (--vertex-project, --vertex-region). */
export const VERTEX_DEFAULTS = { project: 'gwc-project', region: 'us-east5' } as const;

/** Headers of a rawPredict answer as Google's front end sends them. */
export const VERTEX_JSON_HEADERS: HeaderList = [['content-type', 'application/json'], ...GOOGLE_FRONT_END_HEADERS];
export const VERTEX_SSE_HEADERS: HeaderList = [
  ['content-type', 'text/event-stream; charset=utf-8'],
  ['cache-control', 'no-cache'],
  ['x-content-type-options', 'nosniff'],
];

let counter = 0;
/** A message id as Vertex writes it. */
export function vertexMessageId(): string {
  counter++;
  return `msg_vrtx_01gwc${String(counter).padStart(8, '0')}`;
}

/** A rawPredict answer: a messages-protocol message with a Vertex id. */
export function vertexMessageBody(opts: Parameters<typeof messageBody>[0] = {}): string {
  const v = JSON.parse(messageBody(opts)) as Record<string, unknown>;
  return JSON.stringify({ ...v, id: vertexMessageId() });
}

/** An error Google's front end answers before the model sees the request (unknown model, quota, permission), in Google's shape. */
export function vertexGatewayError(status: number, message?: string): string {
  const fallback: Record<number, string> = {
    403: "Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/projects/gwc-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929' (or it may not exist).",
    404: 'Publisher Model `projects/gwc-project/locations/us-east5/publishers/anthropic/models/claude-gwc-unknown@20250101` not found.',
    429: 'Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model with base model: anthropic-claude-sonnet-4-5. Please submit a quota increase request.',
  };
  const error = { code: status, message: message ?? fallback[status] ?? `gw-conformance upstream: scripted ${status}`, status: NATIVE_STATUS[status] ?? 'UNKNOWN' };
  return JSON.stringify({ error }, null, 2);
}

/** Reply scenarios (plain data) in the vertex protocol. */
export const vertexJsonReply = (body: string, status = 200): JsonReply => ({ kind: 'json', protocol: 'vertex', status, headers: VERTEX_JSON_HEADERS, body });
export const vertexSseReply = (frames: SseFrame[]): SseReply => ({ kind: 'sse', protocol: 'vertex', status: 200, headers: VERTEX_SSE_HEADERS, frames });
