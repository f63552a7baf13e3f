import { defineCheck, fail, pass } from '../../src/check/check.js';
import { GatewayTimeoutError } from '../../src/client/gateway.js';
import { messageBody } from '../../src/upstream/replies/messages.js';
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
  area: 'errors',
  profile: 'default',
  protocol: 'messages',
  // The upstream is stopped for every check while this one runs: the outage window at the end.
  outage: true,
  timeLimitMs: () => WATCH_MS + 10_000,
  requirement: `After an upstream outage ends, the gateway forwards requests again within ${RECOVER_MS / 1000} s, with no sticky "backend down" state that keeps failing healthy requests; the time until the first forwarded, successful request is reported (ERR-RECOVER-1).`,
  async run(ctx) {
    // The outage, as the gateway sees it: a few requests the upstream refuses (a gateway's
    // first one may meet a pooled connection the outage closed; a passive health check often
    // counts several failures before it marks the backend down).
    const during: string[] = [];
    await ctx.upstream.suspendUpstream();
    try {
      for (let i = 0; i < OUTAGE_REQUESTS; i++) {
        const e = ctx.upstream.next().json(messageBody());
        const sent = messagesBody({}).split(CASE_PLACEHOLDER).join(e.token);
        const r = await attempt(() => ctx.gateway.messages(sent, { caseToken: e.token, signal: ctx.signal }));
        // No answer at all while the upstream is down: the gateway hangs (the runner's time-out).
        if (!r.ok && r.kind === 'timeout') throw new GatewayTimeoutError(r.error);
        during.push(r.ok ? String(r.value.status) : r.error);
        if (e.hits.length) throw new Error('harness bug: the upstream received a request while suspended');
      }
    } finally {
      await ctx.upstream.resumeUpstream();
    }
    // The handle releases the probes' cases with the check's own.
    const rec = await untilServingAgain(ctx.gateway, { register: (reply) => ctx.upstream.register(reply), done: () => undefined }, { boundMs: WATCH_MS, signal: ctx.signal });
    const evidence = { duringOutage: during, recoveredMs: rec.serving ? rec.ms : null, watchedMs: rec.ms, probes: rec.attempts, lastProbe: rec.last };
    if (!rec.serving)
      return fail(`the gateway did not serve again within ${WATCH_MS / 1000} s after the upstream was back (last answer: ${rec.last})`, { expected: `serving again within ${RECOVER_MS / 1000} s`, actual: `not serving after ${rec.ms} ms`, evidence });
    if (rec.ms > RECOVER_MS)
      return fail(`the gateway served again only ${rec.ms} ms after the upstream was back (${rec.attempts} probes; the answers during the outage: ${during.join(', ')})`, { expected: `serving again within ${RECOVER_MS} ms`, actual: `${rec.ms} ms`, evidence });
    return pass(`serving again ${rec.ms} ms after the upstream was back (${rec.attempts} probe${rec.attempts === 1 ? '' : 's'})`, evidence);
  },
});
