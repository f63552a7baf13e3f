// SSE-LONG-1 by duration: a stream that lasts longer than a deadline on the whole response
// (Envoy's 15 s default route time-out, the widespread one under a minute) reaches the client
// whole. No other stream of the default profile lasts that long with its end judged (the
// keepalive probe lasts 16 s but judges only the gaps between bytes), so a route that ends every
// response at 15 s passed. 16 s: past 15 s by a second that load can only lengthen (the upstream
// writes on its own clock, so the response lasts at least that long), and no longer than the
// keepalive probe it runs beside, so the run is not lengthened. A deadline of 30 s or more is
// not probed: it would add 15 s to every run.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import type { SseFrame } from '../../src/upstream/scenario.js';
import { frameText, messageStream } from '../../src/protocols/messages/index.js';
import { isStop, notStreamed, streamEvidence, streamExchange } from './common.js';

/** The stream's length: a text delta every GAP_S after content_block_start. */
export const DURATION_S = 16;
/** Few gaps, so that timers late under load add little (each gap is scheduled after the one before), and no silence near a common idle time-out. */
const GAP_S = 2;
/** The deadline the stream outlasts, named in its messages. */
const OUTLASTS = "Envoy's 15 s default route time-out";

/** message_start and content_block_start at once, then a text delta every GAP_S for DURATION_S s, then the end. */
function timeline(): SseFrame[] {
  const ev = messageStream({ full: false, textDeltas: DURATION_S / GAP_S });
  return ev.map((e, i) => ({ gapMs: i >= 2 && e.event === 'content_block_delta' ? GAP_S * 1000 : 0, data: frameText(e) }));
}

export default defineCheck({
  id: 'streaming.long.duration',
  title: `A stream that lasts ${DURATION_S} s, past a 15 s deadline on the whole response, arrives complete`,
  requirements: ['SSE-LONG-1'],
  level: 'MUST',
  untranslatable: "the upstream's events one for one",
  protocol: 'messages',
  // It only waits, beside the keepalive probe (as long) and every other check.
  background: true,
  timeLimitMs: (s) => DURATION_S * 1000 + Math.max(s.timeoutMs, 15_000),
  requirement: `A messages stream that goes on for ${DURATION_S} s (a text delta every ${GAP_S} s, never silent for longer) reaches the client whole, ending with message_stop: no deadline on the whole response cuts it (${DURATION_S} s outlasts ${OUTLASTS}).`,
  fix: "Take the total time-out off streamed routes, or set it to many minutes: a model's answer with thinking and tool calls streams for minutes. Envoy: `timeout: 0s` on the route (and `stream_idle_timeout` for silences); an API gateway's integration time-out likewise.",
  async run(ctx) {
    const frames = timeline();
    const x = await streamExchange(ctx, frames, { idleTimeoutMs: Math.max(ctx.settings.timeoutMs, 10_000) });
    if (!x.seen) return notStreamed(x);
    const planned = x.seen.framesFrom?.length ?? frames.length;
    const lastedS = Math.round((x.res.endedAt - x.res.startedAt) / 100) / 10;
    const lastEvent = x.res.events.at(-1);
    const lastAtS = lastEvent ? Math.round((lastEvent.arrivedAt - x.res.startedAt) / 100) / 10 : 0;
    const evidence = { durationS: DURATION_S, lastedS, lastEventAtS: lastAtS, upstreamFramesWritten: x.seen.sentAt.length, upstreamFramesPlanned: planned, stream: streamEvidence(x, 300) };
    if (x.res.status !== 200) return notStreamed(x);
    if (isStop(x.res.events.at(-1)) && x.res.events.length === frames.length && x.seen.sentAt.length === planned)
      return pass(`the ${DURATION_S} s stream arrived whole (${frames.length} events, ending with message_stop, in ${lastedS} s)`, evidence);
    // More events than were sent, ending as sent: the gateway rewrote the stream's events (others judge that), it was not cut.
    if (isStop(x.res.events.at(-1)) && x.res.events.length > frames.length)
      return fail(`the ${DURATION_S} s stream arrived to its end (message_stop, ${lastedS} s) but as ${x.res.events.length} events where ${frames.length} were sent: the gateway split or added events (streaming.frame.events says which), so whether it arrived whole cannot be read event by event`, {
        expected: `${frames.length} events over ${DURATION_S} s, ending with message_stop`,
        actual: `${x.res.events.length} events in ${lastedS} s`,
        evidence,
      });
    return fail(`the stream ended after ${x.res.events.length} of its ${frames.length} events${x.res.error ? ` (${x.res.error})` : ', without an error'}, the last ${lastAtS} s after the request, of a stream that lasts ${DURATION_S} s: a deadline on the whole response (${OUTLASTS} is one)`, {
      expected: `${frames.length} events over ${DURATION_S} s, ending with message_stop`,
      actual: `${x.res.events.length} events in ${lastedS} s, the last ${JSON.stringify(x.res.events.at(-1)?.event ?? null)}`,
      evidence,
    });
  },
});
