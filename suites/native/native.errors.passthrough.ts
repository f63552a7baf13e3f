import { defineCheck, fail, pass } from '../../src/check/check.js';
import { describeDiff } from '../../src/core/compare.js';
import { tryParse } from '../../src/core/json.js';
import { nativeBadKey, nativeError, nativeJsonReply } from '../../src/upstream/replies/native.js';
import { exchange, nativeSend, responseDiffs } from '../shared/exchange.js';
import { exchangeEvidence, cut } from '../shared/evidence.js';
import { nativeBody } from '../shared/protocols.js';

// The statuses the native API answers with; 400 twice: a bad request and a bad key.
const CASES: Array<{ status: number; name: string; body: () => string }> = [
  { status: 400, name: '400 INVALID_ARGUMENT', body: () => nativeError(400) },
  { status: 400, name: '400 INVALID_ARGUMENT (API key not valid)', body: nativeBadKey },
  ...[403, 404, 429, 500, 503, 504].map((status) => ({ status, name: `${status} ${JSON.parse(nativeError(status)).error.status}`, body: () => nativeError(status) })),
];

export default defineCheck({
  id: 'native.errors.passthrough',
  title: 'Native errors (400, a bad key, 403, 404, 429, 500, 503, 504) reach the client with their status and JSON error',
  requirements: ['ERR-PASS-1'],
  level: 'MUST',
  area: 'native',
  profile: 'default',
  untranslatable: 'the upstream\'s error body, field for field',
  protocol: 'native',
  requirement: "An error of the native upstream reaches the client with the same HTTP status and the same JSON error (error.code, error.status, error.message, details), so a client can tell a bad key from a quota from an outage.",
  async run(ctx) {
    for (const c of CASES) {
      const x = await exchange(ctx, nativeBody(), nativeSend({ reply: nativeJsonReply(c.body(), c.status) }));
      const ev = exchangeEvidence(x);
      const got = tryParse(x.res.text());
      if (x.res.status !== c.status || !got.ok) {
        const html = /<html|<!doctype/i.test(x.res.text());
        return fail(`the upstream's ${c.name} reached the client as ${x.res.status}${!got.ok ? (html ? ' with an HTML page' : ' with a body that is not JSON') : ''}`, {
          expected: `${c.status} with the upstream's JSON error`,
          actual: `${x.res.status} ${x.res.header('content-type') ?? ''}: ${cut(x.res.text(), 200)}`,
          evidence: ev,
        });
      }
      const { diffs } = responseDiffs(x);
      if (diffs.length) return fail(`the upstream's ${c.name} error body changed on the way: ${describeDiff(diffs[0])}`, { expected: "the upstream's error body", actual: diffs.map(describeDiff).join('\n'), evidence: { diffs, ...ev } });
    }
    return pass(`all ${CASES.length} native errors reached the client with their status and JSON body`);
  },
});
