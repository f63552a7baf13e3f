// One request through the gateway with a scripted upstream reply, on any protocol, and both
// sides of the exchange; streams likewise, read with per-event arrival times.
import type { CheckContext, Verdict } from '../../src/check/check.js';
import { messagesHeaders, type AuthStyle, type GwRequest, type GwResponse } from '../../src/client/gateway.js';
import { readStream, type SseResult, type StreamOptions } from '../../src/client/sse.js';
import { withToken } from '../../src/upstream/contract.js';
import type { RecordedRequest } from '../../src/upstream/record.js';
import type { Reply, SseReply } from '../../src/upstream/scenario.js';
import type { Expectation } from '../../src/upstream/upstream.js';
import { messageBody } from '../../src/protocols/messages/index.js';
import { jsonReply, RECORDS, streamedAnswer } from '../../src/protocols/index.js';
import { nativeFrames, nativeJsonReply, nativeResponse, nativeSseReply, nativeStream } from '../../src/protocols/native/index.js';
import { at, stringifyNode, tryParse, type JNode } from '../../src/core/json.js';
import { diffJson, type JsonDiff } from '../../src/core/json-diff.js';
import { exchangeEvidence, streamEvidence } from './evidence.js';
import { CHAT_PATH, RESPONSES_PATH, nativePath } from './protocols.js';

export interface Exchange {
  sent: string;
  res: GwResponse;
  seen: RecordedRequest | null;
  expectation: Expectation;
}

export interface SendOptions extends Omit<GwRequest, 'path' | 'body' | 'caseToken'> {
  query?: string;
  version?: string | null;
  /** The upstream's reply; a normal 200 message by default. */
  reply?: (ctx: CheckContext) => Expectation;
  /**
   * Another protocol's endpoint instead of /v1/messages (native, chat): a POST to `path` (with
   * its query) carrying `content-type: application/json` and these headers, no anthropic-version.
   */
  endpoint?: { path: string; headers?: Array<[string, string]> };
  /**
   * The upstream's reply when the body asks for a stream (`"stream": true`), so that a gateway
   * waiting for the stream it was promised gets one: the send helpers give their JSON answer as a
   * stream; by default the messages answer streamed (or `reply` as it is, when only that is given).
   */
  streamReply?: (ctx: CheckContext) => Expectation;
}

/** Whether a request body asks for a stream: its top-level `stream` is true. */
export function asksForStream(body: string): boolean {
  if (!/"stream"\s*:\s*true/.test(body)) return false;
  try {
    return (JSON.parse(body) as { stream?: unknown } | null)?.stream === true;
  } catch {
    return false;
  }
}

/** A reply in the shape a streaming request asks for: a JSON answer of a protocol as that protocol's stream (any other reply as it is). */
const streamed = (reply: Reply): Reply => (reply.kind === 'json' && reply.protocol ? (streamedAnswer(reply, reply.protocol) ?? reply) : reply);

/** The default reply of a body that asks for a stream: the default messages answer, streamed. */
const DEFAULT_STREAM = (c: CheckContext) => c.upstream.register(streamed({ ...jsonReply(RECORDS.messages.replies, messageBody()), protocol: 'messages' }));

/** Sends `body` (with its case placeholder replaced by a fresh token) as a messages request, or to `opts.endpoint`. */
export async function exchange(ctx: CheckContext, body: string, opts: SendOptions = {}): Promise<Exchange> {
  const reply = asksForStream(body) ? (opts.streamReply ?? opts.reply ?? DEFAULT_STREAM) : opts.reply;
  const expectation = reply ? reply(ctx) : ctx.upstream.next().json(messageBody());
  const sent = withToken(body, expectation.token);
  const res = opts.endpoint
    ? await ctx.gateway.send({
        ...opts,
        method: 'POST',
        path: opts.endpoint.path,
        body: sent,
        headers: [['content-type', 'application/json'], ...(opts.endpoint.headers ?? []), ...(opts.headers ?? [])],
        caseToken: expectation.token,
        signal: ctx.signal,
      })
    : await ctx.gateway.messages(sent, { ...opts, caseToken: expectation.token, signal: ctx.signal });
  const seen = await expectation.received(res.status < 300 ? 1000 : 200);
  return { sent, res, seen, expectation };
}

/** The messages protocol's token count. */
export const COUNT_TOKENS_PATH = '/v1/messages/count_tokens';

/** Sends `body` (its case placeholder replaced by `reply`'s token) to POST /v1/messages/count_tokens with the messages headers; what the upstream received, waited for as `exchange` does. */
export async function countTokensExchange(ctx: CheckContext, reply: Expectation, body: string): Promise<{ res: GwResponse; seen: RecordedRequest | null }> {
  const sent = withToken(body, reply.token);
  const res = await ctx.gateway.send({ method: 'POST', path: COUNT_TOKENS_PATH, body: sent, headers: messagesHeaders(), caseToken: reply.token, signal: ctx.signal });
  const seen = await reply.received(res.status < 300 ? 1000 : 200);
  return { res, seen };
}

const register = (reply: Reply) => (c: CheckContext) => c.upstream.register(reply);

/** How to send a native request through `exchange`; `stream` sends it to streamGenerateContent?alt=sse, answered with a stream. */
export function nativeSend(opts: { model?: string; auth?: AuthStyle; reply?: Reply; stream?: boolean } = {}): SendOptions {
  const reply = opts.reply ?? (opts.stream ? nativeSseReply(nativeFrames(nativeStream())) : nativeJsonReply(nativeResponse()));
  return { auth: opts.auth ?? 'x-goog-api-key', endpoint: { path: nativePath(opts.model, opts.stream) }, reply: register(reply) };
}

/** How to send a chat request through `exchange`, with `Authorization: Bearer` by default. */
export function chatSend(opts: { auth?: AuthStyle; reply: Reply; headers?: Array<[string, string]> }): SendOptions {
  return { auth: opts.auth ?? 'bearer', endpoint: { path: CHAT_PATH }, reply: register(opts.reply), streamReply: register(streamed(opts.reply)), headers: opts.headers };
}

/** How to send a Responses API request through `exchange` (to `path`, /v1/responses by default), with `Authorization: Bearer` by default. */
export function responsesSend(opts: { auth?: AuthStyle; reply: Reply; headers?: Array<[string, string]>; path?: string }): SendOptions {
  return { auth: opts.auth ?? 'bearer', endpoint: { path: opts.path ?? RESPONSES_PATH }, reply: register(opts.reply), streamReply: register(streamed(opts.reply)), headers: opts.headers };
}

export const notForwarded = (x: Exchange): Verdict => ({
  ok: false,
  message: `the request never reached the upstream (the gateway answered ${x.res.status})`,
  expected: 'the request forwarded to the upstream',
  actual: `gateway status ${x.res.status}, no upstream request`,
  evidence: exchangeEvidence(x),
});

/** A refusal that names its reason in a JSON error body (allowed by MSG-BODY-3). */
export function isExplicitRefusal(x: Exchange): boolean {
  if (x.seen || x.res.status < 400 || x.res.status >= 500) return false;
  const p = tryParse(x.res.text());
  return p.ok && p.node.t === 'obj' && p.node.entries.some(([k]) => k === 'error');
}

export function parseSeen(x: Exchange): JNode | null {
  if (!x.seen) return null;
  const p = tryParse(x.seen.body.toString('utf8'));
  return p.ok ? p.node : null;
}

/** Differences between the reply the upstream sent and the body the client got, at `pointer`. */
export function responseDiffs(x: Pick<Exchange, 'res' | 'expectation'>, pointer = ''): { diffs: JsonDiff[]; parseError?: string } {
  const reply = x.expectation.reply;
  if (reply.kind !== 'json') throw new Error('harness bug: responseDiffs needs a JSON reply');
  const want = tryParse(reply.body);
  if (!want.ok) throw new Error('harness bug: scripted reply is not JSON');
  // What the client read: a body its content-encoding misdescribes is not the upstream's body.
  if (x.res.decodeError) return { diffs: [], parseError: x.res.decodeError };
  if (x.res.truncated) return { diffs: [], parseError: `the body is larger than the ${x.res.body.length} bytes the harness reads (${x.res.wireBytes} bytes on the wire)` };
  const got = tryParse(x.res.text());
  if (!got.ok) return { diffs: [], parseError: got.error };
  const e = at(want.node, pointer);
  const a = at(got.node, pointer);
  if (!e) throw new Error(`harness bug: scripted reply has nothing at ${pointer}`);
  if (!a) return { diffs: [{ path: pointer, kind: 'removed', expected: stringifyNode(e) }] };
  return { diffs: diffJson(e, a, pointer) };
}

export interface StreamExchange {
  res: SseResult;
  seen: RecordedRequest | null;
  expectation: Expectation;
  reply: SseReply;
  /** The data payloads the upstream scripted, in order. */
  sent: string[];
}

/** Streams one request (its body's case placeholder replaced) through the gateway; the upstream plays `reply`. */
export async function streamThrough(
  ctx: CheckContext,
  reply: SseReply,
  req: { path: string; auth?: AuthStyle; body: string; headers?: Array<[string, string]> },
  opts: StreamOptions = {},
): Promise<StreamExchange> {
  const expectation = ctx.upstream.register(reply);
  const res = await readStream(
    ctx.gateway,
    {
      method: 'POST',
      path: req.path,
      auth: req.auth,
      headers: [['content-type', 'application/json'], ['accept', 'text/event-stream'], ...(req.headers ?? [])],
      body: withToken(req.body, expectation.token),
      caseToken: expectation.token,
      signal: ctx.signal,
    },
    opts,
  );
  const seen = await expectation.received(200);
  const sent = reply.frames.map((f) => f.data.replace(/^data: /, '').replace(/\r?\n\r?\n$/, ''));
  return { res, seen, expectation, reply, sent };
}

export const streamEvidenceOf = (x: StreamExchange, max = 1500) => streamEvidence(x, x.reply.frames.length, max);
