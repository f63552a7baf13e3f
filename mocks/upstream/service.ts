// A stand-in for the hosted service, for the service profile's own tests and
// for `gw-conformance mock --service`: one key for the three protocols, answers by path like
// the real APIs (no case tokens, nothing scripted per request), each protocol's own error shape
// for a missing or bad key, and one native model whose every answer is blocked (SVC-4).
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { LoopbackServer } from '../../src/core/server.js';
import { play } from './play.js';
import type { RecordedRequest } from '../../src/upstream/record.js';
import { RECORD_KEEP } from '../../src/upstream/record.js';
import { BoundedBody } from '../../src/client/bounded.js';
import { JSON_HEADERS, SSE_HEADERS, type HeaderList, type Reply } from '../../src/upstream/scenario.js';
import { errorBody, messageBody, frames, messageStream, modelListBody } from '../../src/protocols/messages/index.js';
import { blockedResponse, nativeBadKey, nativeGenerateOf, nativeError, nativeFrames, nativeJsonReply, nativeNoKey, nativeResponseValue, nativeSseReply, nativeStream } from '../../src/protocols/native/index.js';
import { chatCompletion, chatError, chatFrames, chatJsonReply, chatSseReply, chatStream } from '../../src/protocols/chat/index.js';
import { pairsFromRaw } from '../../src/client/headers.js';
import type { AuthStyle, Protocol } from '../../src/core/protocols.js';

/** The native model the emulator always blocks (finishReason SAFETY, no text). */
export const BLOCKED_NATIVE_MODEL = 'gemini-2.5-flash-gwc-blocked';

export interface ServiceOptions {
  /** The one service key every protocol accepts. */
  key: string;
  /** Native models whose every answer is blocked; BLOCKED_NATIVE_MODEL is always one. */
  blockedNativeModels?: string[];
  /** Makes `GET /v1/models` slow (to show SVC-3 failing). */
  modelListDelayMs?: number;
  /** Makes `GET /v1/models` redirect to https (to show SVC-3 failing). */
  modelListRedirect?: boolean;
}

export interface ServiceRequest {
  method: string;
  /** Path without its query (a `key` query is a credential). */
  path: string;
  protocol: Protocol | 'models' | 'other';
  /** Which credential came, never its value. */
  credential: AuthStyle;
  keyValid: boolean;
  status: number;
}

const json = (status: number, body: string, headers: HeaderList = JSON_HEADERS): Reply => ({ kind: 'json', status, headers, body });

function parse(body: Buffer): Record<string, unknown> | null {
  try {
    const v = JSON.parse(body.toString('utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

export class ServiceEmulator extends LoopbackServer {
  private seq = 0;
  readonly requests: ServiceRequest[] = [];
  constructor(private readonly opts: ServiceOptions) {
    super('service emulator');
  }

  protected handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const got = new BoundedBody(RECORD_KEEP);
    req.on('data', (c: Buffer) => got.push(c));
    req.on('end', () => {
      const raw = pairsFromRaw(req.rawHeaders);
      const rec: RecordedRequest = { seq: ++this.seq, method: req.method ?? '', url: req.url ?? '/', rawHeaders: raw, body: got.head(), bodyBytes: got.length, bodySha256: got.sha256(), bodyTruncated: got.truncated, receivedAt: performance.now(), receivedWall: new Date().toISOString(), sentAt: [] };
      const { reply, entry, delayMs } = this.route(req, rec);
      this.requests.push({ ...entry, status: reply.kind === 'json' || reply.kind === 'sse' ? reply.status : 0 });
      // A configured slowness of the model list (SVC-3's failing case), not synchronisation.
      if (delayMs) setTimeout(() => play(reply, rec, res), delayMs);
      else play(reply, rec, res);
    });
  }

  private route(req: http.IncomingMessage, rec: RecordedRequest): { reply: Reply; entry: Omit<ServiceRequest, 'status'>; delayMs?: number } {
    const u = new URL(rec.url, 'http://service.invalid');
    const path = u.pathname;
    const method = rec.method;
    const header = (n: string) => (req.headers[n] as string | undefined)?.trim();
    const bearer = /^Bearer\s+(.+)$/i.exec(header('authorization') ?? '')?.[1];
    const base = { method, path };

    if (method === 'HEAD' && path === '/') return { reply: json(200, ''), entry: { ...base, protocol: 'other', credential: 'none', keyValid: false } };

    // Messages protocol and the model list: Bearer or x-api-key.
    if (path === '/v1/messages' || path === '/v1/messages/count_tokens' || path === '/v1/models') {
      const protocol = path === '/v1/models' ? 'models' : 'messages';
      const given = bearer ?? header('x-api-key');
      const credential = bearer !== undefined ? 'bearer' : given !== undefined ? 'x-api-key' : 'none';
      const entry = { ...base, protocol, credential, keyValid: given === this.opts.key } as const;
      if (!given) return { reply: json(401, errorBody(401, 'x-api-key header is required')), entry };
      if (given !== this.opts.key) return { reply: json(401, errorBody(401, 'invalid x-api-key')), entry };
      if (protocol === 'models') {
        if (this.opts.modelListRedirect) return { reply: json(301, '', [['location', `https://service.invalid${rec.url}`]]), entry };
        return { reply: json(200, modelListBody()), entry, delayMs: this.opts.modelListDelayMs };
      }
      if (method !== 'POST') return { reply: json(405, errorBody(405, `method ${method} not allowed`)), entry };
      const body = parse(rec.body);
      if (path.endsWith('/count_tokens')) return { reply: json(200, JSON.stringify({ input_tokens: 14 })), entry };
      if (!body || typeof body.model !== 'string' || !Array.isArray(body.messages)) return { reply: json(400, errorBody(400, 'messages: Field required')), entry };
      if (body.stream === true) return { reply: { kind: 'sse', status: 200, headers: SSE_HEADERS, frames: frames(messageStream({ full: false, textDeltas: 3, model: body.model })) }, entry };
      return { reply: json(200, messageBody({ model: body.model })), entry };
    }

    // Native protocol: x-goog-api-key or ?key=; a bad key is 400 INVALID_ARGUMENT, as the real API answers.
    const nat = nativeGenerateOf(path);
    if (nat) {
      const queryKey = u.searchParams.get('key') ?? undefined;
      const given = header('x-goog-api-key') ?? queryKey;
      const credential = header('x-goog-api-key') !== undefined ? 'x-goog-api-key' : queryKey !== undefined ? 'key-query' : 'none';
      const entry = { ...base, protocol: 'native', credential, keyValid: given === this.opts.key } as const;
      if (!given) return { reply: nativeJsonReply(nativeNoKey(), 403), entry };
      if (given !== this.opts.key) return { reply: nativeJsonReply(nativeBadKey(), 400), entry };
      const body = parse(rec.body);
      if (!body || !Array.isArray(body.contents)) {
        const unknown = body ? Object.keys(body).find((k) => k !== 'contents') : undefined;
        return { reply: nativeJsonReply(nativeError(400, { message: unknown ? `Invalid JSON payload received. Unknown name "${unknown}": Cannot find field.` : '* GenerateContentRequest.contents: contents is not specified' }), 400), entry };
      }
      const model = nat.model;
      const blocked = model === BLOCKED_NATIVE_MODEL || (this.opts.blockedNativeModels ?? []).includes(model);
      if (!nat.stream) return { reply: nativeJsonReply(blocked ? blockedResponse({ model }) : JSON.stringify(nativeResponseValue({ model, text: 'Hello from the service.' }), null, 2)), entry };
      const payloads = blocked ? nativeStream({ pieces: [], blockedWith: 'SAFETY', model }) : nativeStream({ model, pieces: ['Hello', ' from the', ' service.'] });
      if (u.searchParams.get('alt') === 'sse') return { reply: nativeSseReply(nativeFrames(payloads)), entry };
      // Without alt=sse the endpoint streams one JSON array.
      return { reply: nativeJsonReply(`[${payloads.map((p) => JSON.stringify(JSON.parse(p), null, 2)).join(',\r\n')}]`), entry };
    }

    // Chat-completions protocol: Bearer only; a bad key is 401 invalid_api_key, as the real API answers.
    if (path === '/v1/chat/completions') {
      const entry = { ...base, protocol: 'chat', credential: bearer !== undefined ? 'bearer' : 'none', keyValid: bearer === this.opts.key } as const;
      if (!bearer) return { reply: chatJsonReply(chatError(401, { message: "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)." }), 401), entry };
      if (bearer !== this.opts.key) return { reply: chatJsonReply(chatError(401, { message: 'Incorrect API key provided. You can find your API key in the service console.' }), 401), entry };
      const body = parse(rec.body);
      if (!body || !Array.isArray(body.messages)) return { reply: chatJsonReply(chatError(400, { message: "Missing required parameter: 'messages'." }), 400), entry };
      const model = typeof body.model === 'string' ? body.model : undefined;
      if (body.stream === true) {
        const includeUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
        return { reply: chatSseReply(chatFrames(chatStream({ model, includeUsage, pieces: ['Hello', ' from the', ' service.'] }))), entry };
      }
      return { reply: chatJsonReply(chatCompletion({ model, content: 'Hello from the service.' })), entry };
    }

    const entry = { ...base, protocol: 'other', credential: 'none', keyValid: false } as const;
    if (path.startsWith('/v1beta/')) return { reply: nativeJsonReply(nativeError(404, { message: `The requested URL ${path} was not found on this server.` }), 404), entry };
    return { reply: json(404, errorBody(404, `no route for ${method} ${path}`)), entry };
  }
}
