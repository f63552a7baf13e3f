import { defineCheck, pass } from '../../src/check/check.js';
import { nativeBadKey, nativeError, nativeJsonReply } from '../../src/protocols/native/index.js';
import { errorsPassedThrough } from '../shared/error-passthrough.js';
import { exchange, nativeSend } from '../shared/exchange.js';
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
  untranslatable: 'the upstream\'s error body, field for field',
  protocol: 'native',
  requirement: "An error of the native upstream reaches the client with the same HTTP status and the same JSON error (error.code, error.status, error.message, details), so a client can tell a bad key from a quota from an outage.",
  fix: 'Pass native errors through with their status and JSON (`error.code`, `error.status`, `error.message`, `details`).',
  async run(ctx) {
    const failed = await errorsPassedThrough({ cases: CASES, send: (c) => exchange(ctx, nativeBody(), nativeSend({ reply: nativeJsonReply(c.body(), c.status) })) });
    return failed ?? pass(`all ${CASES.length} native errors reached the client with their status and JSON body`);
  },
});
