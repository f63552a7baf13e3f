// Shared steps of the native (Gemini) and chat-completions checks: where each protocol's
// requests go, how they are sent through the gateway, and their evidence with every
// credential masked (the `?key=` query included).
import type { CheckContext, Evidence } from '../../src/core/check.js';
import type { AuthStyle } from '../../src/client/gateway.js';
import { readStream, type SseResult } from '../../src/client/sse.js';
import { maskHeaders, maskUrl } from '../../src/core/mask.js';
import type { RecordedRequest } from '../../mocks/upstream/record.js';
import { headerValues } from '../../mocks/upstream/record.js';
import type { Expectation } from '../../mocks/upstream/server.js';
import type { Reply, SseReply } from '../../mocks/upstream/scenario.js';
import { NATIVE_MODEL, nativeJsonReply, nativeResponse } from '../../mocks/upstream/native.js';
import { CASE_PLACEHOLDER } from '../messages/gen.js';
import type { Exchange, SendOptions } from '../messages/common.js';

export { NATIVE_MODEL };

/** `POST /v1beta/models/{model}:generateContent`, or `:streamGenerateContent?alt=sse` (spec 4 endpoint 4). */
export function nativePath(model = NATIVE_MODEL, stream = false): string {
  return `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
}

export const CHAT_PATH = '/v1/chat/completions';

/** Path families, judged on the decoded path (an encoded `:` is NAT-PATH-1's finding, not NAT-X-1's). */
export function pathFamily(url: string): 'native' | 'chat' | 'other' {
  let p = url.split('?')[0];
  try {
    p = decodeURIComponent(p);
  } catch {
    /* kept as it came */
  }
  if (/\/v1beta\/models\/[^/]+:(generateContent|streamGenerateContent)$/.test(p)) return 'native';
  if (/\/chat\/completions$/.test(p)) return 'chat';
  return 'other';
}

/** A small native body whose first text part carries the case placeholder. */
export function nativeBody(extra: Record<string, unknown> = {}, text = 'Say hello.'): string {
  return JSON.stringify({ contents: [{ role: 'user', parts: [{ text: `${CASE_PLACEHOLDER} ${text}` }] }], generationConfig: { temperature: 0.2, maxOutputTokens: 64 }, ...extra });
}

/** A small chat body whose user message carries the case placeholder. */
export function chatBody(extra: Record<string, unknown> = {}, text = 'Say hello.'): string {
  return JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: `${CASE_PLACEHOLDER} ${text}` }], temperature: 0.2, ...extra });
}

const register = (reply: Reply) => (c: CheckContext) => c.upstream.register(reply);

/** How to send a native request through `exchange` (suites/messages/common.ts). */
export function nativeSend(opts: { model?: string; auth?: AuthStyle; reply?: Reply } = {}): SendOptions {
  return { auth: opts.auth ?? 'x-goog-api-key', endpoint: { path: nativePath(opts.model) }, reply: register(opts.reply ?? nativeJsonReply(nativeResponse())) };
}

/** How to send a chat request through `exchange`, with `Authorization: Bearer` by default (spec 5). */
export function chatSend(opts: { auth?: AuthStyle; reply: Reply; headers?: Array<[string, string]> }): SendOptions {
  return { auth: opts.auth ?? 'bearer', endpoint: { path: CHAT_PATH }, reply: register(opts.reply), headers: opts.headers };
}

const cut = (t: string, max: number) => (t.length > max ? `${t.slice(0, max)}... (${t.length} bytes)` : t);

export function upstreamEvidence(seen: RecordedRequest | null, max = 1500): Evidence[string] {
  return seen
    ? { method: seen.method, url: maskUrl(seen.url), headers: maskHeaders(seen.rawHeaders), body: cut(seen.body.toString('utf8'), max), matchedBy: seen.matchedBy }
    : 'the upstream received no request for this case';
}

/** Evidence of one exchange: both sides, credentials masked (headers and `?key=`). */
export function evidenceOf(x: Exchange, max = 1500): Evidence {
  return {
    client: { status: x.res.status, contentType: x.res.header('content-type') ?? null, body: cut(x.res.text(), max) },
    upstream: upstreamEvidence(x.seen, max),
  };
}

/** Which credentials reached the upstream, named without their values: `x-goog-api-key (the client's key)`. */
export function credentialsAt(ctx: CheckContext, seen: RecordedRequest): string[] {
  const found: string[] = [];
  const whose = (v: string) => (ctx.gateway.isRunCredential(v) ? "the client's key" : 'another value: the gateway\'s own credential?');
  for (const h of ['x-goog-api-key', 'authorization', 'x-api-key']) for (const v of headerValues(seen, h)) if (v.trim()) found.push(`${h} header (${whose(v)})`);
  const q = seen.url.indexOf('?');
  if (q >= 0) for (const v of new URLSearchParams(seen.url.slice(q + 1)).getAll('key')) if (v) found.push(`?key= query (${whose(v)})`);
  return found;
}

export interface ProtocolStream {
  res: SseResult;
  seen: RecordedRequest | null;
  expectation: Expectation;
  /** The data payloads the upstream scripted, in order. */
  sent: string[];
}

/** Streams one request (its body's case placeholder replaced) through the gateway; the upstream plays `reply`. */
export async function streamThrough(ctx: CheckContext, reply: SseReply, req: { path: string; auth: AuthStyle; body: string }): Promise<ProtocolStream> {
  const expectation = ctx.upstream.register(reply);
  const res = await readStream(ctx.gateway, {
    method: 'POST',
    path: req.path,
    auth: req.auth,
    headers: [['content-type', 'application/json'], ['accept', 'text/event-stream']],
    body: req.body.split(CASE_PLACEHOLDER).join(expectation.token),
    caseToken: expectation.token,
    signal: ctx.signal,
  });
  const seen = await expectation.received(200);
  const sent = reply.frames.map((f) => f.data.replace(/^data: /, '').replace(/\r?\n\r?\n$/, ''));
  return { res, seen, expectation, sent };
}

export function streamEvidenceOf(x: ProtocolStream, max = 1500): Evidence {
  const raw = x.res.raw.toString('utf8');
  return {
    client: { status: x.res.status, headers: maskHeaders(x.res.rawHeaders), events: x.res.events.length, error: x.res.error ?? null, body: cut(raw, max) },
    upstream: x.seen ? { url: maskUrl(x.seen.url), framesScripted: x.sent.length, framesWritten: x.seen.sentAt.length } : 'the upstream received no request for this case',
  };
}
