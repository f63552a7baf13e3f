// How a stream's frames travel on the wire: text SSE (every protocol but one), or AWS
// event-stream (the Bedrock protocol: binary messages, each with a length prelude, a prelude CRC,
// typed headers, a payload and a message CRC). The one place that knows the binary framing: the
// recording upstream encodes with it, the gateway client decodes with it (each frame with its
// own verdict), and the reference gateway's faults re-frame with it. Encoding and checksums are
// @smithy/eventstream-codec's (the AWS SDK's own codec); only the length prefix is read here, to
// find where one message ends in a stream of bytes.
import { EventStreamCodec, type Message, type MessageHeaders } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';

export const FRAMINGS = ['sse', 'aws-eventstream'] as const;
/** A stream's framing; a reply without one is SSE. */
export type Framing = (typeof FRAMINGS)[number];

export const EVENTSTREAM_CONTENT_TYPE = 'application/vnd.amazon.eventstream';
/** Whether a content-type names the AWS event-stream framing. */
export const isEventStreamType = (contentType: string | undefined) => (contentType ?? '').toLowerCase().includes(EVENTSTREAM_CONTENT_TYPE);

/** The key of an exception frame's text (no event of any protocol has it): `{":exception-type": "...", "message": "..."}`. */
export const EXCEPTION_KEY = ':exception-type';
/** The largest message the decoder accepts: a longer declared length is a broken prelude, not a message. */
export const MESSAGE_MAX = 16 * 1024 * 1024;
const MESSAGE_MIN = 16;

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const str = (value: string) => ({ type: 'string' as const, value });

/** An exception frame's text: its type and its message. */
export function exceptionText(type: string, message: string): string {
  return JSON.stringify({ [EXCEPTION_KEY]: type, message });
}

/** The exception type a frame text stands for, or null for an event chunk. */
export function exceptionOf(text: string): { type: string; payload: string } | null {
  if (!text.includes(EXCEPTION_KEY)) return null;
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    if (typeof v[EXCEPTION_KEY] !== 'string') return null;
    const { [EXCEPTION_KEY]: type, ...payload } = v;
    return { type: type as string, payload: JSON.stringify(payload) };
  } catch {
    return null;
  }
}

/**
 * One binary message for a frame text: an event chunk (`:event-type` chunk, the text base64 in
 * `{"bytes": ...}`) or, for an exception text, an exception message with its JSON payload.
 */
export function encodeFrame(text: string): Uint8Array {
  const ex = exceptionOf(text);
  if (ex) return codec.encode({ headers: { ':exception-type': str(ex.type), ':content-type': str('application/json'), ':message-type': str('exception') }, body: fromUtf8(ex.payload) });
  const body = fromUtf8(JSON.stringify({ bytes: Buffer.from(text, 'utf8').toString('base64') }));
  return codec.encode({ headers: { ':event-type': str('chunk'), ':content-type': str('application/json'), ':message-type': str('event') }, body });
}

/** Encodes a message with any headers and payload (a fault that re-frames, a test). */
export function encodeMessage(headers: Record<string, string>, payload: Uint8Array): Uint8Array {
  return codec.encode({ headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, str(v)])), body: payload });
}

/** One decoded message, with what a client's codec thinks of it. */
export interface DecodedFrame {
  /** Both checksums held and the headers parsed. */
  ok: boolean;
  /** Why the codec refused it (a checksum, a length): the words an SDK fails with. */
  problem?: string;
  bytes: number;
  messageType?: string;
  eventType?: string;
  exceptionType?: string;
  contentType?: string;
  /** A chunk's inner text (its `bytes` decoded), an exception's frame text (exceptionText), or the raw payload when neither. */
  text: string;
}

const headerText = (h: MessageHeaders, name: string) => (h[name] && typeof h[name].value === 'string' ? (h[name].value as string) : undefined);

/** A whole message's verdict and content. */
export function decodeMessage(bytes: Uint8Array): DecodedFrame {
  let m: Message;
  try {
    m = codec.decode(bytes);
  } catch (e) {
    return { ok: false, problem: (e as Error).message, bytes: bytes.length, text: '' };
  }
  const h = m.headers;
  const d: DecodedFrame = { ok: true, bytes: bytes.length, messageType: headerText(h, ':message-type'), eventType: headerText(h, ':event-type'), exceptionType: headerText(h, ':exception-type'), contentType: headerText(h, ':content-type'), text: toUtf8(m.body) };
  if (d.messageType === 'exception' && d.exceptionType) {
    let payload: Record<string, unknown> = {};
    try {
      payload = JSON.parse(d.text) as Record<string, unknown>;
    } catch {
      /* an exception without a JSON payload keeps its type only */
    }
    d.text = JSON.stringify({ [EXCEPTION_KEY]: d.exceptionType, ...payload });
  } else if (d.messageType === 'event') {
    try {
      const b = (JSON.parse(d.text) as { bytes?: unknown }).bytes;
      if (typeof b === 'string') d.text = Buffer.from(b, 'base64').toString('utf8');
    } catch {
      /* a payload that is not {"bytes": ...}: kept raw */
    }
  }
  return d;
}

/**
 * Splits a byte stream into messages as they complete, by each message's declared length (as
 * the AWS SDK's chunker does). A declared length no message can have ends the reading: what
 * follows cannot be framed (`broken`). At the end, bytes left over are a truncated message.
 */
export class FrameDecoder {
  private buf: Buffer = Buffer.alloc(0);
  broken?: string;
  push(chunk: Uint8Array): DecodedFrame[] {
    if (this.broken) return [];
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : Buffer.from(chunk);
    const out: DecodedFrame[] = [];
    while (this.buf.length >= 4) {
      const total = this.buf.readUInt32BE(0);
      if (total < MESSAGE_MIN || total > MESSAGE_MAX) {
        this.broken = `a message declared ${total} bytes (a message is ${MESSAGE_MIN} to ${MESSAGE_MAX}): the stream cannot be framed from here`;
        return out;
      }
      if (this.buf.length < total) break;
      out.push(decodeMessage(this.buf.subarray(0, total)));
      this.buf = this.buf.subarray(total);
    }
    return out;
  }
  /** Why the stream did not end on a message boundary, or null when it did. */
  end(): string | null {
    if (this.broken) return this.broken;
    return this.buf.length ? `Truncated event message received: the stream ended ${this.buf.length} bytes into a message` : null;
  }
}

/** The bytes of an event-stream body from message `index` on (as framed by the decoded messages' lengths), as hex-dump lines: offset, 16 bytes in hex, the printable ones as text. */
export function messageHexDump(raw: Uint8Array, frames: Array<Pick<DecodedFrame, 'bytes'>>, index: number, max = 256): string[] {
  const start = frames.slice(0, index).reduce((n, f) => n + f.bytes, 0);
  const end = Math.min(raw.length, start + Math.min(frames[index]?.bytes ?? raw.length - start, max));
  const lines: string[] = [];
  for (let at = start; at < end; at += 16) {
    const row = Buffer.from(raw.subarray(at, Math.min(at + 16, end)));
    const hex = [...row].map((b) => b.toString(16).padStart(2, '0')).join(' ');
    lines.push(`${at.toString(16).padStart(8, '0')}  ${hex.padEnd(47)}  |${[...row].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('')}|`);
  }
  const whole = frames[index]?.bytes ?? raw.length - start;
  if (whole > end - start) lines.push(`... ${whole - (end - start)} more bytes of this message`);
  return lines;
}
