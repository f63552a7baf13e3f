// zstd as an HTTP content-coding (RFC 9659), decoded the same on every Node line the package runs
// on: with zlib's zstd where the running Node has it whole (24, 26) and with the pure-JS fzstd
// elsewhere (20, which has none; 22, whose zlib stops at a body's first frame), loaded only when
// the first zstd body arrives. Both paths are bounded
// alike: a frame whose window exceeds the 8 MiB an HTTP decoder must support (RFC 9659, 3) is
// refused before any of it is decoded (a declared 2 GB window is a memory bomb), and the decoded
// bytes stop at the caller's limit with ERR_BUFFER_TOO_LARGE, as zlib's maxOutputLength does.
import { createRequire } from 'node:module';
import { Transform, type Transform as TransformType } from 'node:stream';
import * as zlib from 'node:zlib';

/** The largest window a zstd content-coding may need (RFC 9659: 8 MiB); larger frames are refused. */
export const ZSTD_WINDOW_MAX = 8 * 1024 * 1024;
const WINDOW_LOG_MAX = 23;

/** The decoder in use: zlib's where this Node has it, else the library's. */
export type ZstdPath = 'zlib' | 'library';

interface ZlibZstd {
  zstdDecompressSync(b: Buffer, o: object): Buffer;
  createZstdDecompress(o: object): TransformType;
  constants: Record<string, number>;
}
const z = zlib as unknown as Partial<ZlibZstd> & { constants: Record<string, number> };

let probed: ZstdPath | null = null;
/**
 * Which path this Node takes: zlib's where it decodes a body as RFC 8878 says, every frame of it.
 * Node 22's zlib (measured on 22.23) stops after the first frame and takes a frame cut short
 * without complaint, so 22 takes the library too; 24 and 26 pass. Probed once, on two tiny frames.
 */
export function zstdPath(): ZstdPath {
  if (probed) return probed;
  const zz = z as Partial<ZlibZstd & { zstdCompressSync(b: Buffer): Buffer }>;
  let whole = false;
  try {
    whole = !!zz.zstdDecompressSync && !!zz.zstdCompressSync && zz.zstdDecompressSync(Buffer.concat([zz.zstdCompressSync(Buffer.from('a')), zz.zstdCompressSync(Buffer.from('b'))]), {}).toString() === 'ab';
  } catch {
    whole = false;
  }
  probed = whole ? 'zlib' : 'library';
  return probed;
}

interface Fzstd {
  Decompress: new (ondata: (d: Uint8Array, final?: boolean) => void) => { push(c: Uint8Array, final?: boolean): void };
}
let fzstd: Fzstd | null = null;
/** fzstd, loaded on first use (a synchronous require: decoding is synchronous). */
function library(): Fzstd {
  fzstd ??= createRequire(import.meta.url)('fzstd') as Fzstd;
  return fzstd;
}

/** An error with a code, as zlib's are. */
const coded = (code: string, message: string) => Object.assign(new Error(message), { code });

/**
 * The frames of a zstd body, walked by their headers as the bytes come, without decoding: push
 * throws for a frame whose window exceeds ZSTD_WINDOW_MAX, or for bytes that are no frame (the
 * decoder would fail on them too). A header cut across chunks waits for the rest.
 */
export class FrameWalker {
  private pending: Buffer = Buffer.alloc(0);
  private at = 0;
  /** Bytes to pass over before the next header: a block's content, a checksum, a skippable frame. */
  private skip = 0;
  private state: 'frame' | 'block' = 'frame';
  private checksum = false;

  push(chunk: Buffer): void {
    this.pending = this.pending.length > this.at ? Buffer.concat([this.pending.subarray(this.at), chunk]) : chunk;
    this.at = 0;
    for (;;) {
      const passed = Math.min(this.skip, this.pending.length - this.at);
      this.at += passed;
      this.skip -= passed;
      if (this.skip > 0 || !(this.state === 'frame' ? this.frame() : this.block())) return;
    }
  }

  /** Reads one frame header if whole; false when more bytes are needed. */
  private frame(): boolean {
    const b = this.pending;
    const at = this.at;
    if (at + 4 > b.length) return false;
    const magic = b.readUInt32LE(at);
    if ((magic & 0xfffffff0) === 0x184d2a50) {
      if (at + 8 > b.length) return false;
      this.skip = b.readUInt32LE(at + 4);
      this.at += 8;
      return true;
    }
    if (magic !== 0xfd2fb528) throw coded('ZSTD_BAD_FRAME', 'bytes that are no zstd frame');
    if (at + 5 > b.length) return false;
    const fhd = b[at + 4];
    const single = (fhd >> 5) & 1;
    const fcsBytes = [single, 2, 4, 8][fhd >> 6];
    const p = at + 6 - single + [0, 1, 2, 4][fhd & 3];
    if (p + fcsBytes > b.length) return false;
    const fcs = fcsBytes === 0 ? 0 : fcsBytes === 1 ? b[p] : fcsBytes === 2 ? b.readUInt16LE(p) + 256 : fcsBytes === 4 ? b.readUInt32LE(p) : Number(b.readBigUInt64LE(p));
    // The window: the content size for a single-segment frame, else its descriptor's (RFC 8878, 3.1.1.1.2).
    const wd = b[at + 5];
    const base = 2 ** (10 + (wd >> 3));
    const window = single ? fcs : base + (base / 8) * (wd & 7);
    if (window > ZSTD_WINDOW_MAX) throw coded('ZSTD_WINDOW_TOO_LARGE', `a zstd frame asks for a ${window}-byte window, more than the ${ZSTD_WINDOW_MAX} an HTTP decoder must support`);
    this.checksum = ((fhd >> 2) & 1) === 1;
    this.at = p + fcsBytes;
    this.state = 'block';
    return true;
  }

  /** Reads one block header if whole; false when more bytes are needed. */
  private block(): boolean {
    const b = this.pending;
    if (this.at + 3 > b.length) return false;
    const h = b[this.at] | (b[this.at + 1] << 8) | (b[this.at + 2] << 16);
    const type = (h >> 1) & 3;
    if (type === 3) throw coded('ZSTD_BAD_FRAME', 'a zstd block of the reserved type');
    this.at += 3;
    // A raw or compressed block carries its size in bytes; an RLE block one byte.
    this.skip = type === 1 ? 1 : h >>> 3;
    if (h & 1) {
      this.skip += this.checksum ? 4 : 0;
      this.state = 'frame';
    }
    return true;
  }
}

/** The largest block of a frame (RFC 8878, 3.1.1.2.4). */
const BLOCK_MAX = 128 * 1024;

/**
 * A zstd frame holding `body` in raw blocks: valid zstd that every decoder reads, made the same
 * on every Node line (Node 20 has no zstd compressor), so a verdict never depends on the line.
 * Its window is the content size (a single-segment frame), within ZSTD_WINDOW_MAX up to 8 MiB.
 */
export function zstdFrame(body: Buffer): Buffer {
  // Frame header: single segment, 4-byte content size, no checksum, no dictionary.
  const head = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0xa0, 0, 0, 0, 0]);
  head.writeUInt32LE(body.length, 5);
  const parts: Buffer[] = [head];
  for (let at = 0; at === 0 || at < body.length; at += BLOCK_MAX) {
    const piece = body.subarray(at, at + BLOCK_MAX);
    const last = at + BLOCK_MAX >= body.length ? 1 : 0;
    const h = (piece.length << 3) | last;
    parts.push(Buffer.from([h & 0xff, (h >> 8) & 0xff, (h >> 16) & 0xff]), piece);
  }
  return Buffer.concat(parts);
}

/**
 * Decodes a zstd body, at most `keep` bytes of it (more: ERR_BUFFER_TOO_LARGE). A `truncated`
 * body (a kept prefix) is decoded as far as it goes; a whole one must end with its frame.
 * `path` forces a decoder (tests compare the two).
 */
export function zstdDecompress(raw: Buffer, keep: number, truncated: boolean, path: ZstdPath = zstdPath()): Buffer {
  new FrameWalker().push(raw);
  if (path === 'zlib') {
    if (!z.zstdDecompressSync) throw coded('ZSTD_UNAVAILABLE', 'this Node has no zstd in zlib');
    const params = { [z.constants.ZSTD_d_windowLogMax]: WINDOW_LOG_MAX };
    return z.zstdDecompressSync(raw, { maxOutputLength: keep, params, ...(truncated ? { finishFlush: z.constants.ZSTD_e_flush } : {}) });
  }
  const out: Buffer[] = [];
  let length = 0;
  const d = new (library().Decompress)((c) => {
    length += c.length;
    if (length > keep) throw coded('ERR_BUFFER_TOO_LARGE', `more than ${keep} bytes decoded`);
    if (c.length) out.push(Buffer.from(c.buffer, c.byteOffset, c.length));
  });
  try {
    d.push(raw, !truncated);
  } catch (e) {
    const err = e as { code?: unknown; message?: string };
    if (err.code === 'ERR_BUFFER_TOO_LARGE') throw e;
    throw coded('ZSTD_INVALID', `zstd: ${err.message ?? String(e)}`);
  }
  return Buffer.concat(out, length);
}

/**
 * A zstd stream decoder (a Transform, as zlib's are), bounded by window like zstdDecompress. zlib's
 * stops at its reader's back-pressure; the library's decodes each chunk whole at once, so it stops
 * at `cap` decoded bytes (the reader's own bound, passed on) and drops the rest, as a reader that
 * stopped reading would.
 */
export function zstdStream(cap: number, path: ZstdPath = zstdPath()): TransformType {
  if (path === 'zlib') {
    if (!z.createZstdDecompress) throw coded('ZSTD_UNAVAILABLE', 'this Node has no zstd in zlib');
    return z.createZstdDecompress({ params: { [z.constants.ZSTD_d_windowLogMax]: WINDOW_LOG_MAX } });
  }
  const walker = new FrameWalker();
  let given = 0;
  const out: Transform = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      step(() => {
        walker.push(chunk);
        d.push(chunk);
      }, cb);
    },
    flush(cb) {
      step(() => d.push(new Uint8Array(0), true), cb);
    },
  });
  const d = new (library().Decompress)((c) => {
    if (given >= cap) throw CAPPED;
    const piece = Buffer.from(c.buffer, c.byteOffset, Math.min(c.length, cap - given));
    given += piece.length;
    if (piece.length) out.push(piece);
  });
  const step = (f: () => void, cb: (e?: Error | null) => void) => {
    if (given >= cap) return cb();
    try {
      f();
      cb();
    } catch (e) {
      if (e === CAPPED) return cb();
      const err = e as { code?: unknown; message?: string };
      cb(typeof err.code === 'string' ? (e as Error) : coded('ZSTD_INVALID', `zstd: ${err.message ?? String(e)}`));
    }
  };
  return out;
}

/** Thrown inside the library's output handler to stop it decoding past the cap. */
const CAPPED = new Error('zstd output cap reached');
