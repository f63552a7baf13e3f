// What the stream reader (sse.ts) keeps of a stream as it reads: its events, each stamped with
// the arrival of the chunk that completed it, the chunk timings and the body. Events come from
// text SSE (eventsource-parser) or, for an answer in AWS event-stream framing, from binary
// messages (src/core/framing.ts), each with its own verdict: checksums, message and event type.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { createGunzip, createInflate, createBrotliDecompress } from 'node:zlib';
import type { Transform } from 'node:stream';
import { passedThrough } from '../core/pressure.js';
import { zstdStream } from '../core/zstd.js';
import { FrameDecoder, type DecodedFrame, type Framing } from '../core/framing.js';

/** What a client's event-stream codec thinks of one message (the message without its content). */
export type FrameVerdict = Omit<DecodedFrame, 'text'>;

export interface SseEvent {
  /** The SSE event name; for an event-stream message its `:event-type` (or `:exception-type`). */
  event: string | undefined;
  /** The SSE data; for an event-stream chunk the text its `bytes` carry, for an exception its frame text. */
  data: string;
  id: string | undefined;
  /** performance.now() when the chunk holding the event's last byte arrived. */
  arrivedAt: number;
  /** With AWS event-stream framing: the message's verdict. */
  frame?: FrameVerdict;
}

/** The most of one stream the client reads (decoded): an endless stream is cut here, with an error saying so. */
export const STREAM_MAX = 6 * 1024 * 1024;
/** The longest line of a stream the client reads (a larger event's data is sent as several lines or not at all). */
export const LINE_MAX = 1024 * 1024;
/**
 * The most events of one stream the client keeps: each is an object with its own strings, so an
 * endless stream of tiny events held far more than its STREAM_MAX bytes (a 9-byte event, 6 MiB:
 * 700,000 objects). Past it the client stops reading, with an error saying so.
 */
export const EVENTS_MAX = 100_000;
/**
 * The most of one stream's bytes the client keeps as its body (`raw`); the rest is read (events,
 * timings) and counted, not kept. The recording upstream's streams are a few KiB; a gateway that
 * sends megabytes of random bytes held STREAM_MAX per streaming check, twice over while it was
 * joined, four checks at a time: 20 MB of a 160 MB peak.
 */
export const STREAM_KEEP = 1024 * 1024;
/** Per-chunk timing entries kept (the rest is counted in the stream's length). */
const CHUNKS_KEPT = 20_000;

export function decoder(encoding: string | undefined): Transform | null {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    case 'zstd':
      // The library's decoder (Node 20) stops just past what the reader keeps.
      return zstdStream(STREAM_MAX + 1);
    default:
      return null;
  }
}

/** The events of one framing, fed the decoded bytes as they come. */
function eventSource(framing: Framing, push: (e: Omit<SseEvent, 'arrivedAt'>) => void): { feed(c: Buffer): void; end(): string | null } {
  if (framing === 'aws-eventstream') {
    const frames = new FrameDecoder();
    return {
      feed: (c) => {
        for (const { text, ...frame } of frames.push(c)) push({ event: frame.eventType ?? frame.exceptionType, data: text, id: undefined, frame });
      },
      end: () => frames.end(),
    };
  }
  const parser = createParser({ onEvent: (m: EventSourceMessage) => push({ event: m.event, data: m.data, id: m.id }) });
  // A multi-byte character split across two chunks must be decoded whole.
  const utf8 = new TextDecoder('utf-8');
  return { feed: (c) => parser.feed(utf8.decode(c, { stream: true })), end: () => null };
}

/** What the client keeps of a stream as it reads: its events, chunk timings, body, and why it stopped reading early. */
export function collector(headersAt: number, framing: Framing = 'sse') {
  const events: SseEvent[] = [];
  const chunks: Array<{ at: number; bytes: number }> = [];
  const body: Buffer[] = [];
  let now = headersAt;
  let total = 0;
  let tooLong: string | false = false;
  let line = 0;
  const source = eventSource(framing, (e) => {
    if (events.length < EVENTS_MAX) events.push({ ...e, arrivedAt: now });
    else tooLong ||= `the stream went on past ${EVENTS_MAX} events`;
  });
  /** Decoded bytes, stamped with the arrival of the chunk that brought them. */
  const feed = (c: Buffer, at: number) => {
    if (tooLong) return;
    now = at;
    // One line that never ends is held by the parser whole: cut it at LINE_MAX (binary framing has no lines).
    const nl = c.lastIndexOf(0x0a);
    line = nl < 0 ? line + c.length : c.length - nl - 1;
    if (framing === 'sse' && line > LINE_MAX) {
      tooLong = `a line of the stream went on past ${LINE_MAX} bytes without a line break`;
      return;
    }
    if (total + c.length > STREAM_MAX) {
      tooLong = `the stream went on past ${STREAM_MAX} bytes`;
      c = c.subarray(0, STREAM_MAX - total);
    }
    if (total < STREAM_KEEP) body.push(total + c.length <= STREAM_KEEP ? c : Buffer.from(c.subarray(0, STREAM_KEEP - total)));
    total += c.length;
    source.feed(c);
  };
  /** A chunk as it came off the wire. */
  const chunk = (at: number, bytes: number) => {
    passedThrough(bytes);
    if (chunks.length < CHUNKS_KEPT) chunks.push({ at, bytes });
  };
  return { events, chunks, body, feed, chunk, framing, framingEnd: () => source.end(), tooLong: () => tooLong, bytes: () => total };
}

export type Collector = ReturnType<typeof collector>;
