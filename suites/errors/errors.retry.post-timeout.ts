// RETRY-POST-1 for a read time-out: a messages POST the upstream accepts and never answers
// reaches the upstream once, whatever the gateway answers when its own time-out ends (or every
// send carries the same Idempotency-Key). Answers (502, 504) are errors.retry.post-once's case.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { messagesBody } from '../shared/protocols.js';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { attempt, withBound } from '../shared/shape.js';
import { LATE_RESEND_MS, resendProblem } from '../shared/resend.js';

/** Added to the wait for the check's own time limit, so the check reports before the runner's time-out. */
const MARGIN_MS = 5000;

export default defineCheck({
  id: 'errors.retry.post-timeout',
  title: 'A messages POST the upstream accepts and never answers is not sent again when the gateway\'s read time-out ends',
  requirements: ['RETRY-POST-1'],
  level: 'MUST',
  protocol: 'messages',
  // Only this check's request hangs (its case token): it waits beside every other check.
  background: true,
  timeLimitMs: (s) => s.hangWaitMs + MARGIN_MS,
  requirement: `The upstream accepts a messages POST (no Idempotency-Key from the client) and never answers. The check waits --hang-wait-ms for the gateway's own answer (the client's time-out is the bound: a gateway whose time-out is longer is not observed, skip, unless it already sent the request twice) and ${LATE_RESEND_MS} ms more; the upstream must have received the POST once, or every send with the same Idempotency-Key (RETRY-POST-1).`,
  fix: 'When the upstream stays silent past the gateway\'s read time-out, answer the client (a JSON 504) and do not send the POST again: the upstream may still be running it. A gateway that must retry adds one `Idempotency-Key` to the first send and the same key to every retry. nginx: leave `non_idempotent` out of `proxy_next_upstream` (its default), so that `timeout` there never resends a POST.',
  async run(ctx) {
    const e = ctx.upstream.next().hang();
    const waitMs = Math.max(500, Math.min(ctx.settings.hangWaitMs, ctx.settings.timeoutMs - 500));
    const sent = messagesBody({}, 'read time-out').split(CASE_PLACEHOLDER).join(e.token);
    const r = await attempt(() => withBound(ctx.signal, waitMs, (signal) => ctx.gateway.messages(sent, { caseToken: e.token, signal })));
    await e.waitForHits(e.hits.length + 1, LATE_RESEND_MS);
    const answered = r.ok ? `the gateway answered ${r.value.status}` : r.kind === 'transport' ? `the gateway dropped the connection (${r.error})` : `the gateway had not answered after ${waitMs} ms`;
    const judged = resendProblem(`when the upstream stayed silent (${answered})`, e.hits);
    const evidence = { waitedMs: waitMs, upstreamSends: e.hits.length, answered };
    if (judged.problem) return fail(judged.problem, { expected: 'one send upstream (or every send with the same Idempotency-Key)', actual: judged.how, evidence });
    if (!e.hits.length) return { ok: true, skip: true, message: `not observed: the request never reached the upstream (${answered})`, evidence };
    if (!r.ok && r.kind === 'timeout') return { ok: true, skip: true, message: `not observed: the gateway had not given up on the silent upstream after ${waitMs} ms (its time-out is longer; a larger --hang-wait-ms shows what it does then), and it had sent the request once so far`, evidence };
    return pass(`${judged.how}`, evidence);
  },
});
