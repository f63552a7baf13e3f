import { describe, expect, it } from 'vitest';
import { canonicalNumber, parseLossless, stringifyNode } from '../../../src/core/json.js';
import { compareJsonText, diffBytes, diffJson } from '../../../src/core/json-diff.js';

describe('lossless JSON', () => {
  it('keeps key order, integer-like keys included, and number text', () => {
    const n = parseLossless('{"b":1,"10":2.50,"2":1e2,"a":12345678901234567890}');
    expect(stringifyNode(n)).toBe('{"b":1,"10":2.50,"2":1e2,"a":12345678901234567890}');
  });
  it('keeps duplicate keys and rejects broken JSON with an offset', () => {
    expect(parseLossless('{"a":1,"a":2}')).toEqual({ t: 'obj', entries: [['a', { t: 'num', raw: '1' }], ['a', { t: 'num', raw: '2' }]] });
    expect(() => parseLossless('{"a":1,}')).toThrow(/offset 7/);
    expect(() => parseLossless('{"a":1} x')).toThrow(/trailing/);
  });
  it('decodes escapes like JSON.parse', () => {
    const n = parseLossless('"caf\\u00e9 \\ud83d\\ude00 \\u2028"');
    expect(n).toEqual({ t: 'str', v: 'café 😀 \u2028' });
  });
  it('compares numbers by value, exactly', () => {
    expect(canonicalNumber('1.0')).toBe(canonicalNumber('1'));
    expect(canonicalNumber('1e2')).toBe(canonicalNumber('100'));
    expect(canonicalNumber('2.50')).toBe(canonicalNumber('25e-1'));
    expect(canonicalNumber('9007199254740993')).not.toBe(canonicalNumber('9007199254740992'));
    expect(canonicalNumber('-0')).toBe('0');
  });
});

describe('diffJson', () => {
  const d = (a: string, b: string, keyOrder = true) => diffJson(parseLossless(a), parseLossless(b), '', [], { keyOrder });
  it('finds nothing in equal trees written differently', () => {
    expect(d('{"a":[1.0,"\\u00e9"]}', '{ "a" : [ 1, "é" ] }')).toEqual([]);
  });
  it('tells added, removed, changed, type, key order and length apart', () => {
    expect(d('{"a":1,"b":2}', '{"b":2,"a":1}')).toEqual([{ path: '/', kind: 'key-order', expected: 'a,b', actual: 'b,a' }]);
    expect(d('{"a":1,"b":2}', '{"b":2,"a":1}', false)).toEqual([]);
    expect(d('{"u":{"x":1}}', '{"u":{"x":1,"cost":0.1}}')).toEqual([{ path: '/u/cost', kind: 'added', actual: '0.1' }]);
    expect(d('{"u":{"x":1}}', '{"u":{}}')).toEqual([{ path: '/u/x', kind: 'removed', expected: '1' }]);
    expect(d('{"u":{"x":1}}', '{"u":{"x":2}}')).toEqual([{ path: '/u/x', kind: 'changed', expected: '1', actual: '2' }]);
    expect(d('{"s":"x"}', '{"s":["x"]}')[0].kind).toBe('type');
    expect(d('[1,1,2]', '[1,2]')[0]).toEqual({ path: '/', kind: 'length', expected: '3', actual: '2' });
  });
  it('escapes pointer segments', () => {
    expect(d('{"a/b":{"c~d":1}}', '{"a/b":{"c~d":2}}')[0].path).toBe('/a~1b/c~0d');
  });
});

describe('byte comparison', () => {
  it('reports the first differing offset with context', () => {
    const r = diffBytes(Buffer.from('{"a": 1.0}'), Buffer.from('{"a":1}'));
    expect(r?.offset).toBe(5);
    expect(r?.expectedLength).toBe(10);
    expect(diffBytes(Buffer.from('x'), Buffer.from('x'))).toBeNull();
  });
  it('compareJsonText flags a non-JSON arrival', () => {
    expect(compareJsonText('{}', '<html>').parseError).toMatch(/unexpected/);
  });
});
