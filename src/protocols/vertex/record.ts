// Anthropic models on Vertex AI (rawPredict) as one record: the model and the account are in
// the path (`/v1/projects/{project}/locations/{region}/publishers/anthropic/models/{model}:rawPredict`,
// `:streamRawPredict` to stream, `count-tokens:rawPredict` to count), the body is a messages
// request with `anthropic_version` and without `model` (the count's body keeps it), the
// credential a Google access token as a bearer, and `anthropic-version` goes as a header too
// (as @anthropic-ai/vertex-sdk sends it). The replies are the messages protocol's codec
// (messages.ts) with Google's headers; an error may also be Google's own shape, read back too.
import { VERTEX_DEFAULTS, VERTEX_JSON_HEADERS, VERTEX_MODEL, VERTEX_SSE_HEADERS, VERTEX_VERSION } from './replies.js';
import { MESSAGES, messagesHeaders } from '../messages/index.js';
import { decodedPath, obj, parseJson, str } from '../read.js';
import type { ProtocolRecord, ReplyCodec, RequestMeaning } from '../record.js';

export { VERTEX_VERSION };

const COUNT_MODEL = 'count-tokens';

/** The publisher's models under a project and region (the defaults unless given). */
function modelsBase(at: { project: string; region: string } = VERTEX_DEFAULTS): string {
  return `/v1/projects/${at.project}/locations/${at.region}/publishers/anthropic/models`;
}

/** `POST .../models/{model}:rawPredict`, or `:streamRawPredict` to stream. */
export function vertexPath(model = VERTEX_MODEL, stream = false, at?: { project: string; region: string }): string {
  return `${modelsBase(at)}/${model}:${stream ? 'streamRawPredict' : 'rawPredict'}`;
}

/** `POST .../models/count-tokens:rawPredict`: the model is in the body. */
export const vertexCountPath = (at?: { project: string; region: string }) => `${modelsBase(at)}/${COUNT_MODEL}:rawPredict`;

const ROUTE = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/anthropic\/models\/([^/:]+):(rawPredict|streamRawPredict)$/;

/** A messages-protocol error, or the one Google's front end writes itself (`error.status` a word). */
function readError(body: string, status: number) {
  const own = MESSAGES.replies.readError(body, status);
  if (own) return own;
  const e = obj(obj(parseJson(body)).error);
  return typeof e.message === 'string' && typeof e.status === 'string' ? { status, message: e.message } : null;
}

const replies: ReplyCodec = { ...MESSAGES.replies, jsonHeaders: VERTEX_JSON_HEADERS, sseHeaders: VERTEX_SSE_HEADERS, readError };

function readRequest(path: string, body: string): RequestMeaning | null {
  const m = ROUTE.exec(decodedPath(path));
  const read = MESSAGES.readRequest(path, body);
  if (!m || !read) return null;
  const model = m[3] === COUNT_MODEL ? str(obj(parseJson(body)).model) : m[3];
  return { ...read, model, stream: m[4] === 'streamRawPredict' || read.stream };
}

export const VERTEX: ProtocolRecord = {
  name: 'vertex',
  title: 'Vertex AI rawPredict (Anthropic)',
  defaultCredential: 'bearer',
  defaultModel: VERTEX_MODEL,
  modelIn: 'path',
  // The messages protocol's answers under Vertex's paths: the same features.
  features: MESSAGES.features,
  errorsNameTheAccount: true,
  service: { modelEnv: 'GWC_VERTEX_MODEL', optional: true },
  paths: { generate: (m) => vertexPath(m), stream: (m) => vertexPath(m, true), count: () => vertexCountPath(), models: null, rpc: null },
  routeOf(method, path) {
    const m = method === 'POST' ? ROUTE.exec(decodedPath(path)) : null;
    if (!m) return null;
    if (m[3] === COUNT_MODEL) return m[4] === 'rawPredict' ? 'count' : null;
    return m[4] === 'rawPredict' ? 'generate' : 'stream';
  },
  minimalRequest(o) {
    const body = JSON.stringify({ anthropic_version: VERTEX_VERSION, max_tokens: o.maxTokens ?? 1024, messages: [{ role: 'user', content: o.text }], ...(o.stream ? { stream: true } : {}) });
    return { method: 'POST', path: vertexPath(o.model ?? VERTEX.defaultModel, o.stream), auth: VERTEX.defaultCredential, headers: messagesHeaders(), body };
  },
  readRequest,
  replies,
  placeholders: {
    defaults: VERTEX_DEFAULTS,
    fill(path, values) {
      const from = modelsBase();
      const to = modelsBase({ project: values.project ?? VERTEX_DEFAULTS.project, region: values.region ?? VERTEX_DEFAULTS.region });
      return path.startsWith(`${from}/`) ? to + path.slice(from.length) : path;
    },
  },
};
