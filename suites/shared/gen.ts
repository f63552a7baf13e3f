// The JSON value trees the property-based body checks generate, on every protocol. A tree keeps
// the textual form of every value (escaped or raw unicode, `1.0`, `1e2`, integers past 2^53),
// so the bytes sent are exactly what a property compares.
import fc from 'fast-check';

export type G =
  | { t: 'obj'; entries: Array<[string, G]> }
  | { t: 'arr'; items: G[] }
  | { t: 'str'; v: string; escape: boolean }
  | { t: 'num'; raw: string }
  | { t: 'lit'; raw: 'true' | 'false' | 'null' };


export const s = (v: string, escape = false): G => ({ t: 'str', v, escape });
export const n = (raw: string): G => ({ t: 'num', raw });
export const o = (...entries: Array<[string, G] | null>): G => ({ t: 'obj', entries: entries.filter((e): e is [string, G] => e !== null) });
export const a = (...items: G[]): G => ({ t: 'arr', items });

function encodeString(v: string, escape: boolean): string {
  const j = JSON.stringify(v);
  // JSON.stringify leaves U+2028/2029 raw; either form is valid JSON and both are sent.
  return escape ? j.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : j;
}

export function serialize(g: G, pretty: boolean, depth = 0): string {
  const nl = pretty ? `\n${'  '.repeat(depth + 1)}` : '';
  const end = pretty ? `\n${'  '.repeat(depth)}` : '';
  switch (g.t) {
    case 'obj':
      return g.entries.length ? `{${g.entries.map(([k, v]) => `${nl}${JSON.stringify(k)}:${pretty ? ' ' : ''}${serialize(v, pretty, depth + 1)}`).join(',')}${end}}` : '{}';
    case 'arr':
      return g.items.length ? `[${g.items.map((v) => `${nl}${serialize(v, pretty, depth + 1)}`).join(',')}${end}]` : '[]';
    case 'str':
      return encodeString(g.v, g.escape);
    case 'num':
    case 'lit':
      return g.raw;
  }
}

const SPECIAL = ['é', 'naïve café', '😀 astral', '\u2028line\u2029sep', '"quoted" \\ back', '</script>', '\u0000\u001f ctl', 'tab\there', '日本語', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢'];
export const text: fc.Arbitrary<G> = fc
  .tuple(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 24 }), fc.constantFrom(...SPECIAL), fc.string({ maxLength: 12 })), fc.boolean())
  .map(([v, e]) => s(v, e));

export const number: fc.Arbitrary<G> = fc.oneof(
  fc.integer().map((i) => n(String(i))),
  fc.constantFrom('1.0', '1e2', '1E+2', '0.1', '-0', '2.50', '1.5e-7', '0').map(n),
  fc.bigInt({ min: 2n ** 53n + 1n, max: 2n ** 80n }).map((b) => n(b.toString())),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => n(JSON.stringify(d))),
);

export const unknownKey = fc.oneof(fc.constantFrom('x_future_field', 'gwc_unknown', 'experimental', '10', '2', 'b', 'a', 'context_hint'), fc.stringMatching(/^x_[a-z]{1,8}$/));

/** Any JSON value, nested a few levels, with integer-like keys (JS objects reorder those). */
export const anyValue: fc.Arbitrary<G> = fc.letrec<{ v: G }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    number,
    fc.constantFrom<G>({ t: 'lit', raw: 'true' }, { t: 'lit', raw: 'false' }, { t: 'lit', raw: 'null' }),
    fc.array(tie('v'), { maxLength: 4 }).map((items) => a(...items)),
    fc.uniqueArray(fc.tuple(unknownKey, tie('v')), { maxLength: 4, selector: ([k]) => k }).map((entries) => ({ t: 'obj', entries }) as G),
  ),
})).v;

export const lit = (raw: 'true' | 'false' | 'null'): G => ({ t: 'lit', raw });
export const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
