// What the client keeps of a gateway's answer, bounded whatever the gateway sends: the first
// bytes (decoded as a client would), the full length and a SHA-256 of everything that came.
// A gateway may answer 500 MB, stream forever or send a body that is not what its
// content-encoding claims; the harness keeps a few MiB and says what the rest was.
import { createHash } from 'node:crypto';
import { passedThrough } from '../core/pressure.js';
import { brotliDecompressSync, gunzipSync, inflateSync, constants } from 'node:zlib';

/** The most of one response body the client keeps (the rest is hashed and counted). */
export const BODY_KEEP = 2 * 1024 * 1024;

/** The decoders a client (undici fetch, browsers) applies for a content-encoding, or null for none. */
export function decodingOf(encoding: string | undefined): 'gzip' | 'deflate' | 'br' | 'identity' | 'unknown' {
  const e = (encoding ?? '').trim().toLowerCase();
  if (!e || e === 'identity') return 'identity';
  if (e === 'gzip' || e === 'x-gzip') return 'gzip';
  if (e === 'deflate') return 'deflate';
  if (e === 'br') return 'br';
  return 'unknown';
}

/** Collects a body: the first `keep` bytes, the total length, the SHA-256 of the whole. */
export class BoundedBody {
  private chunks: Buffer[] = [];
  private kept = 0;
  private hash = createHash('sha256');
  length = 0;
  constructor(private readonly keep = BODY_KEEP) {}
  push(c: Buffer): void {
    passedThrough(c.length);
    this.length += c.length;
    this.hash.update(c);
    if (this.kept < this.keep) {
      const part = c.length > this.keep - this.kept ? c.subarray(0, this.keep - this.kept) : c;
      // A copy: a slice would hold the whole chunk it came from.
      this.chunks.push(part === c ? c : Buffer.from(part));
      this.kept += part.length;
    }
  }
  get truncated(): boolean {
    return this.length > this.kept;
  }
  head(): Buffer {
    return Buffer.concat(this.chunks);
  }
  sha256(): string {
    return this.hash.copy().digest('hex');
  }
}

/**
 * Decodes a body the way a client would for its content-encoding, bounded. Returns the decoded
 * bytes or why a client could not read the body (the encoding is not what it claims).
 */
export function decodeBody(raw: Buffer, encoding: string | undefined, truncated: boolean, keep = BODY_KEEP): { body: Buffer; error?: string; truncated: boolean } {
  const how = decodingOf(encoding);
  if (how === 'identity') return { body: raw, truncated };
  if (how === 'unknown') return { body: raw, truncated, error: `content-encoding "${encoding}" is not one a client can decode` };
  // A body cut by the harness (kept prefix) is decoded as far as it goes; a whole one must end cleanly.
  const opts = { maxOutputLength: keep, ...(truncated ? { finishFlush: constants.Z_SYNC_FLUSH } : {}) };
  try {
    const body = how === 'gzip' ? gunzipSync(raw, opts) : how === 'deflate' ? inflateSync(raw, opts) : brotliDecompressSync(raw, { maxOutputLength: keep, ...(truncated ? { finishFlush: constants.BROTLI_OPERATION_FLUSH } : {}) });
    return { body, truncated: truncated || body.length >= keep };
  } catch (e) {
    const err = e as { code?: string; message?: string };
    // More than the harness keeps (a compression bomb, or just large): nothing decoded is kept.
    if (err.code === 'ERR_BUFFER_TOO_LARGE') return { body: Buffer.alloc(0), truncated: true };
    return { body: raw, truncated, error: `the body is not ${how} as its content-encoding claims (${err.code ?? err.message})` };
  }
}
