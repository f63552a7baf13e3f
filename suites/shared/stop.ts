// The stop reason a client got, word for word, as the messages protocol writes it: a JSON
// answer's `stop_reason`, or the one of a stream's `message_delta`; when there is none, what the
// client got instead, in words for the evidence.
import { excerpt } from './evidence.js';

/** The stop_reason of a JSON answer the client got, or what it got instead. */
export function jsonStop(text: string): string {
  try {
    const v = JSON.parse(text) as { stop_reason?: unknown };
    return typeof v.stop_reason === 'string' ? v.stop_reason : `(no stop_reason: ${excerpt(text, 120)})`;
  } catch {
    return `(not JSON: ${excerpt(text, 120)})`;
  }
}

/** The stop_reason of a stream's message_delta, or why there is none. */
export function streamStop(events: ReadonlyArray<{ data: string }>): string {
  for (const e of events) {
    try {
      const v = JSON.parse(e.data) as { type?: unknown; delta?: { stop_reason?: unknown } };
      if (v.type === 'message_delta') return typeof v.delta?.stop_reason === 'string' ? v.delta.stop_reason : '(message_delta without a stop_reason)';
    } catch {
      /* an event that is not JSON carries no stop reason */
    }
  }
  return '(no message_delta reached the client)';
}
