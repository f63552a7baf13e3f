// Generators of chat-completions (OpenAI) request bodies for the property-based body check:
// `messages` of every role (string and part-array content, tool calls and results), `tools`,
// `tool_choice`, `response_format` (json_schema with a generated schema), sampling fields and
// unknown fields at every level. Values keep their textual form (suites/shared/gen.ts).
import fc from 'fast-check';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { a, anyValue, lit, maybe, number, o, s, serialize, text, type G } from '../shared/gen.js';

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
  fc.constant(o(['type', s('json_object')])),
  anyValue.map((x) => {
    const schema = o(['type', s('object')], ['properties', o(['answer', o(['type', s('string')])], ['x', x])]);
    return o(['type', s('json_schema')], ['json_schema', o(['name', s('answer')], ['strict', lit('true')], ['schema', schema])]);
  }),
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
    toolChoice: maybe(fc.constantFrom('auto', 'none', 'required')),
    responseFormat: maybe(responseFormat),
    seed: maybe(number),
    stop: maybe(fc.array(text, { maxLength: 2 })),
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
      r.toolChoice && ['tool_choice', s(r.toolChoice)],
      r.responseFormat && ['response_format', r.responseFormat],
      r.seed && ['seed', r.seed],
      r.stop && ['stop', a(...r.stop)],
      ['stream', lit('false')],
    ) as Extract<G, { t: 'obj' }>).entries;
    for (const [k, v] of r.unknownTop) es.splice(r.unknownAt % (es.length + 1), 0, [k, v]);
    return serialize({ t: 'obj', entries: es }, r.pretty);
  });
