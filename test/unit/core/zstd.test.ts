// zstd as a content-coding (src/core/zstd.ts): zlib's decoder (Node 22.15+, 24, 26) and the
// library's (fzstd, Node 20) give the same bytes for the same body and refuse the same bombs.
// The fixtures in test/fixtures/zstd were made once with zlib's zstdCompressSync (Node 24):
// message.json.zst is message.json at level 19 with a checksum (compressed blocks, Huffman and
// FSE tables); bomb.zst is 64 MiB of "a" with an 8 MiB window; events-bomb.zst 128 MiB of events.
// On Node 20 only the library path exists; run this file on a newer line too (the zlib path).
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeBody } from '../../../src/client/bounded.js';
import { FrameWalker, ZSTD_WINDOW_MAX, zstdDecompress, zstdFrame, zstdPath, zstdStream, type ZstdPath } from '../../../src/core/zstd.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/zstd/${name}`, import.meta.url));
const plain = fixture('message.json');
const encoded = fixture('message.json.zst');
const bomb = fixture('bomb.zst');
/** Whether this Node's zlib has zstd (22.15+); and whether it decodes every frame of a body (24, 26; not 22). */
const hasZlib = typeof (zlib as { zstdDecompressSync?: unknown }).zstdDecompressSync === 'function';
const wholeZlib = hasZlib && Number(process.versions.node.split('.')[0]) >= 24;
const paths: ZstdPath[] = wholeZlib ? ['zlib', 'library'] : ['library'];

/** A frame asking for a 2 GiB window (descriptor exponent 21), holding one raw 2-byte last block. */
const wideWindow = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 21 << 3, (2 << 3) | 1, 0, 0, 0x7b, 0x7d]);
/** A skippable frame of 5 bytes. */
const skippable = Buffer.concat([Buffer.from([0x5a, 0x2a, 0x4d, 0x18, 5, 0, 0, 0]), Buffer.from('skip!')]);

async function streamed(body: Buffer, piece: number, path: ZstdPath, cap = 1 << 30): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let i = 0; i < body.length; i += piece) parts.push(body.subarray(i, i + piece));
  const out: Buffer[] = [];
  for await (const c of Readable.from(parts).pipe(zstdStream(cap, path))) out.push(c as Buffer);
  return Buffer.concat(out);
}

describe('zstd decoding', () => {
  it('takes zlib where this Node decodes zstd whole, else the library', () => {
    expect(zstdPath()).toBe(wholeZlib ? 'zlib' : 'library');
  });

  it.runIf(hasZlib && !wholeZlib)('Node 22: the library, because zlib stops at the first frame and takes a cut one', () => {
    const zz = zlib as unknown as { zstdDecompressSync(b: Buffer): Buffer };
    expect(zz.zstdDecompressSync(Buffer.concat([encoded, encoded])).length).toBe(plain.length);
    expect(zz.zstdDecompressSync(encoded.subarray(0, 500)).length).toBe(0);
  });

  it.each(paths)('%s: decodes a real frame to the bytes it was made from, and frames one after another', (path) => {
    expect(zstdDecompress(encoded, 1 << 20, false, path).equals(plain)).toBe(true);
    const two = Buffer.concat([encoded, skippable, encoded]);
    expect(zstdDecompress(two, 1 << 20, false, path).equals(Buffer.concat([plain, plain]))).toBe(true);
  });

  it.each(paths)('%s: stops a bomb at the bound (ERR_BUFFER_TOO_LARGE, as zlib for gzip and brotli)', (path) => {
    expect(() => zstdDecompress(bomb, 1 << 20, false, path)).toThrow(expect.objectContaining({ code: 'ERR_BUFFER_TOO_LARGE' }));
  });

  it.each(paths)('%s: refuses a window larger than an HTTP decoder must support before decoding any of it', (path) => {
    expect(() => zstdDecompress(wideWindow, 1 << 20, false, path)).toThrow(expect.objectContaining({ code: 'ZSTD_WINDOW_TOO_LARGE' }));
    expect(ZSTD_WINDOW_MAX).toBe(8 * 1024 * 1024);
  });

  it.each(paths)('%s: a whole body cut short, a corrupted one and plain JSON fail; a kept prefix is decoded as far as it goes', (path) => {
    expect(() => zstdDecompress(encoded.subarray(0, 500), 1 << 20, false, path)).toThrow();
    const corrupt = Buffer.from(encoded);
    corrupt[100] ^= 0xff;
    expect(() => zstdDecompress(corrupt, 1 << 20, false, path)).toThrow();
    expect(() => zstdDecompress(Buffer.from('{"a":1}'), 1 << 20, false, path)).toThrow(expect.objectContaining({ code: 'ZSTD_BAD_FRAME' }));
    // A prefix holding one whole frame and part of the next: the first is decoded, the cut one is no error.
    const prefix = Buffer.concat([encoded, encoded]).subarray(0, encoded.length + 500);
    expect(zstdDecompress(prefix, 1 << 20, true, path).equals(plain)).toBe(true);
  });

  it.each(paths)('%s: a stream in pieces of any size decodes to the same bytes', async (path) => {
    for (const piece of [1, 7, 4096, encoded.length]) expect((await streamed(encoded, piece, path)).equals(plain)).toBe(true);
  });

  it('the library stream stops at its cap, a bomb in one chunk included', async () => {
    const out = await streamed(fixture('events-bomb.zst'), 1 << 20, 'library', 3 * 1024 * 1024);
    expect(out.length).toBe(3 * 1024 * 1024);
  });

  it('the frame walker gives the same verdict whatever the chunking', () => {
    const walk = (b: Buffer, piece: number) => {
      const w = new FrameWalker();
      for (let i = 0; i < b.length; i += piece) w.push(b.subarray(i, i + piece));
    };
    for (const piece of [1, 3, 64]) {
      expect(() => walk(Buffer.concat([encoded, skippable, bomb]), piece)).not.toThrow();
      expect(() => walk(Buffer.concat([encoded, wideWindow]), piece)).toThrow(/window/);
    }
  });
});

describe('decodeBody with content-encoding: zstd', () => {
  it('decodes as a client would, bounds a bomb, and names a body that is not zstd', () => {
    expect(decodeBody(encoded, 'zstd', false)).toEqual({ body: plain, truncated: false });
    const b = decodeBody(bomb, 'zstd', false, 1024 * 1024);
    expect(b.error).toBeUndefined();
    expect(b).toMatchObject({ truncated: true });
    expect(b.body.length).toBeLessThanOrEqual(1024 * 1024);
    expect(decodeBody(plain, 'ZSTD', false).error).toMatch(/not zstd as its content-encoding claims \(ZSTD_BAD_FRAME\)/);
    expect(decodeBody(wideWindow, 'zstd', false).error).toMatch(/ZSTD_WINDOW_TOO_LARGE/);
  });
});

describe('zstdFrame (what the recording upstream answers with zstd)', () => {
  it.each(paths)('%s: reads back the bytes, empty and past one block included', (path) => {
    for (const body of [Buffer.alloc(0), plain, Buffer.concat([plain, plain, plain])]) expect(zstdDecompress(zstdFrame(body), 1 << 20, false, path).equals(body)).toBe(true);
  });
});
