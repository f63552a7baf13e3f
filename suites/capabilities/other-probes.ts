// The chat and native protocols' capability probes: function calling (tool definitions, an
// earlier call and its result in the request; a tool call in the answer, streamed as deltas),
// images, and for chat structured outputs (a JSON schema response format, JSON content back).
import { CHAT_PATH, nativePath } from '../../src/protocols/index.js';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { chatCompletion, chatFrames, chatJsonReply, chatSseReply, chatStream } from '../../src/protocols/chat/index.js';
import { CHAT_JSON_CONTENT, CHAT_TOOL_CALL, NATIVE_FUNCTION_CALL } from '../../src/protocols/messages/index.js';
import { googleCompact, nativeFrames, nativeJsonReply, nativeResponseValue, nativeSseReply, nativeStream } from '../../src/protocols/native/index.js';
import type { Capability } from '../../src/core/capabilities.js';
import { chatBody, nativeBody } from '../shared/protocols.js';
import type { Probe } from './common.js';
import { PNG_BASE64 } from './media.js';

type Json = Record<string, unknown>;

/** A chat answer whose message is `message` (tool calls or content), JSON or as stream payloads. */
function chatAnswer(message: Json, finish: string): { json: () => string; stream: () => string[] } {
  return {
    json: () => {
      const v = JSON.parse(chatCompletion({ finishReason: finish })) as { choices: Array<{ message: Json }> };
      v.choices[0].message = { role: 'assistant', ...message, refusal: null, annotations: [] };
      return JSON.stringify(v, null, 2);
    },
    stream: () => {
      const base = chatStream({ pieces: [] }).map((p) => (p === '[DONE]' ? p : (JSON.parse(p) as Json)));
      const [first, stop, usage] = base as Json[];
      const chunk = (delta: Json, finish_reason: string | null = null) => JSON.stringify({ ...first, choices: [{ index: 0, delta, logprobs: null, finish_reason }] });
      const calls = (message.tool_calls as Array<{ id: string; type: string; function: { name: string; arguments: string } }> | undefined) ?? [];
      const content = typeof message.content === 'string' ? message.content : '';
      const mid = Math.ceil(content.length / 2);
      const deltas = [
        ...calls.flatMap((c, index) => {
          const cut = Math.floor(c.function.arguments.length / 2);
          return [chunk({ tool_calls: [{ index, id: c.id, type: c.type, function: { name: c.function.name, arguments: '' } }] }), ...[c.function.arguments.slice(0, cut), c.function.arguments.slice(cut)].map((a) => chunk({ tool_calls: [{ index, function: { arguments: a } }] }))];
        }),
        ...(content ? [content.slice(0, mid), content.slice(mid)].map((t) => chunk({ content: t })) : []),
      ];
      return [JSON.stringify(first), ...deltas, JSON.stringify({ ...stop, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: finish }] }), JSON.stringify(usage), '[DONE]'];
    },
  };
}

function chatProbe(feature: Capability, extra: Json, keep: string[], answer: ReturnType<typeof chatAnswer>): Probe {
  return {
    feature,
    body: (model, stream) => chatBody({ model, ...extra, ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}) }),
    path: () => CHAT_PATH,
    keep,
    json: () => chatJsonReply(answer.json()),
    stream: () => chatSseReply(chatFrames(answer.stream())),
    answer: ['/choices/0/message', '/choices/0/finish_reason'],
  };
}

const chatAsk = (content: unknown) => [{ role: 'system', content: 'Be brief.' }, { role: 'user', content }];
const WEATHER_PARAMS = { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, required: ['city'] };

export const CHAT_PROBES: readonly Probe[] = [
  chatProbe(
    'tools',
    {
      messages: [...chatAsk(`${CASE_PLACEHOLDER} weather in Paris and Rome?`), { role: 'assistant', content: null, tool_calls: [{ ...CHAT_TOOL_CALL, id: 'call_Earl1er0000000000000001' }] }, { role: 'tool', tool_call_id: 'call_Earl1er0000000000000001', content: '{"temperature_c":18}' }],
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Current weather', parameters: WEATHER_PARAMS } }],
      tool_choice: 'auto',
    },
    ['/messages/2', '/messages/3', '/tools', '/tool_choice'],
    chatAnswer({ content: null, tool_calls: [CHAT_TOOL_CALL] }, 'tool_calls'),
  ),
  chatProbe('images', { messages: chatAsk([{ type: 'text', text: `${CASE_PLACEHOLDER} what is in the picture?` }, { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}`, detail: 'low' } }]) }, ['/messages/1/content/1'], chatAnswer({ content: 'A white pixel.' }, 'stop')),
  chatProbe(
    'json-mode',
    { response_format: { type: 'json_schema', json_schema: { name: 'weather', strict: true, schema: { type: 'object', properties: { city: { type: 'string' }, temperature_c: { type: 'number' } }, required: ['city', 'temperature_c'], additionalProperties: false } } } },
    ['/response_format'],
    chatAnswer({ content: CHAT_JSON_CONTENT }, 'stop'),
  ),
];

function nativeProbe(feature: Capability, extra: Json, keep: string[], parts: Json[]): Probe {
  return {
    feature,
    body: () => nativeBody(extra),
    path: (model, stream) => nativePath(model, stream),
    keep,
    json: () => nativeJsonReply(JSON.stringify(nativeResponseValue({ extra: {} }), (k, v) => (k === 'parts' ? parts : v), 2)),
    stream: () => {
      const [last] = nativeStream({ pieces: ['x'] }).map((p) => JSON.parse(p) as Json);
      return nativeSseReply(nativeFrames([googleCompact(JSON.parse(JSON.stringify(last), (k, v) => (k === 'parts' ? parts : v)))]));
    },
    answer: ['/candidates/0/content'],
  };
}

const nativeAsk = (parts: Json[]) => ({ role: 'user', parts });

export const NATIVE_PROBES: readonly Probe[] = [
  nativeProbe(
    'tools',
    {
      contents: [nativeAsk([{ text: `${CASE_PLACEHOLDER} weather in Paris?` }]), { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Rome' } } }] }, { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temperature_c: 21 } } }] }],
      tools: [{ functionDeclarations: [{ name: 'get_weather', description: 'Current weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] } }] }],
    },
    ['/contents/1', '/contents/2', '/tools'],
    [NATIVE_FUNCTION_CALL],
  ),
  nativeProbe('images', { contents: [nativeAsk([{ text: `${CASE_PLACEHOLDER} what is in the picture?` }, { inlineData: { mimeType: 'image/png', data: PNG_BASE64 } }])] }, ['/contents/0/parts/1'], [{ text: 'A white pixel.' }]),
];

