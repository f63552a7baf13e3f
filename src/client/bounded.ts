// What the client keeps of a gateway's answer, bounded whatever the gateway sends: the first
// bytes (decoded as a client would), the full length and a SHA-256 of everything that came.
// A gateway may answer 500 MB, stream forever or send a body that is not what its
// content-encoding claims; the harness keeps a few MiB and says what the rest was.
import * as crypto from 'node:crypto';
import { createHash, type Hash } from 'node:crypto';
import { passedThrough, released } from '../core/pressure.js';
import { maskCut } from '../core/mask.js';
import { brotliDecompressSync, gunzipSync, inflateSync, constants } from 'node:zlib';
import { zstdDecompress } from '../core/zstd.js';

const EMPTY = Buffer.alloc(0);

/** The most of one response body the client keeps (the rest is hashed and counted). */
export const BODY_KEEP = 1024 * 1024;

/** The decoders a client (undici fetch, browsers) applies for a content-encoding, or null for none. */
export function decodingOf(encoding: string | undefined): 'gzip' | 'deflate' | 'br' | 'zstd' | 'identity' | 'unknown' {
  const e = (encoding ?? '').trim().toLowerCase();
  if (!e || e === 'identity') return 'identity';
  if (e === 'gzip' || e === 'x-gzip') return 'gzip';
  if (e === 'deflate') return 'deflate';
  if (e === 'br') return 'br';
  if (e === 'zstd') return 'zstd';
  return 'unknown';
}

/**
 * Collects a body: the first `keep` bytes, the total length, the SHA-256 of the whole. A body
 * kept whole is hashed once, when asked (most are small: a hash object per chunk and a copy of
 * it per body were most of a small request's bookkeeping); a longer one is hashed as it
 * streams from its first byte not kept.
 */
export class BoundedBody {
  private chunks: Buffer[] = [];
  private kept = 0;
  private hash: Hash | null = null;
  length = 0;
  constructor(private readonly keep = BODY_KEEP) {}
  push(c: Buffer): void {
    passedThrough(c.length);
    this.length += c.length;
    if (this.hash) {
      this.hash.update(c);
      return;
    }
    if (this.kept + c.length <= this.keep) {
      this.chunks.push(c);
      this.kept += c.length;
      return;
    }
    // The first byte not kept: the hash takes the kept part, then every byte as it comes.
    this.hash = createHash('sha256');
    for (const k of this.chunks) this.hash.update(k);
    this.hash.update(c);
    const part = c.subarray(0, this.keep - this.kept);
    // A copy: a slice would hold the whole chunk it came from.
    if (part.length > 0) this.chunks.push(Buffer.from(part));
    this.kept += part.length;
  }
  get truncated(): boolean {
    return this.length > this.kept;
  }
  /**
   * The kept bytes, joined once: the pieces are dropped for their copy (kept twice, a 1 MiB head
   * held its pieces and its copy alive as long as the answer), and later calls return the same buffer.
   */
  head(): Buffer {
    if (this.chunks.length === 1) return this.chunks[0];
    const whole = Buffer.concat(this.chunks);
    if (this.chunks.length) released(this.kept);
    this.chunks = [whole];
    return whole;
  }
  /** A copy of the first `n` kept bytes at most, leaving the pieces as they are (a preview while the body still comes). */
  start(n: number): Buffer {
    const parts: Buffer[] = [];
    for (let got = 0, i = 0; got < n && i < this.chunks.length; got += this.chunks[i++].length) parts.push(this.chunks[i]);
    return Buffer.concat(parts).subarray(0, n);
  }
  sha256(): string {
    if (this.hash) return this.hash.copy().digest('hex');
    // One piece (most bodies): the one-shot digest, no hash object (Node 20.12 and later).
    if (this.chunks.length <= 1 && typeof crypto.hash === 'function') return crypto.hash('sha256', this.chunks[0] ?? EMPTY, 'hex');
    const h = createHash('sha256');
    for (const k of this.chunks) h.update(k);
    return h.digest('hex');
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
    const body =
      how === 'gzip'
        ? gunzipSync(raw, opts)
        : how === 'deflate'
          ? inflateSync(raw, opts)
          : how === 'zstd'
            ? zstdDecompress(raw, keep, truncated)
            : brotliDecompressSync(raw, { maxOutputLength: keep, ...(truncated ? { finishFlush: constants.BROTLI_OPERATION_FLUSH } : {}) });
    // The decoder's pieces are garbage now (the body is their copy): counted like bytes from a socket.
    passedThrough(body.length);
    return { body, truncated: truncated || body.length >= keep };
  } catch (e) {
    const err = e as { code?: string; message?: string };
    // More than the harness keeps (a compression bomb, or just large): nothing decoded is kept,
    // and the `keep` bytes decoded before the decoder gave up are garbage.
    if (err.code === 'ERR_BUFFER_TOO_LARGE') {
      passedThrough(keep);
      return { body: Buffer.alloc(0), truncated: true };
    }
    return { body: raw, truncated, error: `the body is not ${how} as its content-encoding claims (${err.code ?? err.message})` };
  }
}

/**
 * Digests of the long JSON strings of a body, computed as it streams by (no copy kept): for
 * each string of at least `min` bytes, its length and a 64-bit digest (the first 16 hex digits
 * of a SHA-256) of its raw bytes between the quotes, escapes as sent. A large body kept only in
 * part can still show that a long value (an image's base64 data) arrived intact when the rest of
 * the body was rewritten. Quotes and backslashes are found by Buffer.indexOf and the bytes hashed
 * natively: a string's bytes are never walked one by one in JavaScript (46 MiB of bodies per run).
 */
export const LONG_STRING_MIN = 64 * 1024;

export class LongStrings {
  readonly found: Array<{ length: number; digest: string }> = [];
  private inString = false;
  private escaped = false;
  private length = 0;
  /** The current string's pieces while it is shorter than `min` (then hashed and dropped). */
  private held: Buffer[] = [];
  private hash: Hash | null = null;
  constructor(private readonly min = LONG_STRING_MIN) {}

  push(c: Buffer): void {
    let i = 0;
    while (i < c.length) {
      if (!this.inString) {
        const q = c.indexOf(0x22, i);
        if (q < 0) return;
        this.inString = true;
        this.escaped = false;
        this.length = 0;
        i = q + 1;
        continue;
      }
      const end = this.closingQuote(c, i);
      this.take(c.subarray(i, end < 0 ? c.length : end));
      if (end < 0) return;
      this.finish();
      i = end + 1;
    }
  }

  /** The index of the current string's closing quote in `c` from `i`, or -1 (the string goes on). */
  private closingQuote(c: Buffer, i: number): number {
    let j = i;
    if (this.escaped) {
      this.escaped = false;
      j++;
    }
    // Each is searched again only once passed, so a string of many escapes is scanned once.
    let q = -2;
    let bs = -2;
    while (j < c.length) {
      if (q !== -1 && q < j) q = c.indexOf(0x22, j);
      if (bs !== -1 && bs < j) bs = c.indexOf(0x5c, j);
      if (bs >= 0 && (q < 0 || bs < q)) {
        if (bs + 1 >= c.length) {
          this.escaped = true;
          return -1;
        }
        j = bs + 2;
        continue;
      }
      return q;
    }
    return -1;
  }

  private take(piece: Buffer): void {
    if (!piece.length) return;
    this.length += piece.length;
    if (this.hash) return void this.hash.update(piece);
    this.held.push(piece);
    if (this.length < this.min) return;
    this.hash = createHash('sha256');
    for (const p of this.held) this.hash.update(p);
    this.held = [];
  }

  private finish(): void {
    if (this.length >= this.min) this.found.push(this.hash ? { length: this.length, digest: this.hash.digest('hex').slice(0, 16) } : longStringDigest(this.held));
    this.inString = false;
    this.hash = null;
    this.held = [];
  }
}

/** The LongStrings digest of bytes given in pieces (the contents of one JSON string, escapes as sent). */
export function longStringDigest(pieces: Iterable<Buffer>): { length: number; digest: string } {
  const h = createHash('sha256');
  let length = 0;
  for (const c of pieces) {
    h.update(c);
    length += c.length;
  }
  return { length, digest: h.digest('hex').slice(0, 16) };
}

/** A body as text: a new string each time (up to BODY_KEEP), garbage soon after, counted like bytes from a socket. */
export function textOf(body: Buffer): string {
  passedThrough(body.length);
  return body.toString('utf8');
}

/** What a check reads of a body no client can decode: the reason, not the bytes. */
export function unreadable(reason: string, wireBytes: number, raw: Buffer): string {
  return `(a client cannot read this body: ${reason}; ${wireBytes} bytes on the wire, starting ${JSON.stringify(maskCut(raw.subarray(0, 400).toString('latin1'), 80, raw.length))})`;
}
