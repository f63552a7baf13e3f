// RETRY-POST-1 for answers: a messages POST the upstream answers 502, then one it answers 504,
// reaches the upstream once each (or every send carries the same Idempotency-Key). The read
// time-out's case is errors.retry.post-timeout.
import { defineCheck, fail, pass, type CheckContext } from '../../src/check/check.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { LATE_RESEND_MS, resendProblem } from '../shared/resend.js';

/** The answers after which the upstream may have run the request: a bad gateway and a gateway time-out of its own hop. */
const STATUSES = [502, 504];

async function oneStatus(ctx: CheckContext, status: number) {
  const x = await exchange(ctx, messagesBody({}, `status ${status}`), { reply: (c) => c.upstream.next().error(status) });
  await x.expectation.waitForHits(x.expectation.hits.length + 1, LATE_RESEND_MS);
  return { status, x, ...resendProblem(`after the upstream answered ${status}`, x.expectation.hits) };
}

export default defineCheck({
  id: 'errors.retry.post-once',
  title: 'A messages POST the upstream answers 502 or 504 is not sent again without an Idempotency-Key',
  requirements: ['RETRY-POST-1'],
  level: 'MUST',
  protocol: 'messages',
  requirement: `The upstream answers a messages POST (no Idempotency-Key from the client) with 502, then another with 504; each reaches the upstream once, counted until the client has its answer and ${LATE_RESEND_MS} ms more. A gateway that sends it again passes only when every send carries the same Idempotency-Key (RETRY-POST-1).`,
  fix: 'Do not resend a generating POST after a 502, a 504 or a read time-out: pass the error on and let the client, which holds its own idempotency logic, decide. A gateway that must retry adds one `Idempotency-Key` to the first send and the same key to every retry. nginx resends a POST to the next upstream only with `non_idempotent` in `proxy_next_upstream`: leave it out (the default since 1.9.13).',
  async run(ctx) {
    const all = [];
    for (const s of STATUSES) {
      const r = await oneStatus(ctx, s);
      if (r.problem) return fail(r.problem, { expected: 'one send upstream (or every send with the same Idempotency-Key)', actual: r.how, evidence: { upstreamSends: r.x.expectation.hits.length, ...exchangeEvidence(r.x, 600) } });
      all.push(r);
    }
    return pass(all.map((r) => r.how).join('; '), { upstreamSends: all.map((r) => ({ status: r.status, sends: r.x.expectation.hits.length })) });
  },
});
