// What a fault of the reference gateway may change. Each hook is optional; a fault uses the
// few it needs, and reference/gateway.ts calls them at fixed points of a forwarded exchange.
import type http from 'node:http';
import type { Transform } from 'node:stream';

/** A JSON body as a fault sees it: a parsed value it may change. */
export type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface RequestParts {
  method: string;
  /** Path with query. */
  path: string;
  headers: Array<[string, string]>;
  body: Buffer;
}

export interface Replacement {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The Content-Length the answer declares: the body's own when absent (a fault's stale one, FRAME-1). */
  length?: number;
}

/** How a fault breaks the reference gateway's translating route (reference/translate/). */
export interface TranslateFault {
  /** The system prompt is lost (XLATE-REQ-1). */
  dropSystem?: boolean;
  /** The answer's tool calls are lost, its text kept (XLATE-ANS-1). */
  loseToolCalls?: boolean;
  /** A streamed answer's tool calls are lost, its text kept; the answer that is not streamed keeps them (XLATE-ANS-1). */
  loseStreamToolCalls?: boolean;
  /** An upstream status reaches the client as another (XLATE-ERR-1): [from, to]. */
  statusAs?: [number, number];
  /** The translated stream is written only once the upstream's has ended (XLATE-STREAM-1). */
  bufferStream?: boolean;
  /** The protocol the route forwards upstream in: chat completions (the default), Bedrock InvokeModel or Vertex AI rawPredict. */
  to?: 'chat' | 'bedrock' | 'vertex';
  /** Every anthropic-beta value is dropped on the way to the cloud upstream, none refused (XLATE-BETA-1). */
  dropBetas?: boolean;
  /** Every upstream error reaches the client as an api_error, whatever its status (XLATE-ERR-1, ERR-PASS-1). */
  errorTypeLost?: boolean;
  /** The upstream's error message is replaced by a generic one, status and type kept (allowed from a cloud upstream unless --strict). */
  genericMessage?: boolean;
  /** An answer whose chat message carries `annotations` gains a made-up, empty web search (a server_tool_use block and an empty result block) (XLATE-ANS-1). */
  inventsWebSearch?: boolean;
  /** Upstream errors reach the client as the gateway's own `{"error":{"type":"Error","message","stack"}}`: no top-level type, a wrong error.type and a stack trace (XLATE-ERR-1). */
  errorWithStack?: boolean;
  /** The upstream's retry-after (and retry-after-ms) is not kept on a translated error (ERR-PASS-2). */
  dropRetryAfter?: boolean;
  /** Stop reasons pass through an OpenAI-shaped middle and reach the client in its words: content_filter for a refusal, stop for pause_turn and model_context_window_exceeded (XLATE-STOP-1). */
  stopAsChat?: boolean;
  /** A tool call's Gemini thought signature (chat's `extra_content.google.thought_signature`) is not kept for the next turn (XLATE-SIG-1). */
  dropThoughtSignature?: boolean;
  /** A compressed request body is not decoded: the route cannot read it and passes it on untranslated (ENC-1). */
  passEncoded?: boolean;
}

/** How a fault breaks the gateway-level limit: an HTML 503, forwarding before refusing, one budget for every credential, a fixed retry-after. */
export interface LimitFault {
  html503?: boolean;
  forwardFirst?: boolean;
  shared?: boolean;
  retryAfterS?: number;
}

export interface Fault {
  name: string;
  /** Catalog ids the fault breaks on purpose. */
  breaks: string[];
  description: string;
  /** Rewrites the request before it is forwarded. */
  request?(r: RequestParts): void;
  /** Answers the request itself, without forwarding; returns true when it did. */
  intercept?(r: RequestParts, res: http.ServerResponse): boolean;
  /** Waits this many milliseconds before forwarding (0 or undefined: no wait). */
  delayMs?(r: RequestParts): number;
  /** Sends the request again, up to `times` more times, while the upstream answers `status`. */
  retry?: { status: number; times: number; /** Waits the upstream's retry-after (seconds) before each retry. */ honourRetryAfter?: boolean; /** Changes the request before each retry (a failover to another model). */ rewrite?(r: RequestParts): void };
  /** Rewrites a JSON response body of a messages path (the gateway buffers it to do so). */
  responseJson?(body: Json, status: number): Json;
  /** Replaces a whole (buffered) response; null keeps it. */
  response?(status: number, headers: http.IncomingHttpHeaders, body: Buffer, r: RequestParts): Replacement | null;
  /** The requests (and upstream statuses) `response` applies to; the others are streamed unbuffered. Every request when absent. */
  responseWhen?(r: RequestParts, status?: number): boolean;
  /** Transforms a streamed (unbuffered) response; headers may be changed too. Null: stream unchanged. */
  stream?(r: RequestParts, status: number, headers: Array<[string, string]>): { headers: Array<[string, string]>; transform: Transform } | null;
  /**
   * What the gateway does to the client's unbuffered answer when the upstream's breaks off before
   * its end (the clean gateway breaks the client's off too). `again` sends the request upstream
   * once more and hands its answer to `answer` (the client's headers are already sent).
   */
  upstreamCut?(res: http.ServerResponse, again: (answer: (ur: http.IncomingMessage, res: http.ServerResponse) => void) => void): void;
  /** Sends the request once more, in place, when the upstream stays silent past the gateway's time-out, before answering 504 (RETRY-POST-1). */
  resendAfterTimeout?: boolean;
  /** Keeps the upstream request going when the client disconnects. */
  keepUpstreamOnAbort?: boolean;
  /** Opens at most this many connections to the upstream (the clean gateway: no bound). */
  upstreamSockets?: number;
  /**
   * The pool of upstream connections (the clean gateway: node's global agent, and a request whose
   * kept-alive connection turns out closed by the upstream is sent once more on a fresh one). With
   * a fault's pool that second try is not made.
   */
  upstreamPool?(): http.Agent;
  /** Breaks the gateway-level limit's answer (with a declared limit). */
  limit?: LimitFault;
  /** Replaces the gateway's JSON answer when the upstream cannot be reached or times out. */
  upstreamDown?(status: number, reason: string): Replacement;
  /** Turns on the translating route (messages in, chat or Bedrock upstream) and breaks it so (reference/translate/). */
  translate?: TranslateFault;
  /** Breaks the declared fallback (reference/fallback.ts) so: what the first upstream was given or answered crosses to the second or its answer. */
  fallback?: FallbackFault;
  /**
   * The gateway speaks HTTP/2 to its upstream (reference/h2.ts), which then needs TLS and HTTP/2:
   * `demo` and the self-tests start the recording upstream so (mocks/upstream/for-gateway.ts).
   */
  upstreamHttp2?: Http2Fault;
  /** Breaks the gateway's WebSocket relay (reference/socket.ts) so. */
  socket?: SocketFault;
  /**
   * A fault with state (a cache, a count, a backend it marks down) makes a copy of itself with its
   * state new: each gateway serves its own copy, so no run meets the state of another in the same process.
   */
  fresh?(): Fault;
}

/** How the gateway's HTTP/2 upstream pool breaks (nothing: a clean HTTP/2 hop). */
export interface Http2Fault {
  /** A stream the upstream resets makes the gateway destroy its session, which the pool goes on handing out (CONN-IDLE-1). */
  resetPoisonsSession?: boolean;
}

/** What of the first upstream's exchange a broken fallback lets cross (XUP-1). */
export interface FallbackFault {
  /** The second upstream gets the credential the first one got, not its own. */
  keepCredential?: boolean;
  /** The client's answer from the second upstream also carries the first upstream's answer headers. */
  leakHeaders?: boolean;
  /** The second upstream's request says why it came: a header quoting the first upstream's error. */
  reasonHeader?: boolean;
}

/** A message relayed on a socket, and where it goes next. */
export type SocketSend = (data: Buffer, binary: boolean) => void;

/** How a fault breaks the WebSocket relay (reference/socket.ts); nothing: a clean relay. */
export interface SocketFault {
  /** The gateway answers every upgrade itself with this status (a gateway that does not carry WebSockets). */
  refuseStatus?: number;
  /** The upgrade headers are stripped: the request goes upstream as a plain GET and its answer comes back. */
  plain?: boolean;
  /** A header of the upgrade not forwarded (lower case). */
  dropHeader?: string;
  /** The gateway completes the client's upgrade before the upstream's; when the upstream refuses, it closes the open socket. */
  acceptFirst?: boolean;
  /** Upstream-to-client messages pass through this (held in bursts, reordered): it gets the next hop's send. */
  toClient?(send: SocketSend): SocketSend;
  /** Client-to-upstream messages are rewritten so (a field dropped). */
  toUpstream?(data: Buffer, binary: boolean): Buffer;
  /** Every close code passed on either way is replaced by this one. */
  closeCode?: number;
  /** A socket silent this long is cut (no close frame). */
  idleCutMs?: number;
  /** The gateway tells the client permessage-deflate is on without taking it on itself. */
  advertiseDeflate?: boolean;
  /** The largest message the gateway takes (it closes with 1009 past it). */
  maxMessageBytes?: number;
  /** Binary messages are passed on as text. */
  textOnly?: boolean;
  /** Pings are not answered. */
  noPong?: boolean;
}
