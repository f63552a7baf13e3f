import { defineCheck, fail, pass } from '../../src/check/check.js';
import { streamEvidence, streamExchange } from './common.js';
import { silentTimeline, tolerance } from './idle.js';

export default defineCheck({
  id: 'streaming.idle.tolerance',
  title: 'Streams that fall silent after message_start (with and without pings) survive the configured silence',
  requirements: ['SSE-IDLE-1'],
  level: 'MUST',
  profile: 'slow',
  protocol: 'messages',
  requirement: 'A stream that is silent for a while (a long think before the first token) is not cut by an idle time-out shorter than the configured minimum.',
  // It only waits: it starts first and runs beside every other check.
  background: true,
  timeLimitMs: (s) => s.idle.maxS * 1000 + 30_000,
  fix: 'Raise the idle time-out above the configured minimum (`--idle-min-s`). nginx: `proxy_read_timeout` (default 60 s) to 600 s or more; load balancers have their own idle time-out too.',
  async run(ctx) {
    const { maxS, minS } = ctx.settings.idle;
    const pingEveryMs = Math.min(10_000, Math.floor((maxS * 1000) / 3));
    const read = { idleTimeoutMs: maxS * 1000 + 20_000 };
    // Both probes run at once: the check takes one silence, not two.
    const [quiet, pinged] = await Promise.all([streamExchange(ctx, silentTimeline(maxS * 1000), read), streamExchange(ctx, silentTimeline(maxS * 1000, pingEveryMs), read)]);
    const q = tolerance(quiet, maxS);
    const p = tolerance(pinged, maxS);
    const say = (t: typeof q, what: string) => (t.survived ? `survived ${maxS} s of silence ${what}` : `cut after ${t.seconds} s of silence ${what}`);
    const message = `${say(q, 'without pings')}; ${say(p, `with pings every ${pingEveryMs / 1000} s`)}`;
    const evidence = { toleranceWithoutPingsS: q.seconds, toleranceWithPingsS: p.seconds, survivedWithoutPings: q.survived, survivedWithPings: p.survived, maxS, minS, withoutPings: streamEvidence(quiet, 300), withPings: streamEvidence(pinged, 300) };
    if (q.survived || q.seconds >= minS) return pass(message, evidence);
    return fail(message, { expected: `at least ${minS} s of silence survived`, actual: `cut after ${q.seconds} s`, evidence });
  },
});
