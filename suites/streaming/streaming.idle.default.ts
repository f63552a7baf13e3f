import { defineCheck, fail, pass } from '../../src/check/check.js';
import { streamEvidence } from './common.js';
import { silentExchange, silentTimeline, tolerance } from './idle.js';

/**
 * The default profile's silence, clear of the round time-outs on either side so that no verdict
 * rests on milliseconds: 2 s past a 10 s idle time-out (one that cuts exactly the silence tested
 * passed by milliseconds when the silence was 10 s), 3 s under Envoy's 15 s default route
 * time-out (which also cuts a stream of 15 s in all), and far under nginx's 60 s
 * `proxy_read_timeout`. The run's longest probe (the 16 s keepalive stream) still outlasts it.
 * The slow profile's streaming.idle.tolerance measures the longer silences those defaults cut.
 */
const SILENCE_S = 12;
/** The defaults this silence stays clear of, named in the check's messages. */
const CLEAR_OF = "a 10 s idle time-out and Envoy's 15 s default route time-out";

export default defineCheck({
  id: 'streaming.idle.default',
  title: `A stream that falls silent for ${SILENCE_S} s after message_start is not cut`,
  requirements: ['SSE-IDLE-1'],
  level: 'MUST',
  protocol: 'messages',
  // It only waits: it starts first and runs beside every other check, adding nothing beyond its silence.
  background: true,
  timeLimitMs: (s) => SILENCE_S * 1000 + Math.max(s.timeoutMs, 15_000),
  requirement: `A stream silent for ${SILENCE_S} s without a byte (a long think before the first token) is neither cut nor ended early: the client gets the rest of the stream after the silence. ${SILENCE_S} s stays clear of ${CLEAR_OF} and of nginx's 60 s proxy_read_timeout, so a gateway with either default passes by seconds, not milliseconds, and one that cuts a silence of a few seconds fails; the slow profile's streaming.idle.tolerance probes longer silences.`,
  fix: 'Raise the proxy\'s read (idle) time-out, and any time-out on the whole response (Envoy\'s route `timeout`, 15 s by default), well above 12 s; a model may think for minutes before the first token. nginx: `proxy_read_timeout 600s;`.',
  async run(ctx) {
    const x = await silentExchange(ctx, silentTimeline(SILENCE_S * 1000), { idleTimeoutMs: SILENCE_S * 1000 + 10_000 });
    const t = tolerance(x, SILENCE_S);
    const evidence = { silenceS: SILENCE_S, survived: t.survived, toleranceS: t.seconds, stream: streamEvidence(x, 300) };
    if (t.survived) return pass(`survived ${SILENCE_S} s of silence without pings (a silence kept clear of ${CLEAR_OF}; longer ones: the slow profile's streaming.idle.tolerance)`, evidence);
    return fail(`the stream was cut after ${t.seconds} s of silence: an idle or response time-out under ${SILENCE_S} s (the silence is kept clear of ${CLEAR_OF})`, { expected: `a silence of ${SILENCE_S} s survived`, actual: `cut after ${t.seconds} s`, evidence });
  },
});
