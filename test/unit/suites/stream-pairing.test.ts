// A gateway that re-chunks a messages stream (suites/streaming/pairing.ts): its events pair with
// the upstream's by content, so the delivery oracle times each upstream event by the client
// event that completed it. Split deltas that arrive as the upstream sent them are incremental;
// joined deltas still show as a burst; a changed text cannot be paired.
import { describe, expect, it } from 'vitest';
import { judgeDelivery } from '../../../src/core/oracle.js';
import { messageStream } from '../../../src/protocols/messages/index.js';
import { arrivalsByContent } from '../../../suites/streaming/pairing.js';

const sent = messageStream({ full: false, textDeltas: 4, deltaChars: 10 });
const sentAt = sent.map((_, i) => i * 300);
const textOf = (data: string) => (JSON.parse(data) as { delta?: { text?: string } }).delta?.text;
const isText = (data: string) => textOf(data) !== undefined && /text_delta/.test(data);
const delta = (text: string) => JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });

/** The client's events when the gateway splits every text delta in two, both halves 2 ms after the upstream sent it. */
function split(): Array<{ data: string; arrivedAt: number }> {
  return sent.flatMap((e, i) => {
    if (!isText(e.data)) return [{ data: e.data, arrivedAt: sentAt[i] + 2 }];
    const t = textOf(e.data)!;
    return [{ data: delta(t.slice(0, 4)), arrivedAt: sentAt[i] + 1 }, { data: delta(t.slice(4)), arrivedAt: sentAt[i] + 2 }];
  });
}

describe('arrivalsByContent', () => {
  it('split deltas: each upstream event timed by the half that completed it; the oracle says incremental where pairing by position saw bursts', () => {
    const got = split();
    const arrivals = arrivalsByContent(sent, got);
    expect(arrivals).toEqual(sentAt.map((t) => t + 2));
    expect(judgeDelivery(sentAt, arrivals!, 0, sent.map((e) => e.event)).delivery).toBe('incremental');
    // Before: paired by position, the halves of one delta read as events sent apart that arrived together.
    expect(judgeDelivery(sentAt, got.map((e) => e.arrivedAt), 0, sent.map((e) => e.event)).delivery).toBe('buffered-in-blocks');
  });

  it('joined deltas arrive together: a burst still', () => {
    const texts = sent.filter((e) => isText(e.data)).map((e) => textOf(e.data)!);
    const last = Math.max(...sent.flatMap((e, i) => (isText(e.data) ? [sentAt[i]] : [])));
    const got = sent.flatMap((e, i) => (isText(e.data) ? [] : [{ data: e.data, arrivedAt: Math.max(sentAt[i], last) + 2 }]));
    // One client delta carrying all four texts, after the last was sent, placed where the first was.
    const first = sent.findIndex((e) => isText(e.data));
    got.splice(first, 0, { data: delta(texts.join('')), arrivedAt: last + 2 });
    const arrivals = arrivalsByContent(sent, got);
    expect(arrivals).not.toBeNull();
    expect(judgeDelivery(sentAt, arrivals!, 0, sent.map((e) => e.event)).delivery).not.toBe('incremental');
  });

  it('a text the gateway changed, or an event it dropped, cannot be paired', () => {
    const changed = split().map((e, i) => (i === 3 && isText(e.data) ? { ...e, data: delta('XXXX') } : e));
    expect(arrivalsByContent(sent, changed)).toBeNull();
    const dropped = split().filter((e) => !/message_delta/.test(e.data));
    expect(arrivalsByContent(sent, dropped)).toBeNull();
  });
});
