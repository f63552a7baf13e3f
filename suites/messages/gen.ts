// Generators of messages-protocol request bodies for property-based body checks. They build
// a tree that keeps the textual form of every value (escaped or raw unicode, `1.0`, `1e2`,
// integers past 2^53), so the bytes sent are exactly what the property compares.
import fc from 'fast-check';

export type G =
  | { t: 'obj'; entries: Array<[string, G]> }
  | { t: 'arr'; items: G[] }
  | { t: 'str'; v: string; escape: boolean }
  | { t: 'num'; raw: string }
  | { t: 'lit'; raw: 'true' | 'false' | 'null' };

/** Replaced by the case token before sending: the token travels in the message text. */
export const CASE_PLACEHOLDER = '__GWC_CASE__';

const s = (v: string, escape = false): G => ({ t: 'str', v, escape });
const n = (raw: string): G => ({ t: 'num', raw });
const o = (...entries: Array<[string, G] | null>): G => ({ t: 'obj', entries: entries.filter((e): e is [string, G] => e !== null) });
const a = (...items: G[]): G => ({ t: 'arr', items });

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

const unknownKey = fc.oneof(fc.constantFrom('x_future_field', 'gwc_unknown', 'experimental', '10', '2', 'b', 'a', 'context_hint'), fc.stringMatching(/^x_[a-z]{1,8}$/));

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

/** A chain of nested arrays and objects, 20 to 60 deep. */
export const deep: fc.Arbitrary<G> = fc.integer({ min: 20, max: 60 }).map((d) => {
  let g: G = s('bottom');
  for (let i = 0; i < d; i++) g = i % 2 ? a(g) : o(['nest', g]);
  return g;
});

const cacheControl: fc.Arbitrary<G> = fc.constantFrom(o(['type', s('ephemeral')]), o(['type', s('ephemeral')], ['ttl', s('5m')]), o(['type', s('ephemeral')], ['ttl', s('1h')]));
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
const unknownEntry = maybe(fc.tuple(unknownKey.map((k) => `x_${k}`), anyValue));

function entries(...es: Array<[string, G] | null>): Array<[string, G]> {
  return es.filter((e): e is [string, G] => e !== null);
}

const textBlock: fc.Arbitrary<G> = fc
  .tuple(text, maybe(cacheControl), unknownEntry)
  .map(([t, cc, u]) => ({ t: 'obj', entries: entries(['type', s('text')], ['text', t], cc && ['cache_control', cc], u) }));
const imageBlock: fc.Arbitrary<G> = fc
  .tuple(fc.base64String({ minLength: 4, maxLength: 64 }), maybe(cacheControl))
  .map(([data, cc]) => o(['type', s('image')], ['source', o(['type', s('base64')], ['media_type', s('image/png')], ['data', s(data)])], cc && ['cache_control', cc]));
const toolUseBlock: fc.Arbitrary<G> = fc
  .tuple(fc.stringMatching(/^toolu_[A-Za-z0-9]{6}$/), anyValue, unknownEntry)
  .map(([id, input, u]) => ({ t: 'obj', entries: entries(['type', s('tool_use')], ['id', s(id)], ['name', s('Read')], ['input', o(['arg', input])], u) }));
const toolResultBlock: fc.Arbitrary<G> = fc
  .tuple(fc.oneof(text, fc.array(textBlock, { maxLength: 2 }).map((xs) => a(...xs))), fc.boolean(), maybe(cacheControl))
  .map(([c, err, cc]) => o(['type', s('tool_result')], ['tool_use_id', s('toolu_01')], ['content', c], err ? ['is_error', { t: 'lit', raw: 'true' }] : null, cc && ['cache_control', cc]));
const block = fc.oneof({ weight: 4, arbitrary: textBlock }, imageBlock, toolUseBlock, toolResultBlock);

/** A list in which an element is sometimes repeated right after itself (MSG-BODY-4). */
function withDuplicates(arb: fc.Arbitrary<G>, maxLength: number): fc.Arbitrary<G[]> {
  return fc.tuple(fc.array(arb, { maxLength }), fc.option(fc.nat(), { nil: null })).map(([xs, dup]) => {
    if (dup === null || xs.length === 0) return xs;
    const i = dup % xs.length;
    return [...xs.slice(0, i + 1), xs[i], ...xs.slice(i + 1)];
  });
}

const message: fc.Arbitrary<G> = fc
  .tuple(fc.constantFrom('user', 'assistant'), fc.oneof(text, withDuplicates(block, 4).map((bs) => a(...bs))), unknownEntry)
  .map(([role, content, u]) => ({ t: 'obj', entries: entries(['role', s(role)], ['content', content], u) }));

const firstMessage: fc.Arbitrary<G> = fc
  .tuple(text, fc.boolean(), withDuplicates(block, 3))
  .map(([t, asString, rest]) => {
    const tagged = s(`${CASE_PLACEHOLDER} ${t.t === 'str' ? t.v : ''}`, t.t === 'str' && t.escape);
    return o(['role', s('user')], ['content', asString && rest.length === 0 ? tagged : a(o(['type', s('text')], ['text', tagged]), ...rest)]);
  });

export const ATTRIBUTION = 'x-anthropic-billing-header: cc_version=2.1.88.a3f; cc_entrypoint=cli; cch=00000;';
const system: fc.Arbitrary<G> = fc.oneof(
  text,
  fc.tuple(fc.boolean(), withDuplicates(textBlock, 3)).map(([attr, bs]) => a(...(attr ? [o(['type', s('text')], ['text', s(ATTRIBUTION)])] : []), ...bs)),
);

const tool: fc.Arbitrary<G> = fc
  .tuple(fc.stringMatching(/^[a-z_]{1,12}$/), text, maybe(cacheControl), unknownEntry)
  .map(([name, desc, cc, u]) => ({
    t: 'obj',
    entries: entries(['name', s(name)], ['description', desc], ['input_schema', o(['type', s('object')], ['properties', o(['path', o(['type', s('string')])])])], cc && ['cache_control', cc], u),
  }));

export interface GeneratedBody {
  tree: G;
  pretty: boolean;
}

/** A whole request body: known fields in the usual order, optional ones and unknown ones mixed in. */
export const messagesBody: fc.Arbitrary<GeneratedBody> = fc
  .record({
    model: fc.constantFrom('claude-sonnet-4-5-20250929', 'claude-opus-4-1-20250805', 'claude-haiku-4-5'),
    maxTokens: number,
    first: firstMessage,
    rest: withDuplicates(message, 4),
    system: maybe(system),
    tools: maybe(fc.array(tool, { maxLength: 3 })),
    stop: maybe(fc.array(text, { maxLength: 2 })),
    metadata: maybe(fc.record({ user_id: text })),
    temperature: maybe(number),
    unknownTop: fc.array(fc.tuple(unknownKey.map((k) => `x_${k}`), fc.oneof({ weight: 4, arbitrary: anyValue }, deep)), { maxLength: 3 }),
    unknownAt: fc.nat(),
    pretty: fc.boolean(),
  })
  .map((r) => {
    const es = entries(
      ['model', s(r.model)],
      ['max_tokens', r.maxTokens],
      ['messages', a(r.first, ...r.rest)],
      r.system && ['system', r.system],
      r.tools && ['tools', a(...r.tools)],
      r.stop && ['stop_sequences', a(...r.stop)],
      r.metadata && ['metadata', o(['user_id', r.metadata.user_id])],
      r.temperature && ['temperature', r.temperature],
    );
    const seen = new Set(es.map(([k]) => k));
    for (const [k, v] of r.unknownTop) {
      if (seen.has(k)) continue;
      seen.add(k);
      es.splice(r.unknownAt % (es.length + 1), 0, [k, v]);
    }
    return { tree: { t: 'obj', entries: es } as G, pretty: r.pretty };
  });

export function bodyText(b: GeneratedBody): string {
  return serialize(b.tree, b.pretty);
}
