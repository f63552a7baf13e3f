// Bodies shown in evidence are cut without decoding them whole (suites/shared/evidence.ts cutBytes).
import { describe, expect, it } from 'vitest';
import { cut, cutBytes } from '../../../suites/shared/evidence.js';

describe('cutBytes', () => {
  it('shows a short body whole, and an ASCII body exactly as cut() of its text', () => {
    expect(cutBytes(Buffer.from('{"ok":true}'), 100)).toBe('{"ok":true}');
    for (const n of [100, 399, 400, 401, 5000, 2 * 1024 * 1024]) {
      const b = Buffer.from('event: ping\ndata: {}\n\n'.repeat(Math.ceil(n / 22)).slice(0, n));
      expect(cutBytes(b, 100)).toBe(cut(b.toString('utf8'), 100));
    }
  });

  it('cuts a long multi-byte body at `max` characters and says how many bytes it had', () => {
    const text = 'é😀'.repeat(100_000);
    const b = Buffer.from(text);
    const out = cutBytes(b, 50);
    expect(out).toBe(`${text.slice(0, 50)}... (${b.length} bytes)`);
  });
});
