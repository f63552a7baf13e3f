// The Responses API's capability probes: function calling (a function tool, an earlier call and
// its output among the input items; a function_call item in the answer, its arguments streamed
// as deltas) and structured outputs (text.format with a JSON schema, JSON text back).
import { RESPONSES_PATH, framesOf } from '../../src/protocols/index.js';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { CHAT_JSON_CONTENT } from '../../src/protocols/messages/index.js';
import { responsesAnswer, responsesJsonReply, responsesSseReply, responsesStream } from '../../src/protocols/responses/index.js';
import type { Capability } from '../../src/core/capabilities.js';
import { responsesBody } from '../shared/protocols.js';
import type { Probe } from './common.js';

type Json = Record<string, unknown>;

const ARGS = '{"city":"Paris","unit":"celsius"}';
const WEATHER_PARAMS = { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, required: ['city'] };

function probe(feature: Capability, extra: Json, keep: string[], answer: { text: string; tool?: boolean }): Probe {
  return {
    feature,
    body: (model, stream) => responsesBody({ model, ...extra, ...(stream ? { stream: true } : {}) }),
    path: () => RESPONSES_PATH,
    keep,
    json: () => responsesJsonReply(responsesAnswer({ text: answer.text, ...(answer.tool ? { tool: { name: 'get_weather', args: ARGS } } : {}) })),
    stream: () => responsesSseReply(framesOf(responsesStream({ pieces: [answer.text.slice(0, 8), answer.text.slice(8)], ...(answer.tool ? { toolArgs: [ARGS.slice(0, 12), ARGS.slice(12)] } : {}) }))),
    answer: ['/output', '/status'],
  };
}

export const RESPONSES_PROBES: readonly Probe[] = [
  probe(
    'tools',
    {
      input: [
        { role: 'user', content: `${CASE_PLACEHOLDER} weather in Paris and Rome?` },
        { type: 'function_call', call_id: 'call_Earl1er0000000000000001', name: 'get_weather', arguments: '{"city":"Rome"}' },
        { type: 'function_call_output', call_id: 'call_Earl1er0000000000000001', output: '{"temperature_c":21}' },
      ],
      tools: [{ type: 'function', name: 'get_weather', description: 'Current weather', parameters: WEATHER_PARAMS, strict: false }],
      tool_choice: 'auto',
    },
    ['/input/1', '/input/2', '/tools', '/tool_choice'],
    { text: 'Checking Paris.', tool: true },
  ),
  probe(
    'json-mode',
    { text: { format: { type: 'json_schema', name: 'weather', strict: true, schema: { type: 'object', properties: { city: { type: 'string' }, temperature_c: { type: 'number' } }, required: ['city', 'temperature_c'], additionalProperties: false } } } },
    ['/text'],
    { text: CHAT_JSON_CONTENT },
  ),
];
