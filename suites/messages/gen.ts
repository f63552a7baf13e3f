// Generators of messages-protocol request bodies for property-based body checks, built on the
// value trees of suites/shared/gen.ts: every optional field a client sends, `stream` left out,
// false or true, and unknown fields at every level.
import fc from 'fast-check';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { a, anyValue, lit, maybe, n as num, number, o, s, serialize, text, unknownKey, type G } from '../shared/gen.js';
import { messagesClientHeaders } from '../shared/client-headers.js';
import type { SendOptions } from '../shared/exchange.js';

/** A chain of nested arrays and objects, 20 to 60 deep. */
export const deep: fc.Arbitrary<G> = fc.integer({ min: 20, max: 60 }).map((d) => {
  let g: G = s('bottom');
  for (let i = 0; i < d; i++) g = i % 2 ? a(g) : o(['nest', g]);
  return g;
});

const cacheControl: fc.Arbitrary<G> = fc.constantFrom(o(['type', s('ephemeral')]), o(['type', s('ephemeral')], ['ttl', s('5m')]), o(['type', s('ephemeral')], ['ttl', s('1h')]));
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

/** A per-turn effort setting (Claude Code 2.1.330 sends it at the top level and inside a message). */
const outputConfig: fc.Arbitrary<G> = fc.constantFrom('low', 'medium', 'high').map((e) => o(['effort', s(e)]));

const message: fc.Arbitrary<G> = fc
  .tuple(fc.constantFrom('user', 'assistant'), fc.oneof(text, withDuplicates(block, 4).map((bs) => a(...bs))), maybe(outputConfig), unknownEntry)
  .map(([role, content, oc, u]) => ({ t: 'obj', entries: entries(['role', s(role)], ['content', content], oc && ['output_config', oc], u) }));

/**
 * A `system` role inside messages[] (Claude Code 2.1.330's environment block): text blocks, the
 * first with a cache_control breakpoint, sometimes a per-message output_config.
 */
const systemMessage: fc.Arbitrary<G> = fc
  .tuple(text, cacheControl, fc.array(textBlock, { maxLength: 2 }), maybe(outputConfig))
  .map(([t, cc, more, oc]) => o(['role', s('system')], ['content', a(o(['type', s('text')], ['text', t], ['cache_control', cc]), ...more)], oc && ['output_config', oc]));

const anyMessage = fc.oneof({ weight: 4, arbitrary: message }, systemMessage);

const firstMessage: fc.Arbitrary<G> = fc
  .tuple(text, fc.boolean(), withDuplicates(block, 3))
  .map(([t, asString, rest]) => {
    const tagged = s(`${CASE_PLACEHOLDER} ${t.t === 'str' ? t.v : ''}`, t.t === 'str' && t.escape);
    return o(['role', s('user')], ['content', asString && rest.length === 0 ? tagged : a(o(['type', s('text')], ['text', tagged]), ...rest)]);
  });

export const ATTRIBUTION = 'x-anthropic-billing-header: cc_version=2.1.88.a3f; cc_entrypoint=cli; cch=00000;';
/** The form Claude Code 2.1.330 sends through a gateway in print mode: no `cch`, entrypoint sdk-cli. */
export const ATTRIBUTION_SDK_CLI = 'x-anthropic-billing-header: cc_version=2.1.330.440; cc_entrypoint=sdk-cli;';
const system: fc.Arbitrary<G> = fc.oneof(
  text,
  fc
    .tuple(fc.constantFrom(null, ATTRIBUTION, ATTRIBUTION_SDK_CLI), withDuplicates(textBlock, 3))
    .map(([attr, bs]) => a(...(attr ? [o(['type', s('text')], ['text', s(attr)])] : []), ...bs)),
);

/** Extended thinking: a budget, or adaptive (Claude Code 2.1.330: `{"type":"adaptive","display":"omitted"}`). */
const thinking: fc.Arbitrary<G> = fc.oneof(
  fc.integer({ min: 1024, max: 64000 }).map((n) => o(['type', s('enabled')], ['budget_tokens', num(String(n))])),
  fc.boolean().map((display) => o(['type', s('adaptive')], display ? ['display', s('omitted')] : null)),
);

const tool: fc.Arbitrary<G> = fc
  .tuple(fc.stringMatching(/^[a-z_]{1,12}$/), text, maybe(cacheControl), unknownEntry)
  .map(([name, desc, cc, u]) => ({
    t: 'obj',
    entries: entries(['name', s(name)], ['description', desc], ['input_schema', o(['type', s('object')], ['properties', o(['path', o(['type', s('string')])])])], cc && ['cache_control', cc], u),
  }));

/** `tool_choice` in each of its forms, sometimes with parallel tool use turned off. */
const toolChoice: fc.Arbitrary<G> = fc
  .tuple(fc.constantFrom('auto', 'any', 'tool', 'none'), fc.stringMatching(/^[a-z_]{1,12}$/), fc.boolean())
  .map(([type, name, noParallel]) => o(['type', s(type)], type === 'tool' ? ['name', s(name)] : null, noParallel && type !== 'none' ? ['disable_parallel_tool_use', lit('true')] : null));

/** How a client asks for a stream: `stream` left out (no stream), false, or true. */
const stream: fc.Arbitrary<G | null> = fc.constantFrom(null, lit('false'), lit('true'));

export interface GeneratedBody {
  tree: G;
  pretty: boolean;
}

/** A whole request body: known fields in the usual order, optional ones and unknown ones mixed in. */
export const generatedMessagesBody: fc.Arbitrary<GeneratedBody> = fc
  .record({
    model: fc.constantFrom('claude-sonnet-4-5-20250929', 'claude-opus-4-1-20250805', 'claude-haiku-4-5', 'claude-opus-5-5'),
    maxTokens: number,
    first: firstMessage,
    rest: withDuplicates(anyMessage, 4),
    system: maybe(system),
    tools: maybe(fc.array(tool, { maxLength: 3 })),
    toolChoice: maybe(toolChoice),
    stop: maybe(fc.array(text, { maxLength: 2 })),
    metadata: maybe(fc.record({ user_id: text })),
    temperature: maybe(number),
    topP: maybe(number),
    topK: maybe(fc.integer({ min: 1, max: 500 })),
    serviceTier: maybe(fc.constantFrom('auto', 'standard_only')),
    stream,
    thinking: maybe(thinking),
    outputConfig: maybe(outputConfig),
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
      r.toolChoice && ['tool_choice', r.toolChoice],
      r.stop && ['stop_sequences', a(...r.stop)],
      r.metadata && ['metadata', o(['user_id', r.metadata.user_id])],
      r.temperature && ['temperature', r.temperature],
      r.topP && ['top_p', r.topP],
      r.topK !== null ? ['top_k', num(String(r.topK))] : null,
      r.serviceTier && ['service_tier', s(r.serviceTier)],
      r.thinking && ['thinking', r.thinking],
      r.outputConfig && ['output_config', r.outputConfig],
      r.stream && ['stream', r.stream],
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

/**
 * A tool round trip as @anthropic-ai/sdk 1.13.0 sends it (seen in the client profile's session):
 * a plain-string `system`, the user's turn, the assistant's tool_use and the user's tool_result,
 * streamed or not.
 */
export const toolRoundTripBody: fc.Arbitrary<GeneratedBody> = fc
  .tuple(text, fc.stringMatching(/^toolu_[A-Za-z0-9]{6}$/), text, fc.boolean(), fc.boolean())
  .map(([sys, id, result, streamed, isError]) => {
    const tool = o(['name', s('get_weather')], ['description', s('The weather in a city.')], ['input_schema', o(['type', s('object')], ['properties', o(['city', o(['type', s('string')])])], ['required', a(s('city'))])]);
    const messages = a(
      o(['role', s('user')], ['content', s(`${CASE_PLACEHOLDER} List the .txt files in this folder.`)]),
      o(['role', s('assistant')], ['content', a(o(['type', s('tool_use')], ['id', s(id)], ['name', s('get_weather')], ['input', o(['city', s('Paris')])]))]),
      o(['role', s('user')], ['content', a(o(['type', s('tool_result')], ['tool_use_id', s(id)], ['content', result], isError ? ['is_error', lit('true')] : null))]),
    );
    return { tree: o(['model', s('claude-opus-5-5')], ['max_tokens', num('1024')], ['system', sys], ['tools', a(tool)], ['messages', messages], streamed ? ['stream', lit('true')] : null), pretty: false };
  });

/** A generated messages request: a body (now and then a tool round trip) with the headers real clients send. */
export const generatedMessagesRequest: fc.Arbitrary<{ body: string; send: SendOptions }> = fc
  .tuple(fc.oneof({ weight: 6, arbitrary: generatedMessagesBody }, toolRoundTripBody), messagesClientHeaders)
  .map(([b, h]) => ({ body: bodyText(b), send: { version: h.version, ...(h.headers ? { headers: h.headers } : {}) } }));
