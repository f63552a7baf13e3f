// Shared steps of the Responses API checks: a streamed response through the gateway with the
// events the upstream scripted (name and data of each), the pairing of what was sent with what
// the client received, and a short name of each event for timelines and messages.
import type { CheckContext } from '../../src/check/check.js';
import { responsesSseReply, responsesStream, type ResponsesStreamShape } from '../../src/protocols/responses/index.js';
import { framesOf } from '../../src/protocols/index.js';
import { RESPONSES_PATH, responsesBody } from '../shared/protocols.js';
import { type StreamExchange, streamThrough } from '../shared/exchange.js';
import { pairInOrder } from '../shared/pairing.js';

/** One event: its `event:` name and its data line's text. */
export interface NamedEvent {
  event: string | undefined;
  data: string;
}

export interface ResponsesStreamExchange extends StreamExchange {
  /** The events the upstream scripted, in order. */
  events: NamedEvent[];
}

/** The event name and data of one scripted frame's text. */
export function namedEvent(frame: string): NamedEvent {
  return { event: /^event: ?(.*)$/m.exec(frame)?.[1], data: /^data: ?(.*)$/m.exec(frame)?.[1] ?? '' };
}

/** Streams a response (created, in_progress, a message of `pieces`, maybe a function call, completed or failed) `gapMs` apart. */
export async function responsesStreamExchange(ctx: CheckContext, shape: ResponsesStreamShape = {}, gapMs = 0, body?: string): Promise<ResponsesStreamExchange> {
  const texts = responsesStream(shape);
  const x = await streamThrough(ctx, responsesSseReply(framesOf(texts, { gapMs })), { path: RESPONSES_PATH, auth: 'bearer', body: body ?? responsesBody({ stream: true }, 'Stream a hello.') });
  return { ...x, events: texts.map(namedEvent), sent: texts.map((t) => namedEvent(t).data) };
}

/** The data without its sequence_number: an event renumbered on the way is still that event. */
export function unnumbered(data: string): string {
  try {
    const v = JSON.parse(data) as Record<string, unknown>;
    delete v.sequence_number;
    return JSON.stringify(v);
  } catch {
    return data;
  }
}

/** What an event is: its type and sequence_number (`response.output_text.delta #5`). */
export function eventName(data: string): string {
  try {
    const v = JSON.parse(data) as { type?: unknown; sequence_number?: unknown };
    return `${typeof v.type === 'string' ? v.type : '(no type)'}${typeof v.sequence_number === 'number' ? ` #${v.sequence_number}` : ''}`;
  } catch {
    return data === '[DONE]' ? '[DONE]' : 'not JSON';
  }
}

/**
 * Pairs each sent event with the client event carrying the same data, in order: position by
 * position when the counts agree and each pair matches, else by content (a dropped event does
 * not shift every later pairing).
 */
export const pairEvents = pairInOrder;

/** "the client got status N (error)" or "never reached the upstream", for a stream that is not one. */
export function noStream(x: StreamExchange): string {
  return x.seen ? `the client got status ${x.res.status}${x.res.error ? ` (${x.res.error})` : ''} instead of a stream` : `the request never reached the upstream (the gateway answered ${x.res.status})`;
}
