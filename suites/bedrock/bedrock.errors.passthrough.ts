import { defineCheck, fail, pass } from '../../src/check/check.js';
import { describeDiff } from '../../src/core/json-diff.js';
import { tryParse } from '../../src/core/json.js';
import { bedrockErrorReply, bedrockErrorType } from '../../src/protocols/bedrock/index.js';
import { exchange, responseDiffs } from '../shared/exchange.js';
import { exchangeEvidence, excerpt } from '../shared/evidence.js';
import { bedrockSend, bedrockBody } from './common.js';

const STATUSES = [400, 403, 404, 429, 500, 503];

export default defineCheck({
  id: 'bedrock.errors.passthrough',
  title: 'Bedrock errors (400, 403, 404, 429, 500, 503) reach the client with their status, x-amzn-errortype and JSON message',
  requirements: ['BR-ERR-1'],
  level: 'MUST',
  untranslatable: "the upstream's error body and its x-amzn-errortype header",
  protocol: 'bedrock',
  requirement: 'An error of the Bedrock upstream reaches the client with the same HTTP status, the same `x-amzn-errortype` header (the AWS SDK names the exception from it) and the same JSON body `{"message": ...}`, so a client throttles, retries or reports it as the service meant.',
  fix: 'Pass Bedrock errors through with their status, the `x-amzn-errortype` header and the JSON `{"message": ...}` body; never replace them with an HTML error page.',
  async run(ctx) {
    for (const status of STATUSES) {
      const x = await exchange(ctx, bedrockBody(), bedrockSend({ reply: bedrockErrorReply(status) }));
      const ev = exchangeEvidence(x);
      const got = tryParse(x.res.text());
      if (x.res.status !== status || !got.ok) {
        const html = /<html|<!doctype/i.test(x.res.text());
        return fail(`the upstream's ${status} reached the client as ${x.res.status}${!got.ok ? (html ? ' with an HTML page' : ' with a body that is not JSON') : ''}: the AWS SDK cannot name the exception`, {
          expected: `${status} with {"message": ...} and x-amzn-errortype`,
          actual: `${x.res.status} ${x.res.header('content-type') ?? ''}: ${excerpt(x.res.text(), 200)}`,
          evidence: ev,
        });
      }
      const type = x.res.header('x-amzn-errortype');
      if (type !== bedrockErrorType(status)) return fail(`the upstream's ${status} reached the client with x-amzn-errortype ${type === undefined ? 'missing' : JSON.stringify(type)}`, { expected: bedrockErrorType(status), actual: type ?? '(no header)', evidence: ev });
      const { diffs } = responseDiffs(x);
      if (diffs.length) return fail(`the upstream's ${status} error body changed on the way: ${describeDiff(diffs[0])}`, { expected: "the upstream's error body", actual: diffs.map(describeDiff).join('\n'), evidence: { diffs, ...ev } });
    }
    return pass(`all ${STATUSES.length} Bedrock errors reached the client with their status, x-amzn-errortype and JSON message`);
  },
});
