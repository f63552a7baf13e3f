// When each event the upstream sent reached the client, for a gateway that re-chunks a messages
// stream (one text delta split into several, or several joined): the client's events no longer
// pair with the upstream's by position. Text deltas pair by their text: an upstream delta has
// arrived when the client's text reaches its end (joined deltas arrive together, which the
// oracle calls a burst); every other event pairs by its type and its place among that type's
// events. When the client's text is not the upstream's, or the other events do not match in
// type and number, the streams cannot be paired so (null).
import type { SseEvent } from '../../src/client/collect.js';

/** An event's `type`, and its text when it is a text delta; null when its data is not JSON. */
function read(data: string): { type: string; text: string | null } | null {
  try {
    const d = JSON.parse(data) as { type?: unknown; delta?: { type?: unknown; text?: unknown } };
    const text = d.type === 'content_block_delta' && d.delta?.type === 'text_delta' && typeof d.delta.text === 'string' ? d.delta.text : null;
    return { type: String(d.type), text };
  } catch {
    return null;
  }
}

/** Per upstream event, when the client had it whole (performance.now()); null when they cannot be paired by content. */
export function arrivalsByContent(sent: Array<{ data: string }>, got: Array<Pick<SseEvent, 'data' | 'arrivedAt'>>): number[] | null {
  const up = sent.map((e) => read(e.data));
  const down = got.map((e) => read(e.data));
  if (up.some((e) => !e) || down.some((e) => !e)) return null;
  // The client's text deltas: where each one's text ends, joined, and when it arrived.
  const ends: Array<{ end: number; at: number }> = [];
  let clientText = '';
  const others = new Map<string, number[]>();
  for (const [i, e] of down.entries()) {
    if (e!.text !== null) {
      clientText += e!.text;
      ends.push({ end: clientText.length, at: got[i].arrivedAt });
    } else others.set(e!.type, [...(others.get(e!.type) ?? []), got[i].arrivedAt]);
  }
  let upstreamText = '';
  const seen = new Map<string, number>();
  const arrivals: number[] = [];
  for (const e of up) {
    if (e!.text !== null) {
      upstreamText += e!.text;
      const whole = ends.find((c) => c.end >= upstreamText.length);
      if (!whole) return null;
      arrivals.push(whole.at);
      continue;
    }
    const n = seen.get(e!.type) ?? 0;
    const at = others.get(e!.type)?.[n];
    if (at === undefined) return null;
    seen.set(e!.type, n + 1);
    arrivals.push(at);
  }
  const extra = [...others].some(([type, ats]) => ats.length !== (seen.get(type) ?? 0));
  return clientText === upstreamText && !extra ? arrivals : null;
}
