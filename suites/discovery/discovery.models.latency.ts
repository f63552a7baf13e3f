import { defineCheck, fail, pass } from '../../src/check/check.js';
import type { Expectation } from '../../src/upstream/upstream.js';
import { CLIENT_TIMEOUT_MS, discover, discoveryEvidence, latencyStats, replyFor, type Cred, type Discovery } from './common.js';

/** 20 calls with a valid credential (both styles), then 5 without one and 5 with a bad one. */
export const PLAN: Cred[] = [
  ...Array.from({ length: 20 }, (_, i): Cred => (i % 2 ? 'x-api-key' : 'bearer')),
  ...Array.from({ length: 5 }, (): Cred => 'none'),
  ...Array.from({ length: 5 }, (_, i): Cred => (i % 2 ? 'bad-x-api-key' : 'bad-bearer')),
];

const group = (c: Cred) => (c === 'bearer' || c === 'x-api-key' ? 'valid' : c === 'none' ? 'none' : 'bad');

export default defineCheck({
  id: 'discovery.models.latency',
  title: 'GET /v1/models?limit=1000 answers within 3 s over 30 calls: valid, missing and bad credentials',
  requirements: ['DISC-3'],
  level: 'MUST',
  area: 'discovery',
  profile: 'default',
  protocol: 'messages',
  requirement:
    'Every discovery call is answered within 3 s, the client\'s time-out, measured over at least 20 calls with a valid credential plus calls without one and with a bad one; p50, p95 and max are reported (DISC-3).',
  async run(ctx) {
    // One case per credential style: the calls of a style share the scripted answer.
    const cases = new Map<Cred, Expectation>();
    const calls: Discovery[] = [];
    for (const cred of PLAN) {
      if (!cases.has(cred)) cases.set(cred, replyFor(ctx, cred));
      const d = await discover(ctx, cred, cases.get(cred));
      calls.push(d);
      // One call past the client's time-out settles it; more slow calls would only cost time.
      if (!d.res || d.ms > CLIENT_TIMEOUT_MS) break;
    }
    const ms = calls.map((d) => d.ms);
    const all = latencyStats(ms);
    const byGroup = Object.fromEntries(
      ['valid', 'none', 'bad']
        .map((g) => [g, calls.filter((d) => group(d.cred) === g).map((d) => d.ms)] as const)
        .filter(([, v]) => v.length)
        .map(([g, v]) => [g, latencyStats(v)]),
    );
    const slowest = calls.reduce((a, b) => (b.ms > a.ms ? b : a));
    const figures = `p50 ${all.p50} ms, p95 ${all.p95} ms, max ${all.max} ms over ${all.n} calls`;
    const evidence = { stats: all, byCredential: byGroup, callsMs: ms.map((v) => Math.round(v * 10) / 10), slowest: discoveryEvidence(slowest, 400) };
    const last = calls[calls.length - 1];
    if (!last.res)
      return fail(`discovery call ${calls.length} (${last.cred}) got no answer: ${last.failure} (${figures})`, { expected: `an answer within ${CLIENT_TIMEOUT_MS} ms`, actual: last.failure, evidence });
    if (all.max > CLIENT_TIMEOUT_MS)
      return fail(`discovery call ${calls.length} (${slowest.cred}) took ${Math.round(slowest.ms)} ms, past the client's ${CLIENT_TIMEOUT_MS} ms time-out; measuring stopped there (${figures})`, {
        expected: `every call within ${CLIENT_TIMEOUT_MS} ms`,
        actual: `${Math.round(slowest.ms)} ms`,
        evidence,
      });
    return pass(`${figures}; all within ${CLIENT_TIMEOUT_MS} ms`, evidence);
  },
});
