// A request body as CLIENT-1 compares it: a body sent with a Content-Encoding the harness reads
// (zstd, as Codex CLI sends its Responses requests when it compresses them; gzip, deflate, br)
// is compared decoded, so a gateway that forwards it re-encoded at another level is not taken for
// one that changed it; the Content-Encoding header itself is compared as every header is, so a
// gateway that forwards the body decoded shows as the header it removed. A body that does not
// decode is compared as its raw bytes.
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { zstdDecompress } from '../core/zstd.js';
import type { UpstreamRequest } from './types.js';

/** The most bytes a body is decoded to for comparing (a client's request is far below it). */
const DECODED_MAX = 64 * 1024 * 1024;

const DECODERS: Record<string, (b: Buffer) => Buffer> = {
  zstd: (b) => zstdDecompress(b, DECODED_MAX, false),
  gzip: (b) => gunzipSync(b, { maxOutputLength: DECODED_MAX }),
  'x-gzip': (b) => gunzipSync(b, { maxOutputLength: DECODED_MAX }),
  deflate: (b) => inflateSync(b, { maxOutputLength: DECODED_MAX }),
  br: (b) => brotliDecompressSync(b, { maxOutputLength: DECODED_MAX }),
};

/** The request's Content-Encoding, lower-cased, or null when it has none. */
export function contentEncoding(q: Pick<UpstreamRequest, 'headers'>): string | null {
  const v = q.headers.find(([k]) => k.toLowerCase() === 'content-encoding')?.[1];
  return v ? v.trim().toLowerCase() : null;
}

/** The body's bytes as latin1 text, decoded when its one Content-Encoding is one the harness reads; `encoding` names it when it was decoded. */
export function comparableBody(q: Pick<UpstreamRequest, 'headers' | 'body'>): { text: string; encoding: string | null } {
  const raw = Buffer.from(q.body, 'base64');
  const enc = contentEncoding(q);
  const decode = enc ? DECODERS[enc] : undefined;
  if (!decode) return { text: raw.toString('latin1'), encoding: null };
  try {
    return { text: decode(raw).toString('latin1'), encoding: enc };
  } catch {
    return { text: raw.toString('latin1'), encoding: null };
  }
}
