// Shared steps of the vertex checks: a rawPredict, streamRawPredict or count-tokens request
// through the gateway as Claude Code sends it (JSON, `anthropic-version` beside the body's, a bearer
// token), the path it must arrive at (the run's project and region filled in), and the pairing of
// the stream events the upstream sent with those the client got.
import type { CheckContext } from '../../src/check/check.js';
import { ANTHROPIC_VERSION } from '../../src/client/gateway.js';
import { diffJson } from '../../src/core/compare.js';
import { tryParse } from '../../src/core/json.js';
import { frames, type StreamEvent } from '../../src/upstream/replies/streams.js';
import { VERTEX_MODEL, vertexJsonReply, vertexMessageBody, vertexSseReply } from '../../src/upstream/replies/vertex.js';
import type { Reply } from '../../src/upstream/scenario.js';
import { streamThrough, type SendOptions, type StreamExchange } from '../shared/exchange.js';
import { vertexBody, vertexCountPath, vertexPath } from '../shared/protocols.js';

export { VERTEX_MODEL };

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

/** The same event data: identical text, or the same JSON value (a gateway may re-serialise an event). */
function sameData(sent: string, got: string): boolean {
  if (sent === got) return true;
  const a = tryParse(sent);
  const b = tryParse(got);
  return a.ok && b.ok && diffJson(a.node, b.node, '', [], { keyOrder: false, limit: 1 }).length === 0;
}

/** Pairs each sent event with the received one carrying its data, in order (position by position when the counts agree). */
export function pairEvents(sent: string[], got: string[]): Array<{ sent: number; got: number }> {
  if (sent.length === got.length) return sent.map((_, i) => ({ sent: i, got: i }));
  const pairs: Array<{ sent: number; got: number }> = [];
  let j = 0;
  for (let i = 0; i < sent.length; i++) {
    const k = got.findIndex((g, n) => n >= j && sameData(sent[i], g));
    if (k >= 0) {
      pairs.push({ sent: i, got: k });
      j = k + 1;
    }
  }
  return pairs;
}

/** Data of a sent frame (`event:` and `data:` lines). */
export const dataOf = (frame: string) => /^data: ?(.*)$/m.exec(frame)?.[1] ?? frame;
