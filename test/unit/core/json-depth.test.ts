// Gateway JSON is read to a bounded depth: past MAX_DEPTH levels the reader says so instead of
// building a million nested arrays (hundreds of MB) or recursing out of the stack.
import { describe, expect, it } from 'vitest';
import { MAX_DEPTH, parseJson, tooDeepAt, tryParse } from '../../../src/core/json.js';
import { compareJsonText } from '../../../src/core/json-diff.js';

const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

describe('JSON depth', () => {
  it('a million levels: parseJson and the lossless reader refuse at the bound, saying so, without growing the heap', () => {
    const before = process.memoryUsage().heapUsed;
    expect(() => parseJson(deep(1_000_000))).toThrow(new RegExp(`nesting deeper than ${MAX_DEPTH} levels`));
    const p = tryParse(`${'{"a":'.repeat(1_000_000)}1${'}'.repeat(1_000_000)}`);
    expect(p.ok).toBe(false);
    expect(!p.ok && p.error).toMatch(/nesting deeper than 512 levels .* at offset \d+/);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(50 * 1024 * 1024);
  });

  it('a comparison of a deep answer says the depth, not a crash', () => {
    const c = compareJsonText('{"a":1}', deep(100_000));
    expect(c.parseError).toMatch(/nesting deeper than/);
  });

  it('up to the bound is read as before; brackets inside strings do not count', () => {
    expect(parseJson(deep(MAX_DEPTH))).toBeInstanceOf(Array);
    expect(tryParse(deep(MAX_DEPTH)).ok).toBe(true);
    expect(tooDeepAt(JSON.stringify({ s: '['.repeat(10_000), t: '\\"[[[' }))).toBe(-1);
    expect(tooDeepAt(deep(MAX_DEPTH + 1))).toBe(MAX_DEPTH);
  });
});
