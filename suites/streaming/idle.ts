// The silent streams of the idle probes (SSE-IDLE-1): the default profile's short one and the
// slow profile's long one, and how long a silence the gateway let through.
import type { SseFrame } from '../../src/upstream/scenario.js';
import { frameText, messageStream } from '../../src/upstream/replies/streams.js';
import { isStop, type StreamExchange } from './common.js';

const PING = frameText({ event: 'ping', data: '{"type": "ping"}' });

/** message_start and content_block_start, a silence of `silenceMs` (with pings every `pingEveryMs`, if set), then the rest. */
export function silentTimeline(silenceMs: number, pingEveryMs?: number): SseFrame[] {
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
export function tolerance(x: StreamExchange, silenceS: number): { survived: boolean; seconds: number } {
  if (isStop(x.res.events.at(-1)) && x.seen?.sentAt.length === x.reply.frames.length) return { survived: true, seconds: silenceS };
  const lastSent = x.seen?.sentAt.at(-1) ?? x.res.headersAt;
  const cutAt = x.seen?.closedAt ?? x.res.endedAt;
  return { survived: false, seconds: Math.round((cutAt - lastSent) / 100) / 10 };
}

