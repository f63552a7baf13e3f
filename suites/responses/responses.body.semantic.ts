// RESP-BODY-1: Responses API bodies, from real clients and generated, reach the upstream unchanged.
import { defineCheck } from '../../src/check/check.js';
import { responsesAnswer, responsesJsonReply } from '../../src/protocols/responses/index.js';
import { generatedResponsesRequest } from './gen.js';
import { fixtureTexts } from '../shared/fixtures.js';
import { fixturesAndProperty, judgeSemantic, PROPERTY_TIME_LIMIT } from '../shared/property.js';
import { responsesSend } from '../shared/exchange.js';

export default defineCheck({
  id: 'responses.body.semantic',
  title: 'Generated and real-looking Responses API bodies (input items, tools, reasoning, previous_response_id, text.format) arrive with the same JSON content',
  requirements: ['RESP-BODY-1'],
  timeLimitMs: PROPERTY_TIME_LIMIT,
  level: 'MUST',
  untranslatable: 'the body\'s keys, values and order',
  protocol: 'responses',
  requirement:
    'A Responses API request body, streaming or not, reaches the upstream unchanged: instructions, input as a string or as items (messages, function_call and function_call_output), tools, tool_choice, reasoning, store, previous_response_id, include, text.format, parallel_tool_calls, max_output_tokens, temperature, metadata and fields the gateway does not know, with key order, values (numbers compared exactly) and array order kept.',
  fix: 'Forward Responses API bodies unchanged: `input` items of every type, `previous_response_id`, `tools`, `tool_choice`, `reasoning`, `store`, `include`, `text.format`, `metadata` and unknown fields, in order and with exact numbers. A typed proxy must pass fields it does not know.',
  async run(ctx) {
    return fixturesAndProperty(ctx, fixtureTexts('responses'), judgeSemantic, 'semantic equality of Responses API bodies', { bodies: generatedResponsesRequest, send: responsesSend({ reply: responsesJsonReply(responsesAnswer()) }) });
  },
});
