// The client keeps at most EVENTS_MAX events of one stream (src/client/collect.ts): an endless
// stream of tiny events stays within its bytes' bound in objects too, and says why it was left.
import { describe, expect, it } from 'vitest';
import { collector, EVENTS_MAX, STREAM_KEEP, STREAM_MAX } from '../../../src/client/collect.js';

describe('the events of one stream are bounded', () => {
  it(`a stream of tiny events is left after ${EVENTS_MAX} events, far below its byte bound`, () => {
    const k = collector(0);
    const piece = Buffer.from('data: x\n\n'.repeat(1000));
    let fed = 0;
    for (let i = 0; i < 200 && !k.tooLong(); i++) {
      k.feed(piece, i);
      fed += piece.length;
    }
    expect(fed).toBeLessThan(STREAM_MAX);
    expect(k.events).toHaveLength(EVENTS_MAX);
    expect(k.tooLong()).toBe(`the stream went on past ${EVENTS_MAX} events`);
  });

  it('a stream with fewer events keeps them all', () => {
    const k = collector(0);
    k.feed(Buffer.from('event: a\ndata: 1\n\n'.repeat(5205)), 1);
    expect(k.events).toHaveLength(5205);
    expect(k.tooLong()).toBe(false);
  });

  it(`keeps the first ${STREAM_KEEP} bytes of a longer stream as its body, and reads and counts the rest`, () => {
    const k = collector(0);
    const piece = Buffer.from(`data: ${'y'.repeat(1000)}\n\n`);
    const n = Math.ceil((3 * STREAM_KEEP) / piece.length);
    for (let i = 0; i < n; i++) k.feed(piece, i);
    const kept = Buffer.concat(k.body);
    expect(kept.length).toBe(STREAM_KEEP);
    expect(kept.equals(Buffer.concat(Array.from({ length: n }, () => piece)).subarray(0, STREAM_KEEP))).toBe(true);
    expect(k.bytes()).toBe(n * piece.length);
    expect(k.events).toHaveLength(n);
    expect(k.tooLong()).toBe(false);
  });
});
