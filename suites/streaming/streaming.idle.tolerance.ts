import { defineCheck, fail, pass } from '../../src/core/check.js';
import type { SseFrame } from '../../src/upstream/scenario.js';
import { frameText, messageStream } from '../../src/upstream/replies/streams.js';
import { isStop, streamEvidence, streamExchange, type StreamExchange } from './common.js';


const PING = frameText({ event: 'ping', data: '{"type": "ping"}' });

/** message_start and content_block_start, a silence of `silenceMs` (with pings every `pingEveryMs`, if set), then the rest. */
function silentTimeline(silenceMs: number, pingEveryMs?: number): SseFrame[] {
  const ev = messageStream({ full: false, textDeltas: 1 });
  const out: SseFrame[] = [
    { gapMs: 0, data: frameText(ev[0]) },
    { gapMs: 0, data: frameText(ev[1]) },
  ];
  let rest = silenceMs;
  if (pingEveryMs)
    while (rest > pingEveryMs) {
      out.push({ gapMs: pingEveryMs, data: PING });
      rest -= pingEveryMs;
    }
  ev.slice(2).forEach((e, i) => out.push({ gapMs: i === 0 ? rest : 0, data: frameText(e) }));
  return out;
}

/**
 * Seconds of silence survived: the whole silence, or how long after the upstream's last frame
 * the connection was cut. Measured at the upstream, so a proxy that also buffers (and shows the
 * client its events only at the cut) is measured right.
 */
function tolerance(x: StreamExchange, silenceS: number): { survived: boolean; seconds: number } {
  if (isStop(x.res.events.at(-1)) && x.seen?.sentAt.length === x.reply.frames.length) return { survived: true, seconds: silenceS };
  const lastSent = x.seen?.sentAt.at(-1) ?? x.res.headersAt;
  const cutAt = x.seen?.closedAt ?? x.res.endedAt;
  return { survived: false, seconds: Math.round((cutAt - lastSent) / 100) / 10 };
}

export default defineCheck({
  id: 'streaming.idle.tolerance',
  title: 'Streams that fall silent after message_start (with and without pings) survive the configured silence',
  requirements: ['SSE-IDLE-1'],
  level: 'MUST',
  area: 'streaming',
  profile: 'slow',
  protocol: 'messages',
  requirement: 'A stream that is silent for a while (a long think before the first token) is not cut by an idle time-out shorter than the configured minimum (spec 4 rule 4).',
  timeLimitMs: (s) => s.idle.maxS * 1000 + 30_000,
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
