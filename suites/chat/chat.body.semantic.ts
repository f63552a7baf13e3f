import { readdirSync } from 'node:fs';
import { defineCheck } from '../../src/core/check.js';
import { readText, rootPath } from '../../src/core/paths.js';
import { chatCompletion, chatJsonReply } from '../../mocks/upstream/chat.js';
import { fixturesAndProperty } from '../messages/common.js';
import { judgeSemantic } from '../messages/messages.body.semantic.js';
import { chatSend } from '../native/common.js';
import { chatBody } from './gen.js';

/** Fixed chat bodies modelled on real SDK traffic (fixtures/chat/*.json). */
export function chatFixtures(): Array<{ name: string; text: string }> {
  return readdirSync(rootPath('fixtures', 'chat'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ name: f, text: readText('fixtures', 'chat', f) }));
}

export default defineCheck({
  id: 'chat.body.semantic',
  title: 'Generated and real-looking chat bodies (messages, tools, response_format, unknown fields) arrive with the same JSON content',
  requirements: ['CHAT-BODY-1'],
  level: 'MUST',
  area: 'chat',
  profile: 'core',
  protocol: 'chat',
  requirement: 'A chat-completions request body reaches the upstream unchanged: messages of every role, tools, tool_choice, response_format, sampling fields and fields the gateway does not know, with key order, values (numbers compared exactly) and array order kept (spec 2.4).',
  async run(ctx) {
    return fixturesAndProperty(ctx, chatFixtures(), judgeSemantic, 'semantic equality of chat bodies', { bodies: chatBody, send: chatSend({ reply: chatJsonReply(chatCompletion()) }) });
  },
});
