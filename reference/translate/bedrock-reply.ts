// The reference gateway's translating route to Bedrock, the answer side: a Bedrock JSON answer is
// already a messages `message` and goes to the client as it is; a Bedrock error (`{"message": …}`,
// its type in x-amzn-errortype) becomes a messages error with the status kept; an AWS event
// stream is decoded message by message (@smithy/eventstream-codec) and each chunk's event written
// to the client as a messages SSE event as soon as its message is whole. Its own code (see
// request.ts). A fault may map every error to api_error, replace the message, hold the stream, or
// write the stop reasons in the words of an OpenAI-shaped middle.
import type http from 'node:http';
import { EventStreamCodec, type Message } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import type { Json, TranslateFault } from '../faults/types.js';
import { ERROR_TYPE, keptStop } from './answer.js';
import { kept } from './reply.js';

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** What a gateway that hides the cloud's words says instead (ERR-PASS-1 allows it for cloud upstreams). */
export const GENERIC_MESSAGE = 'upstream error';

/** The messages protocol's error type of a Bedrock stream exception (its `:exception-type`). */
const EXCEPTION_TYPE: Record<string, string> = { throttlingException: 'rate_limit_error', validationException: 'invalid_request_error', serviceUnavailableException: 'overloaded_error', modelTimeoutException: 'timeout_error' };

const sse = (name: string, data: Json) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

const parsed = (text: string): Json => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** A Bedrock error (any status, any body) as a messages error: the status kept, the type the status's, the upstream's message. */
export function bedrockError(status: number, body: string, fault: TranslateFault): { status: number; body: string } {
  const said = parsed(body)?.message;
  const message = fault.genericMessage ? GENERIC_MESSAGE : typeof said === 'string' ? said : body.slice(0, 2000);
  const out = fault.statusAs && fault.statusAs[0] === status ? fault.statusAs[1] : status;
  const type = fault.errorTypeLost ? 'api_error' : (ERROR_TYPE[out] ?? 'api_error');
  return { status: out, body: JSON.stringify({ type: 'error', error: { type, message } }) };
}

/** One decoded event-stream message as the client's SSE text: a chunk's event, or an exception as an error event. */
function eventOf(m: Message, fault: TranslateFault): string {
  const header = (name: string) => String(m.headers[name]?.value ?? '');
  const payload = parsed(toUtf8(m.body)) ?? {};
  if (header(':message-type') === 'exception') {
    const type = header(':exception-type');
    const message = fault.genericMessage ? GENERIC_MESSAGE : String(payload.message ?? type);
    return sse('error', { type: 'error', error: { type: EXCEPTION_TYPE[type] ?? 'api_error', message } });
  }
  if (header(':event-type') !== 'chunk' || typeof payload.bytes !== 'string') return '';
  const event = parsed(Buffer.from(payload.bytes, 'base64').toString('utf8'));
  if (!event || typeof event.type !== 'string') return '';
  // Bedrock's own metrics are no part of the messages protocol's message_stop.
  delete event['amazon-bedrock-invocationMetrics'];
  if (event.type === 'message_delta' && event.delta) event.delta.stop_reason = keptStop(event.delta.stop_reason, fault);
  return sse(event.type, event);
}

/** Splits the upstream's bytes into whole event-stream messages by their length prelude. */
class Messages {
  private buf: Buffer = Buffer.alloc(0);
  push(chunk: Buffer): Message[] {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const out: Message[] = [];
    while (this.buf.length >= 4 && this.buf.length >= this.buf.readUInt32BE(0)) {
      const total = this.buf.readUInt32BE(0);
      // The codec checks the prelude and both checksums: a message it refuses ends the stream.
      out.push(codec.decode(this.buf.subarray(0, total)));
      this.buf = this.buf.subarray(total);
    }
    return out;
  }
  get pending(): boolean {
    return this.buf.length > 0;
  }
}

/** Streams the upstream's event stream to the client as messages SSE events, each as its message arrives. */
function streamed(ur: http.IncomingMessage, res: http.ServerResponse, status: number, fault: TranslateFault): void {
  res.writeHead(status, [...kept(ur.rawHeaders), 'content-type', 'text/event-stream; charset=utf-8', 'cache-control', 'no-cache']);
  res.flushHeaders();
  const held: string[] = [];
  const messages = new Messages();
  ur.on('data', (c: Buffer) => {
    try {
      const text = messages.push(c).map((m) => eventOf(m, fault)).join('');
      if (text && fault.bufferStream) held.push(text);
      else if (text) res.write(text);
    } catch {
      ur.destroy();
      res.destroy();
    }
  });
  // A stream cut mid-message, or by the upstream, is cut for the client too: no end is made up.
  ur.on('end', () => {
    if (messages.pending) return void res.destroy();
    for (const t of held.splice(0)) res.write(t);
    res.end();
  });
  ur.on('close', () => !ur.complete && res.destroy());
  ur.on('error', () => res.destroy());
}

/** A JSON answer with its stop reason as the fault writes it (a body that is not JSON as it is). */
function withKeptStop(text: string, fault: TranslateFault): string {
  const v = parsed(text);
  if (!v || typeof v !== 'object') return text;
  v.stop_reason = keptStop(v.stop_reason, fault);
  return JSON.stringify(v);
}

/** Writes the client's answer from Bedrock's: the event stream translated, an error mapped, a JSON answer as it is. */
export function bedrockAnswer(ur: http.IncomingMessage, res: http.ServerResponse, fault: TranslateFault): void {
  const status = ur.statusCode ?? 502;
  if (status < 400 && /vnd\.amazon\.eventstream/i.test(String(ur.headers['content-type'] ?? ''))) return streamed(ur, res, status, fault);
  const chunks: Buffer[] = [];
  ur.on('data', (c: Buffer) => chunks.push(c));
  ur.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    const out = status >= 400 ? bedrockError(status, text, fault) : { status, body: fault.stopAsChat ? withKeptStop(text, fault) : text };
    res.writeHead(out.status, [...kept(ur.rawHeaders), 'content-type', 'application/json', 'content-length', String(Buffer.byteLength(out.body))]);
    res.end(out.body);
  });
  ur.on('error', () => res.destroy());
}
