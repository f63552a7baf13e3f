// Shared steps of the streaming checks: a streamed messages request through the gateway,
// answered by the upstream on a scripted timeline, read with per-event arrival times.
import type { CheckContext, Evidence, Verdict } from '../../src/check/check.js';
import type { SseFrame } from '../../src/upstream/scenario.js';
import { SSE_HEADERS } from '../../src/upstream/scenario.js';
import type { StreamOptions } from '../../src/client/sse.js';
import { ANTHROPIC_VERSION } from '../../src/client/gateway.js';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { judgeDelivery, oracleEvidence, withMargin, type OracleResult } from '../../src/core/oracle.js';
import { stallMeter } from '../../src/core/stall.js';
import { frames, type StreamEvent } from '../../src/protocols/messages/index.js';
import { streamThrough, streamEvidenceOf, type StreamExchange } from '../shared/exchange.js';
import { MESSAGES_MODEL, MESSAGES_PATH } from '../shared/protocols.js';
import { arrivalsByContent } from './pairing.js';

export type { StreamExchange };

/** A streamed messages request whose text carries the case token (or its placeholder). */
function streamBody(token: string): string {
  return JSON.stringify({ model: MESSAGES_MODEL, max_tokens: 1024, stream: true, messages: [{ role: 'user', content: `${token} stream please` }] });
}

/** `cut`: the upstream breaks the stream off after its frames (scenario.ts SseReply.cut). */
export function streamExchange(ctx: CheckContext, frames: SseFrame[], opts: StreamOptions & { headers?: Array<[string, string]>; cut?: boolean } = {}): Promise<StreamExchange> {
  return streamThrough(
    ctx,
    { kind: 'sse', status: 200, headers: SSE_HEADERS, frames, ...(opts.cut ? { cut: true } : {}) },
    {
      path: MESSAGES_PATH,
      body: streamBody(CASE_PLACEHOLDER),
      // Like fetch-based clients (the SDKs, Claude Code), accept compressed responses.
      headers: [['anthropic-version', ANTHROPIC_VERSION], ['accept-encoding', 'gzip, deflate, br'], ...(opts.headers ?? [])],
    },
    opts,
  );
}

/** The stream's last event is message_stop (judged by its data, so a lost `event:` line does not count twice). */
export function isStop(e: { data: string } | undefined): boolean {
  return !!e && /"type"\s*:\s*"message_stop"/.test(e.data);
}

/** The events the upstream sent, parsed back from its frames (name and data). */
export function sentEvents(events: StreamEvent[]): Array<{ event: string; data: string }> {
  return events.map((e) => ({ event: e.event, data: e.data }));
}

export const streamEvidence = (x: StreamExchange, max = 1500): Evidence => streamEvidenceOf(x, max);

export const notStreamed = (x: StreamExchange): Verdict => ({
  ok: false,
  message: x.seen ? `the client got status ${x.res.status}${x.res.error ? ` (${x.res.error})` : ''} instead of a stream` : `the request never reached the upstream (the gateway answered ${x.res.status})`,
  evidence: streamEvidence(x),
});

/**
 * Runs the timing oracle on an exchange; the evidence shows both timelines side by side. When the
 * client got another number of events than the upstream sent (a gateway that re-chunks), each
 * upstream event is timed by the client event that completed it (arrivalsByContent), and the
 * summary says so; streams that do not pair so are judged by position, as they came.
 */
export function oracle(ctx: CheckContext, x: StreamExchange, sent: StreamEvent[], heldMs = 0): { result: OracleResult; evidence: Evidence } {
  const got = x.res.events;
  const byContent = got.length !== sent.length ? arrivalsByContent(sent, got) : null;
  const result = judgeDelivery(x.seen?.sentAt ?? [], byContent ?? got.map((e) => e.arrivedAt), x.res.startedAt, sent.map((e) => e.event), ctx.settings.sse, heldMs);
  const rechunked = byContent ? `the gateway re-chunked the stream: ${got.length} events for the upstream's ${sent.length}, each upstream event timed by the client event that completed it` : null;
  if (rechunked) result.summary += ` (${rechunked})`;
  return {
    result,
    evidence: { ...oracleEvidence(result, ctx.settings.sse), ...streamEvidence(x, 300), ...(rechunked ? { pairedByContent: rechunked } : {}) },
  };
}

/** One timed stream: the exchange and, when it streamed, the oracle's verdict on it. */
export interface TimedStream {
  x: StreamExchange;
  events: StreamEvent[];
  judged: { result: OracleResult; evidence: Evidence } | null;
}

/** Streams `events` `gapMs` apart through the gateway and runs the oracle on what arrived. */
export async function timedStream(ctx: CheckContext, events: StreamEvent[], gapMs: number): Promise<TimedStream> {
  const meter = stallMeter();
  const x = await streamExchange(ctx, frames(events, { gapMs })).finally(() => meter.stop());
  const judged = x.res.status === 200 && x.seen ? oracle(ctx, x, events, meter.read()) : null;
  return { x, events, judged };
}

/**
 * A timed stream decided with the oracle's margin: when a measured value of the first stream
 * (`near`) lies within 25% of its bound, streams again with `more` events and decides on that.
 */
export function timedWithMargin(ctx: CheckContext, make: (more: boolean) => StreamEvent[], gapMs: number, near: (t: TimedStream) => string[], describe: (t: TimedStream) => string) {
  return timedStream(ctx, make(false), gapMs).then((first) => withMargin(first, (t) => (t.judged ? near(t) : []), () => timedStream(ctx, make(true), gapMs), (t) => (t.judged ? describe(t) : 'no stream')));
}
