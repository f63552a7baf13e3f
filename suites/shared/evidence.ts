// One evidence vocabulary for every area: both sides of an exchange, bodies cut to a readable
// size, every credential masked (headers and the `?key=` query), stream timelines named alike.
// The keys and the shape of each side are declared in src/core/evidence.ts, which the reporters
// read them by.
import type { Evidence } from '../../src/check/check.js';
import type { ClientSide, EvidenceParts, UpstreamSide } from '../../src/core/evidence.js';
import type { GwResponse } from '../../src/client/gateway.js';
import type { SseResult } from '../../src/client/sse.js';
import { maskCut, maskHeaders, maskUrl } from '../../src/core/mask.js';
import { oneLine } from '../../src/core/inert.js';
import type { RecordedRequest } from '../../src/upstream/record.js';

/** A text cut to `max` characters, saying how long it was. */
export function cut(t: string, max = 2000): string {
  // The credential is masked before the cut, and a piece of it left at the cut too.
  return maskCut(t, max);
}

/**
 * A body quoted in a message or an `actual`: cut like cut(), on one line, its line breaks and
 * invisible characters shown as escapes (src/core/inert.ts), so an HTML error page is not cut at
 * its first CRLF.
 */
export function excerpt(t: string, max = 160): string {
  return oneLine(cut(t, max));
}

/**
 * Bytes shown as text, cut like cut(): a long body is not decoded whole (a 2 MiB stream would
 * become a string of up to twice its size only to be cut), only as far as `max` characters go.
 */
export function cutBytes(b: Buffer, max = 2000): string {
  // A UTF-8 character is at most 4 bytes: max * 4 bytes hold at least max characters.
  if (b.length <= max * 4) return cut(b.toString('utf8'), max);
  return maskCut(b.subarray(0, max * 4).toString('utf8'), max, b.length);
}

export const NOTHING_RECEIVED = 'the upstream received no request for this case';

/** What the upstream received, or that nothing came. */
export function upstreamEvidence(seen: RecordedRequest | null | undefined, max = 1500): UpstreamSide | typeof NOTHING_RECEIVED {
  return seen
    ? { method: seen.method, url: maskUrl(seen.url), headers: maskHeaders(seen.rawHeaders), body: cutBytes(seen.body, max), matchedBy: seen.matchedBy }
    : NOTHING_RECEIVED;
}

/** What the client got: status, headers, time and body. */
export function clientEvidence(res: GwResponse, max = 1500): ClientSide {
  return { status: res.status, contentType: res.header('content-type') ?? null, headers: maskHeaders(res.rawHeaders), ms: Math.round(res.endedAt - res.startedAt), body: cut(res.text(), max) };
}

/** Both sides of one exchange. */
export function exchangeEvidence(x: { res: GwResponse; seen: RecordedRequest | null }, max = 1500): Evidence & Pick<EvidenceParts, 'client' | 'upstream'> {
  return { client: clientEvidence(x.res, max), upstream: upstreamEvidence(x.seen, max) };
}

/** Both sides of one stream: what the client read, and how many frames the upstream scripted and wrote. */
export function streamEvidence(x: { res: SseResult; seen: RecordedRequest | null }, framesScripted: number, max = 1500): Evidence & { client: ClientSide; upstream: UpstreamSide | typeof NOTHING_RECEIVED } {
  return {
    client: { status: x.res.status, headers: maskHeaders(x.res.rawHeaders), events: x.res.events.length, bytes: x.res.rawBytes, chunks: x.res.chunks.length, error: x.res.error ?? null, body: cutBytes(x.res.raw, max) },
    upstream: x.seen ? { url: maskUrl(x.seen.url), framesScripted, framesWritten: x.seen.sentAt.length } : NOTHING_RECEIVED,
  };
}
