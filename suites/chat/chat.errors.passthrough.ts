import { defineCheck, fail, pass } from '../../src/check/check.js';
import { describeDiff } from '../../src/core/compare.js';
import { tryParse } from '../../src/core/json.js';
import { chatError, chatJsonReply } from '../../src/upstream/replies/chat.js';
import { chatSend, exchange, responseDiffs } from '../shared/exchange.js';
import { chatBody } from '../shared/protocols.js';
import { exchangeEvidence, cut } from '../shared/evidence.js';

const STATUSES = [400, 401, 403, 404, 429, 500, 503];

export default defineCheck({
  id: 'chat.errors.passthrough',
  title: 'Chat-completions errors (400, 401, 403, 404, 429, 500, 503) reach the client with their status and JSON error',
  requirements: ['ERR-PASS-1'],
  level: 'MUST',
  area: 'chat',
  profile: 'default',
  untranslatable: 'the upstream\'s error body, field for field',
  protocol: 'chat',
  requirement: 'An error of the chat-completions upstream reaches the client with the same HTTP status and the same JSON error (error.message, error.type, error.code, error.param), so a client can retry or fall back.',
  async run(ctx) {
    for (const status of STATUSES) {
      const x = await exchange(ctx, chatBody(), chatSend({ reply: chatJsonReply(chatError(status), status) }));
      const ev = exchangeEvidence(x);
      const got = tryParse(x.res.text());
      if (x.res.status !== status || !got.ok) {
        const html = /<html|<!doctype/i.test(x.res.text());
        return fail(`the upstream's ${status} reached the client as ${x.res.status}${!got.ok ? (html ? ' with an HTML page' : ' with a body that is not JSON') : ''}`, {
          expected: `${status} with the upstream's JSON error`,
          actual: `${x.res.status} ${x.res.header('content-type') ?? ''}: ${cut(x.res.text(), 200)}`,
          evidence: ev,
        });
      }
      const { diffs } = responseDiffs(x);
      if (diffs.length) return fail(`the upstream's ${status} error body changed on the way: ${describeDiff(diffs[0])}`, { expected: "the upstream's error body", actual: diffs.map(describeDiff).join('\n'), evidence: { diffs, ...ev } });
    }
    return pass(`all ${STATUSES.length} chat errors reached the client with their status and JSON body`);
  },
});
