// Shared steps of the vertex checks: a rawPredict, streamRawPredict or count-tokens request
// through the gateway as Claude Code sends it (JSON, `anthropic-version` beside the body's, a bearer
// token), the path it must arrive at (the run's project and region filled in), and the pairing of
// the stream events the upstream sent with those the client got.
import type { CheckContext } from '../../src/check/check.js';
import { ANTHROPIC_VERSION } from '../../src/client/gateway.js';
import { frames, type StreamEvent } from '../../src/protocols/messages/index.js';
import { VERTEX_MODEL, VERTEX_VERSION, vertexCountPath, vertexJsonReply, vertexMessageBody, vertexPath, vertexSseReply } from '../../src/protocols/vertex/index.js';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import type { Reply } from '../../src/upstream/scenario.js';
import { streamThrough, type SendOptions, type StreamExchange } from '../shared/exchange.js';
import { pairByPosition } from '../shared/pairing.js';

export { VERTEX_MODEL, vertexCountPath, vertexPath };

/** A small vertex (rawPredict) body: a messages body with `anthropic_version` and no `model`, the case placeholder in its user message. */
export function vertexBody(fields: Record<string, unknown> = {}, text = 'Say hello.'): string {
  return JSON.stringify({ anthropic_version: VERTEX_VERSION, max_tokens: 1024, messages: [{ role: 'user', content: `${CASE_PLACEHOLDER} ${text}` }], ...fields });
}

/** The header Claude Code sends beside the body's `anthropic_version` (the Vertex SDK drops it: docs/real-clients-captured.md). */
export const VERSION_HEADER: [string, string] = ['anthropic-version', ANTHROPIC_VERSION];

/** How to send a vertex request through `exchange`: rawPredict for `model` (or the count), a bearer token, the upstream's `reply`. */
export function vertexSend(opts: { model?: string; count?: boolean; reply?: Reply; headers?: Array<[string, string]> } = {}): SendOptions {
  const reply = opts.reply ?? vertexJsonReply(vertexMessageBody());
  return {
    auth: 'bearer',
    endpoint: { path: opts.count ? vertexCountPath() : vertexPath(opts.model ?? VERTEX_MODEL), headers: [VERSION_HEADER, ...(opts.headers ?? [])] },
    reply: (c) => c.upstream.register(reply),
  };
}

/** The path a request to `path` must reach the upstream at: as the client sent it, the run's project and region in it. */
export const wantPath = (ctx: CheckContext, path: string) => ctx.gateway.aimed(path);

/** Streams `events` `gapMs` apart from the upstream through the gateway's streamRawPredict route. */
export function vertexStream(ctx: CheckContext, events: StreamEvent[], opts: { gapMs?: number; model?: string; headers?: Array<[string, string]> } = {}): Promise<StreamExchange> {
  return streamThrough(ctx, vertexSseReply(frames(events, { gapMs: opts.gapMs ?? 0 })), {
    path: vertexPath(opts.model ?? VERTEX_MODEL, true),
    auth: 'bearer',
    body: vertexBody({ stream: true }, 'Stream a hello.'),
    headers: [VERSION_HEADER, ...(opts.headers ?? [])],
  });
}

/** Pairs each sent event with the received one carrying its data, in order (position by position when the counts agree). */
export const pairEvents = pairByPosition;

/** Data of a sent frame (`event:` and `data:` lines). */
export const dataOf = (frame: string) => /^data: ?(.*)$/m.exec(frame)?.[1] ?? frame;
