import { defineCheck, fail, pass } from '../../src/check/check.js';
import { streamEvidence } from './common.js';
import { silentExchange, silentTimeline, tolerance } from './idle.js';

/** The default profile's silence: longer than the 10 s idle time-outs common in proxies, short enough for every run. */
const SILENCE_S = 15;

export default defineCheck({
  id: 'streaming.idle.default',
  title: `A stream that falls silent for ${SILENCE_S} s after message_start is not cut`,
  requirements: ['SSE-IDLE-1'],
  level: 'MUST',
  area: 'streaming',
  profile: 'default',
  protocol: 'messages',
  // It only waits: it starts first and runs beside every other check, adding nothing beyond its silence.
  background: true,
  timeLimitMs: (s) => SILENCE_S * 1000 + Math.max(s.timeoutMs, 15_000),
  requirement: `A stream silent for ${SILENCE_S} s without a byte (a long think before the first token) is neither cut nor ended early: the client gets the rest of the stream after the silence. The slow profile's streaming.idle.tolerance probes longer silences.`,
  async run(ctx) {
    const x = await silentExchange(ctx, silentTimeline(SILENCE_S * 1000), { idleTimeoutMs: SILENCE_S * 1000 + 10_000 });
    const t = tolerance(x, SILENCE_S);
    const evidence = { silenceS: SILENCE_S, survived: t.survived, toleranceS: t.seconds, stream: streamEvidence(x, 300) };
    if (t.survived) return pass(`survived ${SILENCE_S} s of silence without pings`, evidence);
    return fail(`the stream was cut after ${t.seconds} s of silence`, { expected: `a silence of ${SILENCE_S} s survived`, actual: `cut after ${t.seconds} s`, evidence });
  },
});
