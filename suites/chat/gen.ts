// Generators of chat-completions (OpenAI) request bodies for the property-based body check:
// `messages` of every role (string and part-array content, tool calls and results), `tools`,
// `tool_choice` (a mode or a named function), `response_format` (text, json_object, json_schema
// with a generated schema), sampling, reasoning and bookkeeping fields, unknown fields at every
// level, and every streaming shape a client sends: `stream` absent, false or true, with
// `stream_options` absent, `include_usage` true or false. Values keep their textual form
// (suites/shared/gen.ts).
import fc from 'fast-check';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { a, anyValue, lit, maybe, number, o, s, serialize, text, type G } from '../shared/gen.js';
import { chatSend } from '../shared/exchange.js';
import { chatCompletion, chatFrames, chatJsonReply, chatSseReply, chatStream } from '../../src/protocols/chat/index.js';

const unknownEntry = maybe(fc.tuple(fc.oneof(fc.constantFrom('x_future_field', 'gwc_unknown', '10', '2'), fc.stringMatching(/^x_[a-z]{1,8}$/)), anyValue));

const textPart = fc.tuple(text, unknownEntry).map(([t, u]) => o(['type', s('text')], ['text', t], u));
const imagePart = fc.base64String({ minLength: 4, maxLength: 48 }).map((d) => o(['type', s('image_url')], ['image_url', o(['url', s(`data:image/png;base64,${d}`)], ['detail', s('low')])]));
const content = fc.oneof(text, fc.array(fc.oneof({ weight: 3, arbitrary: textPart }, imagePart), { minLength: 1, maxLength: 3 }).map((ps) => a(...ps)));

const toolCall = fc
  .tuple(fc.stringMatching(/^call_[A-Za-z0-9]{8}$/), fc.stringMatching(/^[a-z_]{1,10}$/), anyValue)
  .map(([id, name, args]) => o(['id', s(id)], ['type', s('function')], ['function', o(['name', s(name)], ['arguments', s(serialize(o(['arg', args]), false))])]));

const message = fc.oneof(
  fc.tuple(fc.constantFrom('user', 'system', 'developer'), content, unknownEntry).map(([role, c, u]) => o(['role', s(role)], ['content', c], u)),
  fc.tuple(maybe(text), fc.array(toolCall, { maxLength: 2 })).map(([c, calls]) => o(['role', s('assistant')], ['content', c ?? lit('null')], calls.length ? ['tool_calls', a(...calls)] : null)),
  fc.tuple(fc.stringMatching(/^call_[A-Za-z0-9]{8}$/), text).map(([id, c]) => o(['role', s('tool')], ['tool_call_id', s(id)], ['content', c])),
);

const firstMessage = text.map((t) => o(['role', s('user')], ['content', s(`${CASE_PLACEHOLDER} ${t.t === 'str' ? t.v : ''}`)]));

const tool = fc
  .tuple(fc.stringMatching(/^[a-z_]{1,12}$/), text, fc.boolean(), unknownEntry)
  .map(([name, desc, strict, u]) =>
    o(
      ['type', s('function')],
      [
        'function',
        o(
          ['name', s(name)],
          ['description', desc],
          ['parameters', o(['type', s('object')], ['properties', o(['path', o(['type', s('string')])])], ['required', a(s('path'))], ['additionalProperties', lit('false')])],
          strict ? ['strict', lit('true')] : null,
          u,
        ),
      ],
    ),
  );

const responseFormat = fc.oneof(
  fc.constant(o(['type', s('text')])),
  fc.constant(o(['type', s('json_object')])),
  anyValue.map((x) => {
    const schema = o(['type', s('object')], ['properties', o(['answer', o(['type', s('string')])], ['x', x])]);
    return o(['type', s('json_schema')], ['json_schema', o(['name', s('answer')], ['strict', lit('true')], ['schema', schema])]);
  }),
);

/** A mode, or one named function (`{"type":"function","function":{"name":...}}`). */
const toolChoice = fc.oneof(
  fc.constantFrom('auto', 'none', 'required').map((m) => s(m)),
  fc.stringMatching(/^[a-z_]{1,12}$/).map((name) => o(['type', s('function')], ['function', o(['name', s(name)])])),
);

/**
 * How a client asks for a stream: `stream` left out (the default, no stream), false, or true;
 * a streaming request with no `stream_options`, or with `include_usage` true or false. A
 * gateway that adds `include_usage` to a request that did not ask for it changes the body.
 */
export const streamFields: fc.Arbitrary<Array<[string, G]>> = fc.oneof(
  fc.constant<Array<[string, G]>>([]),
  fc.constant<Array<[string, G]>>([['stream', lit('false')]]),
  fc.constantFrom<Array<[string, G]>>(
    [['stream', lit('true')]],
    [['stream', lit('true')], ['stream_options', o(['include_usage', lit('true')])]],
    [['stream', lit('true')], ['stream_options', o(['include_usage', lit('false')])]],
  ),
);

/** Optional fields real clients send beside the usual ones (sampling, reasoning, bookkeeping). */
const extras = fc
  .record({
    topP: maybe(number),
    n: maybe(fc.constantFrom('1', '2')),
    penalties: maybe(fc.tuple(number, number)),
    logprobs: maybe(fc.integer({ min: 0, max: 5 })),
    parallel: maybe(fc.boolean()),
    effort: maybe(fc.constantFrom('minimal', 'low', 'medium', 'high')),
    user: maybe(text),
    store: maybe(fc.boolean()),
    metadata: maybe(fc.tuple(fc.stringMatching(/^[a-z_]{1,8}$/), text)),
    logitBias: maybe(fc.tuple(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: -100, max: 100 }))),
  })
  .map((r) =>
    (o(
      r.topP && ['top_p', r.topP],
      r.n && ['n', { t: 'num', raw: r.n }],
      r.penalties && ['frequency_penalty', r.penalties[0]],
      r.penalties && ['presence_penalty', r.penalties[1]],
      r.logprobs !== null ? ['logprobs', lit('true')] : null,
      r.logprobs !== null ? ['top_logprobs', { t: 'num', raw: String(r.logprobs) }] : null,
      r.parallel !== null ? ['parallel_tool_calls', lit(r.parallel ? 'true' : 'false')] : null,
      r.effort && ['reasoning_effort', s(r.effort)],
      r.user && ['user', r.user],
      r.store !== null ? ['store', lit(r.store ? 'true' : 'false')] : null,
      r.metadata && ['metadata', o([r.metadata[0], r.metadata[1]])],
      r.logitBias && ['logit_bias', o([String(r.logitBias[0]), { t: 'num', raw: String(r.logitBias[1]) }])],
    ) as Extract<G, { t: 'obj' }>).entries,
  );

/** A whole chat request body; its first user message carries the case placeholder. */
export const generatedChatBody: fc.Arbitrary<string> = fc
  .record({
    model: fc.constantFrom('gpt-4o-mini', 'gpt-4.1-2025-04-14', 'gemini-2.5-flash', 'service/model:with-colon'),
    system: maybe(text),
    first: firstMessage,
    rest: fc.array(message, { maxLength: 4 }),
    maxTokens: maybe(fc.tuple(fc.constantFrom('max_tokens', 'max_completion_tokens'), number)),
    temperature: maybe(number),
    tools: maybe(fc.array(tool, { minLength: 1, maxLength: 2 })),
    toolChoice: maybe(toolChoice),
    responseFormat: maybe(responseFormat),
    seed: maybe(number),
    stop: maybe(fc.array(text, { maxLength: 2 })),
    extras,
    stream: streamFields,
    unknownTop: fc.uniqueArray(fc.tuple(fc.stringMatching(/^x_[a-z]{1,8}$/), anyValue), { maxLength: 3, selector: ([k]) => k }),
    unknownAt: fc.nat(),
    pretty: fc.boolean(),
  })
  .map((r) => {
    const es = (o(
      ['model', s(r.model)],
      ['messages', a(...(r.system ? [o(['role', s('system')], ['content', r.system])] : []), r.first, ...r.rest)],
      r.maxTokens && [r.maxTokens[0], r.maxTokens[1]],
      r.temperature && ['temperature', r.temperature],
      r.tools && ['tools', a(...r.tools)],
      r.toolChoice && ['tool_choice', r.toolChoice],
      r.responseFormat && ['response_format', r.responseFormat],
      r.seed && ['seed', r.seed],
      r.stop && ['stop', a(...r.stop)],
      ...r.extras,
      ...r.stream,
    ) as Extract<G, { t: 'obj' }>).entries;
    for (const [k, v] of r.unknownTop) es.splice(r.unknownAt % (es.length + 1), 0, [k, v]);
    return serialize({ t: 'obj', entries: es }, r.pretty);
  });

/**
 * A chat body with how it is answered: a streaming request gets a stream (its usage chunk only
 * when it asked for one), the others a chat.completion.
 */
export const generatedChatRequest = generatedChatBody.map((body) => {
  const v = JSON.parse(body) as { stream?: unknown; stream_options?: { include_usage?: unknown } };
  const reply = v.stream === true ? chatSseReply(chatFrames(chatStream({ includeUsage: v.stream_options?.include_usage === true }))) : chatJsonReply(chatCompletion());
  return { body, send: chatSend({ reply }) };
});
