// Shared steps of the streaming checks: a streamed messages request through the gateway,
// answered by the upstream on a scripted timeline, read with per-event arrival times.
import type { CheckContext, Evidence, Verdict } from '../../src/core/check.js';
import type { RecordedRequest } from '../../mocks/upstream/record.js';
import type { Expectation } from '../../mocks/upstream/server.js';
import type { SseFrame } from '../../mocks/upstream/scenario.js';
import { readStream, type SseResult, type StreamOptions } from '../../src/client/sse.js';
import { ANTHROPIC_VERSION } from '../../src/client/gateway.js';
import { maskHeaders } from '../../src/core/mask.js';
import { judgeDelivery, oracleEvidence, type OracleResult } from '../../src/core/oracle.js';
import type { StreamEvent } from '../../mocks/upstream/streams.js';

export interface StreamExchange {
  res: SseResult;
  seen: RecordedRequest | null;
  expectation: Expectation;
  frames: SseFrame[];
}

/** A streamed messages request whose text carries the case token. */
export function streamBody(token: string): string {
  return JSON.stringify({ model: 'claude-sonnet-4-5-20250929', max_tokens: 1024, stream: true, messages: [{ role: 'user', content: `${token} stream please` }] });
}

export async function streamExchange(ctx: CheckContext, frames: SseFrame[], opts: StreamOptions & { headers?: Array<[string, string]> } = {}): Promise<StreamExchange> {
  const expectation = ctx.upstream.next().sse(frames);
  const res = await readStream(
    ctx.gateway,
    {
      method: 'POST',
      path: '/v1/messages',
      // Like fetch-based clients (the SDKs, Claude Code), accept compressed responses.
      headers: [['content-type', 'application/json'], ['anthropic-version', ANTHROPIC_VERSION], ['accept', 'text/event-stream'], ['accept-encoding', 'gzip, deflate, br'], ...(opts.headers ?? [])],
      body: streamBody(expectation.token),
      caseToken: expectation.token,
      signal: ctx.signal,
    },
    opts,
  );
  const seen = await expectation.received(200);
  return { res, seen, expectation, frames };
}

/** The stream's last event is message_stop (judged by its data, so a lost `event:` line does not count twice). */
export function isStop(e: { data: string } | undefined): boolean {
  return !!e && /"type"\s*:\s*"message_stop"/.test(e.data);
}

/** The events the upstream sent, parsed back from its frames (name and data). */
export function sentEvents(events: StreamEvent[]): Array<{ event: string; data: string }> {
  return events.map((e) => ({ event: e.event, data: e.data }));
}

export function streamEvidence(x: StreamExchange, max = 1500): Evidence {
  const raw = x.res.raw.toString('utf8');
  return {
    client: {
      status: x.res.status,
      headers: maskHeaders(x.res.rawHeaders),
      events: x.res.events.length,
      bytes: x.res.raw.length,
      chunks: x.res.chunks.length,
      error: x.res.error ?? null,
      bodyStart: raw.length > max ? `${raw.slice(0, max)}... (${raw.length} bytes)` : raw,
    },
    upstream: x.seen ? { url: x.seen.url, framesSent: x.seen.sentAt.length, framesScripted: x.frames.length } : 'the upstream received no request for this case',
  };
}

export const notStreamed = (x: StreamExchange): Verdict => ({
  ok: false,
  message: x.seen ? `the client got status ${x.res.status}${x.res.error ? ` (${x.res.error})` : ''} instead of a stream` : `the request never reached the upstream (the gateway answered ${x.res.status})`,
  evidence: streamEvidence(x),
});

/** Runs the timing oracle on an exchange; the evidence shows both timelines side by side. */
export function oracle(ctx: CheckContext, x: StreamExchange, names: string[]): { result: OracleResult; evidence: Evidence } {
  const result = judgeDelivery(
    x.seen?.sentAt ?? [],
    x.res.events.map((e) => e.arrivedAt),
    x.res.startedAt,
    names,
    ctx.settings.sse,
  );
  return {
    result,
    evidence: { ...oracleEvidence(result, ctx.settings.sse), ...streamEvidence(x, 300) },
  };
}
