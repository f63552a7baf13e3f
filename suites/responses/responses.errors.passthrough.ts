// RESP-ERR-1: errors of the Responses API upstream reach the client with their status and OpenAI error body.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { describeDiff } from '../../src/core/json-diff.js';
import { tryParse } from '../../src/core/json.js';
import { chatError } from '../../src/protocols/chat/index.js';
import { responsesJsonReply } from '../../src/protocols/responses/index.js';
import { exchange, responseDiffs, responsesSend } from '../shared/exchange.js';
import { responsesBody } from '../shared/protocols.js';
import { exchangeEvidence, excerpt } from '../shared/evidence.js';

const STATUSES = [400, 401, 404, 429, 500, 503];

export default defineCheck({
  id: 'responses.errors.passthrough',
  title: 'Responses API errors (400, 401, 404, 429, 500, 503) reach the client with their status and OpenAI JSON error',
  requirements: ['RESP-ERR-1'],
  level: 'MUST',
  untranslatable: 'the upstream\'s error body, field for field',
  protocol: 'responses',
  requirement: 'An error of the Responses API upstream reaches the client with the same HTTP status and the same OpenAI error body ({"error": {"message", "type", "param", "code"}}), so a client can retry, wait or give up as the upstream meant.',
  fix: 'Pass upstream errors on /v1/responses with their status and OpenAI error body (`error.message`, `type`, `param`, `code`); do not rewrite them into the gateway\'s own error shape.',
  async run(ctx) {
    for (const status of STATUSES) {
      // OpenAI's error shape is the same on /v1/responses as on /v1/chat/completions.
      const x = await exchange(ctx, responsesBody(), responsesSend({ reply: responsesJsonReply(chatError(status), status) }));
      const ev = exchangeEvidence(x);
      const got = tryParse(x.res.text());
      if (x.res.status !== status || !got.ok)
        return fail(`the upstream's ${status} reached the client as ${x.res.status}${got.ok ? '' : ' with a body that is not JSON'}`, { expected: `${status} with the upstream's JSON error`, actual: `${x.res.status} ${x.res.header('content-type') ?? ''}: ${excerpt(x.res.text(), 200)}`, evidence: ev });
      const { diffs } = responseDiffs(x);
      if (diffs.length) return fail(`the upstream's ${status} error body changed on the way: ${describeDiff(diffs[0])}`, { expected: "the upstream's OpenAI error body", actual: diffs.map(describeDiff).join('\n'), evidence: { diffs, ...ev } });
    }
    return pass(`all ${STATUSES.length} errors reached the client with their status and OpenAI error body`);
  },
});
