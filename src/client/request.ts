// What a request to the gateway is and what comes back of it: the request a check gives the
// client, its route (resolved once per request from its protocol's targeting), the answer read
// whole, and what the transcript keeps of an exchange. The client (gateway.ts) and the stream
// reader (sse.ts) share these; gateway.ts re-exports them for the checks.
import type { AuthStyle, Protocol } from '../core/protocols.js';

/** What the client applies per protocol (src/config/targeting.ts): base path, headers (expanded), credential style, the values its paths name. */
export type ClientTargeting = Record<Protocol, { basePath: string; headers: Array<[string, string]>; credential?: AuthStyle; placeholders?: Record<string, string> }>;

export interface GwRequest {
  method?: string;
  /** Path with query, relative to the target's base (its own path prefix is kept). */
  path: string;
  headers?: Array<[string, string]>;
  /** A SizedBody is made piece by piece while it is sent, never held whole (large bodies). */
  body?: string | Buffer | SizedBody;
  auth?: AuthStyle;
  /** Sent as a hint header so the upstream can match a request whose body lost the token. */
  caseToken?: string;
  signal?: AbortSignal;
}

/** A body of known length made while it is sent: `chunks()` may be called more than once and yields the same bytes. */
export interface SizedBody {
  length: number;
  chunks(): Iterable<Buffer>;
}

export const isSizedBody = (b: GwRequest['body']): b is SizedBody => typeof b === 'object' && !Buffer.isBuffer(b) && typeof (b as SizedBody).chunks === 'function';

/** Where a request goes and what it carries: its URL (base path, `key` parameter), method, and the flat header list (credential, the protocol's headers, the check's, the case token). */
export interface Route {
  url: string;
  headers: string[];
  method: string;
}

export interface GwResponse {
  status: number;
  rawHeaders: Array<[string, string]>;
  /** The body as a client reads it (decoded per content-encoding), at most BODY_KEEP bytes of it. */
  body: Buffer;
  /** Bytes received on the wire (before decoding), SHA-256 of them, and whether `body` is only their start. */
  wireBytes: number;
  wireSha256: string;
  truncated: boolean;
  /** Why a client could not decode the body (its content-encoding is not what it claims). */
  decodeError?: string;
  /** The connection error of a first attempt, when the answer came on a fresh connection (GatewayClient.dispatch). */
  retriedAfter?: string;
  startedAt: number;
  headersAt: number;
  endedAt: number;
  header(name: string): string | undefined;
  text(): string;
}

/** What the client got back for one request, as the transcript keeps it. */
export type ReceivedResponse = { status: number; rawHeaders: Array<[string, string]>; body: Buffer; aborted?: boolean; error?: string } | { error: string };
