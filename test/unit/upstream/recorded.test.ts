// The recording upstream's record (mocks/upstream/recorded.ts): the header list and body of
// every request read back exactly as they came, whichever way they were kept (copied into a
// shared slab when small, a large body as it came, a long header list in a buffer of its own,
// pairs for HTTP/2 or a line feed in a value), and a later record never overwrites an earlier one.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Recorded } from '../../../mocks/upstream/recorded.js';

/** A header name or value as node:http gives it: latin1 characters (a line feed now and then). */
const latin1 = (max: number) => fc.string({ unit: fc.oneof(fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)), fc.constant('\n')), maxLength: max });
/** A small body's bytes, or a large body's length (its bytes made from it: a failure prints the length, not 40,000 numbers). */
const body = fc.oneof(fc.uint8Array({ maxLength: 600 }), fc.integer({ min: 15_000, max: 40_000 }));
const bytesOf = (b: Uint8Array | number) => (typeof b === 'number' ? Uint8Array.from({ length: b }, (_, i) => (i * 31) & 0xff) : b);
const request = fc.record({
  flat: fc.array(fc.tuple(latin1(12), latin1(40)), { maxLength: 12 }).map((pairs) => pairs.flat()),
  /** A header list past the slab's piece limit (16 KiB). */
  long: fc.boolean(),
  body,
});

const pairsOf = (flat: string[]) => Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i], flat[2 * i + 1]]);

function record(seq: number, flat: string[], bytes: Uint8Array): Recorded {
  return new Recorded({ seq, method: 'POST', url: '/v1/messages', headers: flat, body: Buffer.from(bytes), bodyBytes: bytes.length, bodyTruncated: false, receivedAt: 0, receivedWall: '' });
}

describe('the recording upstream keeps each request as it came', () => {
  it('reads back every header list and body exactly, also after many later records (slabs fill and are replaced)', () => {
    fc.assert(
      fc.property(fc.array(request, { minLength: 1, maxLength: 60 }), (reqs) => {
        const sent = reqs.map((r) => ({ flat: r.long ? [...r.flat, 'x-long', 'v'.repeat(20_000)] : r.flat, body: bytesOf(r.body) }));
        const kept = sent.map((s, i) => record(i + 1, s.flat, s.body));
        // Enough records after them to fill a few slabs (256 KiB each).
        for (let i = 0; i < 1200; i++) record(0, ['host', `filler-${i}`], new Uint8Array(500).fill(i & 0xff));
        sent.forEach((s, i) => {
          expect(kept[i].rawHeaders).toEqual(pairsOf(s.flat));
          expect(Buffer.compare(kept[i].body, Buffer.from(s.body))).toBe(0);
        });
      }),
      { numRuns: 40 },
    );
  });

  it('keeps HTTP/2 pairs as pairs, and an empty request as empty', () => {
    const h2 = new Recorded({ seq: 1, method: 'POST', url: '/', headers: [['host', 'a'], ['x', 'b\nc']], body: Buffer.from('{}'), bodyBytes: 2, bodyTruncated: false, receivedAt: 0, receivedWall: '' });
    expect(h2.rawHeaders).toEqual([['host', 'a'], ['x', 'b\nc']]);
    expect(h2.body.toString()).toBe('{}');
    const empty = record(2, [], new Uint8Array(0));
    expect([empty.rawHeaders, empty.body.length, empty.bodySha256]).toEqual([[], 0, 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855']);
  });
});
