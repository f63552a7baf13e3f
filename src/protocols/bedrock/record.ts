// The Bedrock InvokeModel protocol (Anthropic models on Amazon Bedrock, as Claude Code sends it
// with CLAUDE_CODE_USE_BEDROCK=1) as one record: the model in the path (`/model/{id}/invoke`,
// `/invoke-with-response-stream`, `/count-tokens`; its ":" literal as @anthropic-ai/bedrock-sdk
// sends it, or %3A as the AWS SDK does), a messages-protocol body with `anthropic_version`
// and no `model`, messages-protocol answers, errors named in `x-amzn-errortype`, and a stream
// in AWS event-stream framing whose frame texts are messages-protocol event JSONs
// (src/core/framing.ts wraps them). The realistic headers and bodies are
// replies.ts's beside it.
import { exceptionOf, exceptionText } from '../../core/framing.js';
import { BEDROCK_JSON_HEADERS, BEDROCK_MODEL, BEDROCK_STREAM_HEADERS, BEDROCK_VERSION, bedrockErrorBody, bedrockErrorType, invocationMetrics } from './replies.js';
import { MESSAGES } from '../messages/index.js';
import { obj, parseJson, str } from '../read.js';
import type { ProtocolRecord, ReplyCodec, RequestMeaning, StreamStep, StreamWriter } from '../record.js';

/** The three routes, the model id as given (encode its ":" as %3A for the AWS SDK's form). */
export function bedrockPath(model = BEDROCK_MODEL, route: 'invoke' | 'invoke-with-response-stream' | 'count-tokens' = 'invoke'): string {
  return `/model/${model}/${route}`;
}

/** The AWS SDK's form of a model id in a path: every reserved character percent-encoded (the ":" as %3A). */
export const awsSdkModel = (model: string) => encodeURIComponent(model);

const ROUTE = /^\/model\/([^/?]+)\/(invoke|invoke-with-response-stream|count-tokens)$/;

/** The model id of a Bedrock path, decoded (`%3A` read as ":"); null when the path is not one. */
export function bedrockModelOf(path: string): string | null {
  const m = ROUTE.exec(path.split('?')[0]);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return m[1];
  }
}

/** The data line of a messages-protocol SSE frame: the event JSON a Bedrock chunk carries. */
const dataOf = (frame: string) => /^data: ?(.*)$/m.exec(frame)?.[1] ?? null;

/** The messages protocol's events, each written as its bare JSON; an error is an exception message. */
class BedrockWriter implements StreamWriter {
  private inner = MESSAGES.replies.streamWriter();
  private usage = { input: 0, output: 0 };
  write(s: StreamStep): string[] {
    if (s.t === 'error') return [exceptionText('internalServerException', s.message)];
    if (s.t === 'start' && s.usage) this.usage.input = s.usage.input;
    if ((s.t === 'stop' || s.t === 'usage') && s.usage) this.usage.output = s.usage.output;
    return this.inner.write(s).flatMap((f) => {
      const data = dataOf(f);
      if (data === null) return [];
      return /^\{"type":"message_stop"/.test(data) ? [JSON.stringify({ ...(JSON.parse(data) as object), ...invocationMetrics(this.usage.input, this.usage.output) })] : [data];
    });
  }
}

const replies: ReplyCodec = {
  // An answer rendered from another protocol's: its type and a request id (the token-count headers would not match it).
  jsonHeaders: BEDROCK_JSON_HEADERS.filter(([k]) => k === 'content-type' || k === 'x-amzn-requestid'),
  sseHeaders: BEDROCK_STREAM_HEADERS,
  framing: 'aws-eventstream',
  answer: (a) => MESSAGES.replies.answer(a),
  readAnswer: (body) => MESSAGES.replies.readAnswer(body),
  streamWriter: () => new BedrockWriter(),
  streamReader() {
    const inner = MESSAGES.replies.streamReader();
    return {
      read(text) {
        const ex = exceptionOf(text);
        if (ex) return [{ t: 'error', message: str(obj(parseJson(ex.payload)).message) }];
        return inner.read(`data: ${text}\n\n`);
      },
    };
  },
  error: (e) => bedrockErrorBody(e.status, e.message),
  errorHeaders: (e) => [['x-amzn-errortype', bedrockErrorType(e.status)]],
  readError(body, status) {
    const v = obj(parseJson(body));
    return typeof v.message === 'string' && v.type === undefined && v.error === undefined ? { status, message: v.message } : null;
  },
  count: (n) => JSON.stringify({ inputTokens: n }),
  readCount(body) {
    const v = obj(parseJson(body));
    return typeof v.inputTokens === 'number' ? v.inputTokens : null;
  },
  // Bedrock's runtime has no model list (the control plane's ListFoundationModels is another service).
  models: () => JSON.stringify({ message: 'Bedrock runtime lists no models' }),
  readModels: () => null,
};

/** A request by meaning: the messages body (for a count, the body it wraps), the model from the path. */
function readRequest(path: string, body: string): RequestMeaning | null {
  const v = obj(parseJson(body));
  const wrapped = obj(obj(v.input).invokeModel).body;
  const inner = typeof wrapped === 'string' ? wrapped : body;
  const m = MESSAGES.readRequest(path, inner);
  if (!m) return null;
  return { ...m, model: bedrockModelOf(path) ?? '', stream: /\/invoke-with-response-stream(\?|$)/.test(path) };
}

export const BEDROCK: ProtocolRecord = {
  name: 'bedrock',
  title: 'Bedrock InvokeModel (Anthropic on AWS)',
  // A Bedrock API key (AWS_BEARER_TOKEN_BEDROCK) or a gateway's key, as a bearer token.
  defaultCredential: 'bearer',
  defaultModel: BEDROCK_MODEL,
  modelIn: 'path',
  features: ['tools', 'images', 'documents', 'thinking', 'cache-5m', 'context-1m', 'citations'],
  errorsNameTheAccount: true,
  service: { modelEnv: 'GWC_BEDROCK_MODEL', optional: true },
  paths: { generate: (m) => bedrockPath(m), stream: (m) => bedrockPath(m, 'invoke-with-response-stream'), count: (m) => bedrockPath(m, 'count-tokens'), models: null, rpc: null },
  routeOf(method, path) {
    const m = ROUTE.exec(path.split('?')[0]);
    if (!m || method !== 'POST') return null;
    return m[2] === 'invoke' ? 'generate' : m[2] === 'count-tokens' ? 'count' : 'stream';
  },
  minimalRequest(o) {
    const body = JSON.stringify({ anthropic_version: BEDROCK_VERSION, max_tokens: o.maxTokens ?? 1024, messages: [{ role: 'user', content: o.text }] });
    return { method: 'POST', path: bedrockPath(o.model ?? BEDROCK.defaultModel, o.stream ? 'invoke-with-response-stream' : 'invoke'), auth: BEDROCK.defaultCredential, headers: [['content-type', 'application/json']], body };
  },
  readRequest,
  replies,
};

