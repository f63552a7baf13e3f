import { defineCheck } from '../../src/check/check.js';
import { chatCompletion, chatJsonReply } from '../../src/protocols/chat/index.js';
import { generatedChatRequest } from './gen.js';
import { fixtureTexts } from '../shared/fixtures.js';
import { fixturesAndProperty, judgeSemantic, PROPERTY_TIME_LIMIT } from '../shared/property.js';
import { chatSend } from '../shared/exchange.js';

export default defineCheck({
  id: 'chat.body.semantic',
  title: 'Generated and real-looking chat bodies (messages, tools, response_format, unknown fields) arrive with the same JSON content',
  requirements: ['CHAT-BODY-1'],
  timeLimitMs: PROPERTY_TIME_LIMIT,
  level: 'MUST',
  untranslatable: 'the body\'s keys, values and order',
  protocol: 'chat',
  requirement: 'A chat-completions request body, streaming or not, reaches the upstream unchanged: messages of every role, tools, tool_choice, response_format, sampling fields and fields the gateway does not know, with key order, values (numbers compared exactly) and array order kept.',
  fix: 'Forward chat bodies unchanged: messages, tools, `tool_choice`, `response_format`, sampling fields and unknown fields, in order and with exact numbers.',
  async run(ctx) {
    return fixturesAndProperty(ctx, fixtureTexts('chat'), judgeSemantic, 'semantic equality of chat bodies', { bodies: generatedChatRequest, send: chatSend({ reply: chatJsonReply(chatCompletion()) }) });
  },
});
