// Generators of Responses API (OpenAI, POST /v1/responses) request bodies for the property-based
// body check, in the shapes real clients send: `instructions`, `input` as a string or as a list
// of items (messages with string or part-array content, function_call and function_call_output
// items), function `tools`, `tool_choice` (a mode or a named function), `reasoning.effort`,
// `store`, `previous_response_id`, `include`, `text.format` (text, json_object, json_schema),
// `parallel_tool_calls`, `max_output_tokens`, `temperature`, `metadata`, `stream`, and unknown
// fields. Values keep their textual form (suites/shared/gen.ts).
import fc from 'fast-check';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { a, anyValue, lit, maybe, number, o, s, serialize, text, type G } from '../shared/gen.js';
import { responsesSend } from '../shared/exchange.js';
import { responsesAnswer, responsesJsonReply, responsesSseReply, responsesStream } from '../../src/protocols/responses/index.js';
import { framesOf } from '../../src/protocols/index.js';

const callId = fc.stringMatching(/^call_[A-Za-z0-9]{12}$/);
const name = fc.stringMatching(/^[a-z_]{1,12}$/);
const bool = (b: boolean) => lit(b ? 'true' : 'false');

const inputText = text.map((t) => o(['type', s('input_text')], ['text', t]));
const outputText = text.map((t) => o(['type', s('output_text')], ['text', t]));

/** An input item: a message (typed or not, string or parts), a function call, or its output. */
const item = fc.oneof(
  fc.tuple(fc.constantFrom('user', 'developer', 'system'), fc.oneof(text, fc.array(inputText, { minLength: 1, maxLength: 2 }).map((ps) => a(...ps))), fc.boolean()).map(([role, content, typed]) => o(typed ? ['type', s('message')] : null, ['role', s(role)], ['content', content])),
  fc.array(outputText, { minLength: 1, maxLength: 2 }).map((ps) => o(['type', s('message')], ['role', s('assistant')], ['content', a(...ps)])),
  fc.tuple(callId, name, anyValue).map(([id, n, args]) => o(['type', s('function_call')], ['call_id', s(id)], ['name', s(n)], ['arguments', s(serialize(o(['arg', args]), false))])),
  fc.tuple(callId, text).map(([id, out]) => o(['type', s('function_call_output')], ['call_id', s(id)], ['output', out])),
);

const firstText = text.map((t) => `${CASE_PLACEHOLDER} ${t.t === 'str' ? t.v : ''}`);
/** `input` as one string, or a list whose first message carries the case placeholder. */
const input = fc.oneof(
  firstText.map((t) => s(t)),
  fc.tuple(firstText, fc.array(item, { maxLength: 4 })).map(([t, rest]) => a(o(['role', s('user')], ['content', a(o(['type', s('input_text')], ['text', s(t)]))]), ...rest)),
);

const tool = fc.tuple(name, text, fc.boolean()).map(([n, desc, strict]) =>
  o(['type', s('function')], ['name', s(n)], ['description', desc], ['parameters', o(['type', s('object')], ['properties', o(['path', o(['type', s('string')])])], ['required', a(s('path'))], ['additionalProperties', lit('false')])], ['strict', bool(strict)]),
);

const toolChoice = fc.oneof(fc.constantFrom('auto', 'none', 'required').map((m) => s(m)), name.map((n) => o(['type', s('function')], ['name', s(n)])));

const format = fc.oneof(
  fc.constant(o(['type', s('text')])),
  fc.constant(o(['type', s('json_object')])),
  anyValue.map((x) => o(['type', s('json_schema')], ['name', s('answer')], ['strict', lit('true')], ['schema', o(['type', s('object')], ['properties', o(['answer', o(['type', s('string')])], ['x', x])])])),
);

/** The optional fields, each present or not. */
const fields = fc.record({
  instructions: maybe(text),
  tools: maybe(fc.array(tool, { minLength: 1, maxLength: 2 })),
  toolChoice: maybe(toolChoice),
  effort: maybe(fc.constantFrom('minimal', 'low', 'medium', 'high')),
  store: maybe(fc.boolean()),
  previous: maybe(fc.stringMatching(/^resp_[0-9a-f]{48}$/)),
  include: maybe(fc.subarray(['reasoning.encrypted_content', 'message.output_text.logprobs', 'web_search_call.action.sources'], { minLength: 1 })),
  format: maybe(format),
  parallel: maybe(fc.boolean()),
  maxOutput: maybe(number),
  temperature: maybe(number),
  metadata: maybe(fc.tuple(fc.stringMatching(/^[a-z_]{1,8}$/), text)),
  stream: maybe(fc.boolean()),
  // What Codex CLI 0.171.0 sends besides (docs/real-clients-captured.md): a cache key, its client
  // metadata, and the text verbosity beside (or instead of) a format.
  cacheKey: maybe(fc.uuid()),
  clientMetadata: maybe(fc.tuple(fc.stringMatching(/^[a-z_]{1,8}$/), text)),
  verbosity: maybe(fc.constantFrom('low', 'medium', 'high')),
});

/** A whole Responses API body; its first input message carries the case placeholder. */
export const generatedResponsesBody: fc.Arbitrary<string> = fc
  .record({
    model: fc.constantFrom('gpt-4.1-mini', 'gpt-5-codex', 'o4-mini-2025-04-16', 'service/model:with-colon'),
    input,
    f: fields,
    unknownTop: fc.uniqueArray(fc.tuple(fc.stringMatching(/^x_[a-z]{1,8}$/), anyValue), { maxLength: 2, selector: ([k]) => k }),
    unknownAt: fc.nat(),
    pretty: fc.boolean(),
  })
  .map(({ model, input: inp, f, unknownTop, unknownAt, pretty }) => {
    const es = (o(
      ['model', s(model)],
      f.instructions ? ['instructions', f.instructions] : null,
      f.previous ? ['previous_response_id', s(f.previous)] : null,
      ['input', inp],
      f.tools && ['tools', a(...f.tools)],
      f.toolChoice && ['tool_choice', f.toolChoice],
      f.parallel !== null ? ['parallel_tool_calls', bool(f.parallel)] : null,
      f.effort && ['reasoning', o(['effort', s(f.effort)])],
      f.store !== null ? ['store', bool(f.store)] : null,
      f.include && ['include', a(...f.include.map((i) => s(i)))],
      f.format || f.verbosity ? ['text', o(f.format ? ['format', f.format] : null, f.verbosity ? ['verbosity', s(f.verbosity)] : null)] : null,
      f.maxOutput && ['max_output_tokens', f.maxOutput],
      f.temperature && ['temperature', f.temperature],
      f.metadata && ['metadata', o([f.metadata[0], f.metadata[1]])],
      f.stream !== null ? ['stream', bool(f.stream)] : null,
      f.cacheKey ? ['prompt_cache_key', s(f.cacheKey)] : null,
      f.clientMetadata && ['client_metadata', o([f.clientMetadata[0], f.clientMetadata[1]])],
    ) as Extract<G, { t: 'obj' }>).entries;
    for (const [k, v] of unknownTop) es.splice(unknownAt % (es.length + 1), 0, [k, v]);
    return serialize({ t: 'obj', entries: es }, pretty);
  });

/** A Responses body with how it is answered: a streaming request gets a stream of events, the others a response object. */
export const generatedResponsesRequest = generatedResponsesBody.map((body) => {
  const streamed = (JSON.parse(body) as { stream?: unknown }).stream === true;
  return { body, send: responsesSend({ reply: streamed ? responsesSseReply(framesOf(responsesStream())) : responsesJsonReply(responsesAnswer()) }) };
});
