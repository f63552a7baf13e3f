import { defineCheck, fail, pass } from '../../src/check/check.js';
import { ERROR_TYPES, ERROR_MESSAGES } from '../../src/protocols/messages/index.js';
import { describeByteDiff, diffBytes, describeDiff } from '../../src/core/json-diff.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange, responseDiffs } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { describeShape, errorFields, shapeOf } from '../shared/shape.js';

export const STATUSES = [400, 401, 402, 403, 404, 409, 413, 429, 500, 504, 529];

export default defineCheck({
  id: 'errors.passthrough.status',
  title: 'Upstream errors 400, 401, 402, 403, 404, 409, 413, 429, 500, 504 and 529 reach the client with their status, type and message',
  requirements: ['ERR-PASS-1', 'MSG-RESP-2'],
  level: 'MUST',
  untranslatable: 'the upstream\'s error body, field for field',
  protocol: 'messages',
  requirement:
    'Every upstream error of the catalog reaches the client as JSON with the same HTTP status, the same error.type and the same error.message, so the client can retry or fall back (ERR-PASS-1, MSG-RESP-2). Byte equality of the body is reported, not required.',
  fix: 'Pass upstream errors through: the same status and JSON body (`error.type`, `error.message`). nginx: `proxy_intercept_errors off;` so `error_page` applies only to nginx\'s own errors.',
  async run(ctx) {
    const broken: string[] = [];
    const byteIdentical: number[] = [];
    const otherDiffs: Record<string, string[]> = {};
    let firstEvidence;
    for (const status of STATUSES) {
      const x = await exchange(ctx, messagesBody({}), { reply: (c) => c.upstream.next().error(status, { message: ERROR_MESSAGES[status] }) });
      const reply = x.expectation.reply;
      if (reply.kind !== 'json') throw new Error('harness bug: an error reply is JSON');
      const want = JSON.parse(reply.body) as { error: { type: string; message: string } };
      const shape = shapeOf(x.res);
      const got = shape.json ? errorFields(shape.parsed) : null;
      const problems: string[] = [];
      if (x.res.status !== status) problems.push(`status ${x.res.status}`);
      if (!shape.json) problems.push(`not JSON: ${describeShape(shape, x.res.text())}`);
      else if (!got) problems.push('no `error` object in the body');
      else {
        if (got.kind !== 'error') problems.push(`type ${JSON.stringify(got.kind)}`);
        if (got.type !== want.error.type) problems.push(`error.type ${JSON.stringify(got.type)}`);
        if (got.message !== want.error.message) problems.push(`error.message ${JSON.stringify(got.message)}`);
      }
      if (problems.length) {
        broken.push(`${status} ${ERROR_TYPES[status]}: ${problems.join(', ')}`);
        firstEvidence ??= exchangeEvidence(x, 800);
        continue;
      }
      const bytes = diffBytes(Buffer.from(reply.body), x.res.body);
      if (!bytes) byteIdentical.push(status);
      else {
        const d = responseDiffs(x).diffs.map(describeDiff);
        otherDiffs[String(status)] = d.length ? d : [describeByteDiff(bytes)];
      }
    }
    const evidence = { statuses: STATUSES, byteIdentical, semanticallyEqualButNotBytes: otherDiffs, firstBroken: firstEvidence };
    if (broken.length)
      return fail(`${broken.length} of ${STATUSES.length} upstream errors did not reach the client unchanged: ${broken[0]}`, {
        expected: 'the upstream status, with error.type and error.message unchanged, as JSON',
        actual: broken.join('\n'),
        evidence,
      });
    return pass(
      `all ${STATUSES.length} errors arrived with status, type and message unchanged; ${byteIdentical.length} of ${STATUSES.length} byte for byte${Object.keys(otherDiffs).length ? ` (others differ: ${Object.entries(otherDiffs).map(([s, d]) => `${s}: ${d[0]}`).join('; ')})` : ''}`,
      evidence,
    );
  },
});
