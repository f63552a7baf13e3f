// The silent streams of the idle probes (SSE-IDLE-1): the default profile's short one and the
// slow profile's long one, and how long a silence the gateway let through.
import type { SseFrame } from '../../src/upstream/scenario.js';
import { frameText, messageStream } from '../../src/protocols/messages/index.js';
import type { CheckContext } from '../../src/check/check.js';
import type { Reply } from '../../src/upstream/scenario.js';
import type { Expectation } from '../../src/upstream/upstream.js';
import { GatewayTimeoutError } from '../../src/client/gateway.js';
import { isStop, streamExchange, type StreamExchange } from './common.js';

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
  // The frames the upstream was to write: the script's, or as many as it became in the protocol the request arrived in.
  const planned = x.seen?.framesFrom?.length ?? x.reply.frames.length;
  if (isStop(x.res.events.at(-1)) && x.seen?.sentAt.length === planned) return { survived: true, seconds: silenceS };
  const lastSent = x.seen?.sentAt.at(-1) ?? x.res.headersAt;
  const cutAt = x.seen?.closedAt ?? x.res.endedAt;
  return { survived: false, seconds: Math.round((cutAt - lastSent) / 100) / 10 };
}


/**
 * A silent stream through the gateway. A gateway that forwards nothing within the check's
 * ordinary limit (--timeout-ms) is a gateway that hangs: that is a time-out at once, not after
 * the whole silence. (The client's read limits stay long: a buffering gateway may hold even the
 * response headers back until the end of the silence.)
 */
export async function silentExchange(ctx: CheckContext, frames: SseFrame[], read: { idleTimeoutMs: number }): Promise<StreamExchange> {
  let expectation: Expectation | undefined;
  const upstream = Object.create(ctx.upstream, { register: { value: (reply: Reply) => (expectation = ctx.upstream.register(reply)) } }) as CheckContext['upstream'];
  const exchange = streamExchange({ ...ctx, upstream }, frames, read);
  exchange.catch(() => undefined); // awaited below; a time-out here leaves it to the runner's abort
  const forwarded = expectation ? expectation.received(ctx.settings.timeoutMs).then((r) => r ?? 'nothing') : Promise.resolve(null);
  const first = await Promise.race([exchange, forwarded]);
  if (first === 'nothing') throw new GatewayTimeoutError(`the gateway forwarded nothing to the upstream within ${ctx.settings.timeoutMs} ms`);
  return exchange;
}
