import { defineCheck, pass } from '../../src/check/check.js';
import { chatError, chatJsonReply } from '../../src/protocols/chat/index.js';
import { errorsPassedThrough } from '../shared/error-passthrough.js';
import { chatSend, exchange } from '../shared/exchange.js';
import { chatBody } from '../shared/protocols.js';

const STATUSES = [400, 401, 403, 404, 429, 500, 503];

export default defineCheck({
  id: 'chat.errors.passthrough',
  title: 'Chat-completions errors (400, 401, 403, 404, 429, 500, 503) reach the client with their status and JSON error',
  requirements: ['ERR-PASS-1'],
  level: 'MUST',
  untranslatable: 'the upstream\'s error body, field for field',
  protocol: 'chat',
  requirement: 'An error of the chat-completions upstream reaches the client with the same HTTP status and the same JSON error (error.message, error.type, error.code, error.param), so a client can retry or fall back.',
  fix: 'Pass chat errors through with their status and JSON (`error.message`, `error.type`, `error.code`, `error.param`).',
  async run(ctx) {
    const cases = STATUSES.map((status) => ({ status, name: String(status) }));
    const failed = await errorsPassedThrough({ cases, send: (c) => exchange(ctx, chatBody(), chatSend({ reply: chatJsonReply(chatError(c.status), c.status) })) });
    return failed ?? pass(`all ${STATUSES.length} chat errors reached the client with their status and JSON body`);
  },
});
