// Generators of native (Gemini) request bodies for the property-based body check: `contents`
// with every part kind, `systemInstruction`, `generationConfig` (with thinking, a response
// schema, penalties, seed, modalities), `safetySettings`, `tools` (functions, search, code
// execution), `toolConfig`, `cachedContent`, `labels` and unknown fields at every level, sent
// to generateContent or to streamGenerateContent?alt=sse. Values keep their textual form
// (suites/shared/gen.ts), so the bytes sent are the ones compared.
import fc from 'fast-check';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { a, anyValue, lit, maybe, number, o, s, serialize, text, type G } from '../shared/gen.js';
import { nativeSend } from '../shared/exchange.js';
import { nativeClientHeaders } from '../shared/client-headers.js';

/** A field no gateway knows yet; integer-like keys too (JS objects reorder those). */
const unknownEntry = maybe(fc.tuple(fc.oneof(fc.constantFrom('futureField', 'gwcUnknown', '10', '2'), fc.stringMatching(/^x[A-Z][a-z]{1,8}$/)), anyValue));

const textPart = fc.tuple(text, fc.boolean(), unknownEntry).map(([t, thought, u]) => o(['text', t], thought ? ['thought', lit('true')] : null, u));
const inlineData = fc.base64String({ minLength: 4, maxLength: 48 }).map((d) => o(['inlineData', o(['mimeType', s('image/png')], ['data', s(d)])]));
const functionCall = fc.tuple(fc.stringMatching(/^[a-z_]{1,10}$/), anyValue).map(([name, arg]) => o(['functionCall', o(['name', s(name)], ['args', o(['arg', arg])])]));
const functionResponse = fc.tuple(fc.stringMatching(/^[a-z_]{1,10}$/), anyValue).map(([name, out]) => o(['functionResponse', o(['name', s(name)], ['response', o(['output', out])])]));
const part = fc.oneof({ weight: 4, arbitrary: textPart }, inlineData, functionCall, functionResponse);

const turn = fc
  .tuple(fc.constantFrom('user', 'model'), fc.array(part, { minLength: 1, maxLength: 3 }), unknownEntry)
  .map(([role, parts, u]) => o(['role', s(role)], ['parts', a(...parts)], u));

const firstTurn = fc.tuple(text, fc.array(part, { maxLength: 2 })).map(([t, rest]) => o(['role', s('user')], ['parts', a(o(['text', s(`${CASE_PLACEHOLDER} ${t.t === 'str' ? t.v : ''}`)]), ...rest)]));

const generationConfig = fc
  .record({
    temperature: maybe(number),
    topP: maybe(number),
    topK: maybe(number),
    maxOutputTokens: maybe(number),
    stop: maybe(fc.array(text, { maxLength: 2 })),
    json: fc.boolean(),
    schema: maybe(anyValue),
    thinking: maybe(fc.tuple(number, fc.boolean())),
    penalties: maybe(fc.tuple(number, number)),
    seed: maybe(number),
    candidates: maybe(fc.constantFrom('1', '2')),
    modalities: maybe(fc.constantFrom(['TEXT'], ['TEXT', 'IMAGE'])),
    unknown: unknownEntry,
  })
  .map((r) =>
    o(
      r.temperature && ['temperature', r.temperature],
      r.topP && ['topP', r.topP],
      r.topK && ['topK', r.topK],
      r.maxOutputTokens && ['maxOutputTokens', r.maxOutputTokens],
      r.stop && ['stopSequences', a(...r.stop)],
      r.json ? ['responseMimeType', s('application/json')] : null,
      r.schema && ['responseSchema', o(['type', s('OBJECT')], ['properties', o(['answer', o(['type', s('STRING')])], ['x', r.schema])])],
      r.thinking && ['thinkingConfig', o(['thinkingBudget', r.thinking[0]], ['includeThoughts', lit(r.thinking[1] ? 'true' : 'false')])],
      r.penalties && ['presencePenalty', r.penalties[0]],
      r.penalties && ['frequencyPenalty', r.penalties[1]],
      r.seed && ['seed', r.seed],
      r.candidates && ['candidateCount', { t: 'num', raw: r.candidates }],
      r.modalities && ['responseModalities', a(...r.modalities.map((m) => s(m)))],
      r.unknown,
    ),
  );

const safety = fc
  .array(fc.tuple(fc.constantFrom('HARM_CATEGORY_HARASSMENT', 'HARM_CATEGORY_HATE_SPEECH', 'HARM_CATEGORY_DANGEROUS_CONTENT'), fc.constantFrom('BLOCK_NONE', 'BLOCK_ONLY_HIGH', 'OFF')), { minLength: 1, maxLength: 3 })
  .map((xs) => a(...xs.map(([c, t]) => o(['category', s(c)], ['threshold', s(t)]))));

const tools = fc
  .array(fc.tuple(fc.stringMatching(/^[a-z_]{1,12}$/), text), { minLength: 1, maxLength: 2 })
  .map((fns) =>
    a(
      o([
        'functionDeclarations',
        a(...fns.map(([name, desc]) => o(['name', s(name)], ['description', desc], ['parameters', o(['type', s('OBJECT')], ['properties', o(['path', o(['type', s('STRING')])])], ['required', a(s('path'))])]))),
      ]),
    ),
  );

/** Server-side tools a client adds beside its functions: search and code execution. */
const builtinTools = fc.subarray(['googleSearch', 'codeExecution', 'urlContext'], { minLength: 1 }).map((names) => names.map((n) => o([n, o()])));

/** A whole native request body; its first text part carries the case placeholder. */
export const generatedNativeBody: fc.Arbitrary<string> = fc
  .record({
    first: firstTurn,
    rest: fc.array(turn, { maxLength: 3 }),
    system: maybe(fc.array(text, { minLength: 1, maxLength: 2 })),
    config: maybe(generationConfig),
    safety: maybe(safety),
    tools: maybe(tools),
    builtins: maybe(builtinTools),
    cached: maybe(fc.stringMatching(/^[a-z0-9]{6,12}$/)),
    labels: maybe(fc.tuple(fc.stringMatching(/^[a-z_]{1,8}$/), fc.stringMatching(/^[a-z0-9_-]{0,12}$/))),
    toolMode: maybe(fc.constantFrom('AUTO', 'ANY', 'NONE')),
    unknownTop: fc.uniqueArray(fc.tuple(fc.stringMatching(/^x[A-Z][a-z]{1,8}$/), anyValue), { maxLength: 3, selector: ([k]) => k }),
    unknownAt: fc.nat(),
    pretty: fc.boolean(),
  })
  .map((r) => {
    const es = (o(
      ['contents', a(r.first, ...r.rest)],
      r.system && ['systemInstruction', o(['parts', a(...r.system.map((t) => o(['text', t])))])],
      r.config && ['generationConfig', r.config],
      r.safety && ['safetySettings', r.safety],
      r.tools || r.builtins ? ['tools', a(...(r.tools && r.tools.t === 'arr' ? r.tools.items : []), ...(r.builtins ?? []))] : null,
      r.toolMode && ['toolConfig', o(['functionCallingConfig', o(['mode', s(r.toolMode)])])],
      r.cached !== null ? ['cachedContent', s(`cachedContents/${r.cached}`)] : null,
      r.labels && ['labels', o([r.labels[0], s(r.labels[1])])],
    ) as Extract<G, { t: 'obj' }>).entries;
    for (const [k, v] of r.unknownTop) es.splice(r.unknownAt % (es.length + 1), 0, [k, v]);
    return serialize({ t: 'obj', entries: es }, r.pretty);
  });

/** A native body with the endpoint it goes to (generateContent, or streamGenerateContent?alt=sse, answered with a stream), now and then with x-goog-api-client. */
export const generatedNativeRequest = fc.tuple(generatedNativeBody, fc.boolean(), nativeClientHeaders).map(([body, stream, headers]) => ({ body, send: { ...nativeSend({ stream }), ...(headers.length ? { headers } : {}) } }));
