// Scenario data: what the recording upstream answers to one expected request. Plain,
// serialisable values, so a scenario can be logged, stored and replayed; mocks/upstream/play.ts plays them.
import type { Framing } from '../core/framing.js';
import type { Protocol } from '../core/protocols.js';

export type HeaderList = Array<[string, string]>;

/**
 * Answers held back so that requests overlap (the load profile): the upstream answers the
 * requests of `group` only once `size` of them are waiting, or `waitMs` after the first of a
 * batch arrived (then it waits for as many as came, for the rest of the group: a gateway that
 * forwards fewer at once is not waited on again).
 */
export interface Hold {
  group: string;
  size: number;
  waitMs: number;
  /** The group's requests: once this many have arrived, the last batch is complete (and later ones, retries, are not held). */
  total: number;
}

export interface JsonReply {
  kind: 'json';
  status: number;
  headers: HeaderList;
  /** The exact body bytes, as text. */
  body: string;
  /** The protocol the reply is written in: the upstream renders it in another when the request arrives on another protocol's path. */
  protocol?: Protocol;
  /** Answer 400 like the real API when a body field (`key` or `array[].key`, see bodyHasField) arrives without the beta value that enables it. */
  betaForField?: Record<string, string>;
  hold?: Hold;
  /** The replies to the case's later requests, in arrival order (the second request gets `later[0]`; the last one answers every request after it): what the upstream answers changes within one case. */
  later?: Array<JsonReply | SseReply>;
  /** What the second upstream (src/core/second-upstream.ts) answers the same case, e.g. a fallback's answer; absent: this reply. */
  second?: Reply;
  /** Compressed with gzip (`Content-Encoding: gzip`) when the forwarded request accepts it (acceptsGzip in record.ts), as the real API does. */
  gzip?: boolean;
  /** Compressed with zstd (`Content-Encoding: zstd`, RFC 9659) when the forwarded request accepts it (acceptsZstd in record.ts), as an upstream may. */
  zstd?: boolean;
  /** After the answer, the upstream closes the connection that carried it once it has been idle this long (a server's keep-alive time-out); the record's idleClosedAt says when. */
  closeIdleMs?: number;
}

export interface SseFrame {
  /** Wait this long after the previous frame (or the headers) before writing. */
  gapMs: number;
  /** The raw bytes of the frame, framing included; with AWS event-stream framing, the text one binary message carries (src/core/framing.ts). */
  data: string;
}

export interface SseReply {
  kind: 'sse';
  /** As JsonReply's. */
  protocol?: Protocol;
  /** Rendered in another protocol: the scripted frame each frame came from (its index). */
  from?: number[];
  status: number;
  headers: HeaderList;
  frames: SseFrame[];
  /** How the frames go on the wire: SSE text when absent, or each frame text wrapped in one AWS event-stream message. */
  framing?: Framing;
  /** After the last frame the upstream breaks the answer off: it closes the connection without the body's end (HTTP/1.1: no last chunk; HTTP/2: the stream is reset). */
  cut?: boolean;
  hold?: Hold;
}

/** Accept the request and never answer. */
export interface HangReply {
  kind: 'hang';
}

/** Close the connection with a TCP reset after reading the request. */
export interface ResetReply {
  kind: 'reset';
}

/**
 * Answer as an MCP server over Streamable HTTP (mocks/upstream/mcp.ts, built on the official
 * SDK): the case's initialize opens a session whose id carries the case token, and every later
 * request of that session (POST, GET, DELETE) is the case's; every JSON-RPC message both ways is
 * recorded on the request that carried it (RecordedRequest.mcp).
 */
export interface McpReply {
  kind: 'mcp';
  /** POSTs are answered with one JSON body instead of an event stream. */
  json?: boolean;
}

export type Reply = JsonReply | SseReply | HangReply | ResetReply | McpReply;

export const JSON_HEADERS: HeaderList = [['content-type', 'application/json']];
export const SSE_HEADERS: HeaderList = [
  ['content-type', 'text/event-stream; charset=utf-8'],
  ['cache-control', 'no-cache'],
];

/** The reply to the `n`th request of a case (1 for the first): `reply`, or the one of its `later` that stands for `n`. */
export function replyForHit(reply: Reply, n: number): Reply {
  if (reply.kind !== 'json' || !reply.later?.length || n < 2) return reply;
  return reply.later[Math.min(n - 2, reply.later.length - 1)];
}
