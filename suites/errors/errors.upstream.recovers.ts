// ERR-RECOVER-1: after an upstream outage the gateway serves again within 5 s. The time is the
// gateway's: what this process's event loop was held meanwhile (src/core/stall.ts) is not counted
// against it. Over 5 s only with those holds counted: the outage is made again and the time
// measured again (at most MEASUREMENTS times; then a harness error, not a verdict); over 5 s with
// every hold taken off is the finding.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { judged, MEASUREMENTS, metered } from '../../src/core/stall.js';
import type { CheckContext } from '../../src/check/check.js';
import { GatewayTimeoutError } from '../../src/client/gateway.js';
import { messageBody } from '../../src/protocols/messages/index.js';
import { untilServingAgain } from '../../src/client/forwarded.js';
import { messagesBody } from '../shared/protocols.js';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { attempt } from '../shared/shape.js';

/** ERR-RECOVER-1: serving again within this long after the upstream is back. */
const RECOVER_MS = 5000;
/** Requests sent while the upstream is down. */
const OUTAGE_REQUESTS = 3;
/** How long the check watches for the gateway to serve again before it says it did not. */
const WATCH_MS = 15_000;

export default defineCheck({
  id: 'errors.upstream.recovers',
  title: 'After the upstream was down (connection refused) and is back, the gateway serves messages requests again within 5 s',
  requirements: ['ERR-RECOVER-1'],
  level: 'SHOULD',
  protocol: 'messages',
  // The upstream is stopped for every check while this one runs: the outage window at the end.
  outage: true,
  // It times the gateway: in the outage window it takes a timing turn (src/runner/gate.ts).
  timing: true,
  // Room for the outage to be made again while holds of this process leave the time undecided.
  timeLimitMs: () => MEASUREMENTS * WATCH_MS + 10_000,
  requirement: `After an upstream outage ends, the gateway forwards requests again within ${RECOVER_MS / 1000} s, with no sticky "backend down" state that keeps failing healthy requests; the time until the first forwarded, successful request is reported (ERR-RECOVER-1). The time is the gateway's: a wait over 5 s only with the harness's own holds counted is measured again, with a new outage.`,
  fix: 'Do not keep an upstream marked down after it is back: with one server nginx never marks it down; otherwise shorten `fail_timeout` or the health-check interval.',
  async run(ctx) {
    const { last, measured } = await judged('the time to serve again', RECOVER_MS, () => outage(ctx));
    const { rec, during, heldMs } = last;
    const evidence = { duringOutage: during, recoveredMs: rec.serving ? rec.ms : null, watchedMs: rec.ms, heldMs, probes: rec.attempts, lastProbe: rec.last, ...(measured.length > 1 ? { measured } : {}) };
    if (!rec.serving)
      return fail(`the gateway did not serve again within ${WATCH_MS / 1000} s after the upstream was back (last answer: ${rec.last})`, { expected: `serving again within ${RECOVER_MS / 1000} s`, actual: `not serving after ${rec.ms} ms`, evidence });
    if (rec.ms > RECOVER_MS)
      return fail(`the gateway served again only ${rec.ms} ms after the upstream was back (${rec.attempts} probes; the answers during the outage: ${during.join(', ')})`, { expected: `serving again within ${RECOVER_MS} ms`, actual: `${rec.ms} ms (${rec.ms - heldMs} ms with this process's holds taken off)`, evidence });
    const again = measured.length > 1 ? ` (the outage made ${measured.length} times: this process was held while the gateway recovered)` : '';
    return pass(`serving again ${rec.ms} ms after the upstream was back (${rec.attempts} probe${rec.attempts === 1 ? '' : 's'})${again}`, evidence);
  },
});

/**
 * The outage, as the gateway sees it: a few requests at once that the upstream refuses (a
 * gateway's first one may meet a pooled connection the outage closed; a passive health check
 * often counts several failures before it marks the backend down); then the wait until it serves
 * again, timed.
 */
async function outage(ctx: CheckContext) {
  const during: string[] = [];
  await ctx.upstream.suspendUpstream();
  try {
    // Sent at once: a gateway that retries the refused connection (HAProxy: 3 s each) would make them 3 s apiece in turn, time that measures nothing here.
    const sent = await Promise.all(
      Array.from({ length: OUTAGE_REQUESTS }, async () => {
        const e = ctx.upstream.next().json(messageBody());
        const body = messagesBody({}).split(CASE_PLACEHOLDER).join(e.token);
        return { e, r: await attempt(() => ctx.gateway.messages(body, { caseToken: e.token, signal: ctx.signal })) };
      }),
    );
    for (const { e, r } of sent) {
      // No answer at all while the upstream is down: the gateway hangs (the runner's time-out).
      if (!r.ok && r.kind === 'timeout') throw new GatewayTimeoutError(r.error);
      during.push(r.ok ? String(r.value.status) : r.error);
      if (e.hits.length) throw new Error('harness bug: the upstream received a request while suspended');
    }
  } finally {
    await ctx.upstream.resumeUpstream();
  }
  // The handle releases the probes' cases with the check's own.
  const { value: rec, heldMs } = await metered(() => untilServingAgain(ctx.gateway, { register: (reply) => ctx.upstream.register(reply), done: () => undefined }, { boundMs: WATCH_MS, signal: ctx.signal }));
  return { during, rec, ms: rec.ms, heldMs: Math.round(Math.min(heldMs, rec.ms)) };
}
