// What the recording upstream keeps of every request it receives.
import type { ApiRouteName, Protocol, RouteKind } from '../core/protocols.js';

export interface RecordedRequest {
  seq: number;
  method: string;
  /** Path with query, exactly as on the request line. */
  url: string;
  /** Raw headers in arrival order, with case and duplicates: [name, value] pairs. */
  rawHeaders: Array<[string, string]>;
  /** The body, or its first RECORD_KEEP bytes when it is larger (bodyTruncated). */
  body: Buffer;
  /** The whole body's length and SHA-256 (hex), however large: large bodies are compared by hash. */
  bodyBytes: number;
  bodySha256: string;
  bodyTruncated: boolean;
  /** Length and digest of each JSON string of 64 KiB or more in the body (LongStrings), so a value can be checked when the body is kept only in part. */
  longStrings?: Array<{ length: number; digest: string }>;
  /** performance.now() when the request's last body byte arrived (same clock as the client). */
  receivedAt: number;
  /** Wall-clock ISO time of arrival. */
  receivedWall: string;
  /** How the request was tied to its check: the case token in the body, header or URL. */
  matchedBy?: 'body' | 'header' | 'url';
  token?: string;
  /** The protocol and route of the path the request arrived on (after any declared prefix); absent for a path of no protocol. */
  protocol?: Protocol;
  route?: RouteKind;
  /** The route beyond inference the path is (compaction, a stored response, files, a batch, Codex's catalog), with `protocol` its protocol; absent for any other. */
  apiRoute?: ApiRouteName;
  /**
   * The protocol the gateway forwarded the request in: the path's where the body is that
   * protocol's request too (a translation), else the script's (a pass-through, or a body sent to
   * the wrong path). The route a check's request took is the client's protocol to this one.
   */
  routedAs?: Protocol;
  /** The protocol the upstream answered in: routedAs where the scripted reply could be rendered in it, else the script's. */
  answeredIn?: Protocol;
  /** A stream rendered in another protocol: the scripted frame each written frame came from (sentAt's index to the script's). */
  framesFrom?: number[];
  /** performance.now() when the connection serving this request closed, if it did. */
  closedAt?: number;
  /** `second`: the request arrived under SECOND_UPSTREAM_PREFIX (src/core/second-upstream.ts), as the second upstream's; absent: the first's. */
  upstream?: 'second';
  /** performance.now() when each response chunk (SSE frame) was written. */
  sentAt: number[];
  /**
   * How the connection of this request ended its idle spell after the answer (a reply's
   * closeIdleMs): closed by the upstream's keep-alive time-out, closed by the gateway first, or
   * reused by the gateway for another request; and when (performance.now()). `http2`: the
   * request came over HTTP/2, whose connection this scenario leaves alone.
   */
  idleClose?: { at: number; by: 'upstream' | 'gateway' | 'reused' | 'http2' };
}

/** The most of a request body the recording upstream keeps (the rest is hashed and counted). */
export const RECORD_KEEP = 4 * 1024 * 1024;

export function headerValues(r: Pick<RecordedRequest, 'rawHeaders'>, name: string): string[] {
  const n = name.toLowerCase();
  return r.rawHeaders.filter(([k]) => k.toLowerCase() === n).map(([, v]) => v);
}

/** Whether a request's `accept-encoding` accepts gzip (by name or `*`, with a q-value above 0). */
export const acceptsGzip = (r: Pick<RecordedRequest, 'rawHeaders'>): boolean => accepts(r, ['gzip', 'x-gzip']);
/** Whether a request's `accept-encoding` accepts zstd (by name or `*`, with a q-value above 0). */
export const acceptsZstd = (r: Pick<RecordedRequest, 'rawHeaders'>): boolean => accepts(r, ['zstd']);

function accepts(r: Pick<RecordedRequest, 'rawHeaders'>, names: readonly string[]): boolean {
  return headerValues(r, 'accept-encoding')
    .flatMap((v) => v.split(','))
    .some((item) => {
      const [name, ...params] = item.split(';').map((s) => s.trim().toLowerCase());
      const q = params.find((p) => p.startsWith('q='));
      return (names.includes(name) || name === '*') && (q === undefined || Number(q.slice(2)) > 0);
    });
}

export function queryOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q);
}
