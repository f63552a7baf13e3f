// Faults of the Bedrock InvokeModel protocol: the ways a gateway that carries the messages
// protocol well still breaks Bedrock's: a model id cut at its ":", betas taken out of the body,
// an event stream re-framed (events merged into one message, the binary read as text and
// written back, exception messages dropped), a buffered event stream, an error page in place of Bedrock's error.
import { StringDecoder } from 'node:string_decoder';
import { Transform, type TransformCallback } from 'node:stream';
import { encodeFrame, FrameDecoder, isEventStreamType } from '../../src/core/framing.js';
import type { Fault, RequestParts } from './types.js';
import { isOn } from './routes.js';
import { HoldAll } from './streaming.js';

const isBedrock = (r: RequestParts) => isOn(r, 'bedrock', 'generate', 'stream');
const isBedrockStream = (r: RequestParts, h: Array<[string, string]>) => isOn(r, 'bedrock', 'stream') && h.some(([k, v]) => k.toLowerCase() === 'content-type' && isEventStreamType(v));

/** Decodes the upstream's messages and writes each two events as one chunk message (a gateway that coalesces events). */
class MergePairs extends Transform {
  private frames = new FrameDecoder();
  private held: string | null = null;
  _transform(c: Buffer, _e: BufferEncoding, cb: TransformCallback) {
    const out: Uint8Array[] = [];
    for (const f of this.frames.push(c)) {
      if (this.held === null) this.held = f.text;
      else {
        out.push(encodeFrame(this.held + f.text));
        this.held = null;
      }
    }
    cb(null, Buffer.concat(out));
  }
  _flush(cb: TransformCallback) {
    cb(null, this.held === null ? Buffer.alloc(0) : Buffer.from(encodeFrame(this.held)));
  }
}

/** Decodes the upstream's messages and re-encodes only its chunk events (a gateway that knows no exception messages). */
class ChunksOnly extends Transform {
  private frames = new FrameDecoder();
  _transform(c: Buffer, _e: BufferEncoding, cb: TransformCallback) {
    cb(null, Buffer.concat(this.frames.push(c).filter((f) => f.messageType === 'event').map((f) => encodeFrame(f.text))));
  }
}

/** Reads the binary stream as UTF-8 text and writes the text back (a text-minded filter): bytes that are no UTF-8 become U+FFFD. */
class AsText extends Transform {
  private decoder = new StringDecoder('utf8');
  _transform(c: Buffer, _e: BufferEncoding, cb: TransformCallback) {
    cb(null, Buffer.from(this.decoder.write(c), 'utf8'));
  }
  _flush(cb: TransformCallback) {
    cb(null, Buffer.from(this.decoder.end(), 'utf8'));
  }
}

const onBedrockStreams = (make: () => Transform): Fault['stream'] => (r, _s, h) => (isBedrockStream(r, h) ? { headers: h, transform: make() } : null);

const ERROR_PAGE = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n';

export const BEDROCK_FAULTS: Fault[] = [
  {
    name: 'bedrock-model-colon',
    breaks: ['BR-PATH-1'],
    description: 'cuts the Bedrock model id at its ":" (literal or %3A), dropping the version suffix: us.anthropic.claude-sonnet-4-5-20250929-v1:0 goes upstream as ...-v1',
    request: (r) => {
      if (isBedrock(r)) r.path = r.path.replace(/^(\/model\/[^/?]*?)(?::|%3A)[^/?]*\//i, '$1/');
    },
  },
  {
    name: 'bedrock-strip-beta',
    breaks: ['BR-BODY-1'],
    description: 'takes anthropic_beta out of a Bedrock body and sends the betas as an anthropic-beta header instead (where Bedrock does not read them)',
    request: (r) => {
      if (!isBedrock(r) || r.body.length === 0) return;
      const b = JSON.parse(r.body.toString('utf8'));
      if (!Array.isArray(b?.anthropic_beta)) return;
      r.headers.push(['anthropic-beta', b.anthropic_beta.join(',')]);
      delete b.anthropic_beta;
      r.body = Buffer.from(JSON.stringify(b));
    },
  },
  {
    name: 'bedrock-merge-frames',
    breaks: ['BR-STREAM-1'],
    description: 'decodes the Bedrock event stream and re-encodes it with each two events in one chunk message (valid checksums, but a payload of two JSON events)',
    stream: onBedrockStreams(() => new MergePairs()),
  },
  {
    name: 'bedrock-stream-as-text',
    breaks: ['BR-STREAM-1'],
    description: 'passes the Bedrock event stream through a UTF-8 text decoder and back: every byte that is no UTF-8 (in lengths and checksums) becomes U+FFFD, so lengths and checksums break',
    stream: onBedrockStreams(() => new AsText()),
  },
  {
    name: 'bedrock-drop-exceptions',
    breaks: ['BR-STREAM-3'],
    description: 'decodes the Bedrock event stream and re-encodes only its chunk events: an exception message in the stream is dropped and the stream ends as if complete',
    stream: onBedrockStreams(() => new ChunksOnly()),
  },
  {
    name: 'bedrock-buffer-stream',
    breaks: ['BR-STREAM-2'],
    description: 'buffers Bedrock event streams whole (it streams only text/event-stream unbuffered) and sends them when the upstream ends',
    stream: onBedrockStreams(() => new HoldAll()),
  },
  {
    name: 'bedrock-error-html',
    breaks: ['BR-ERR-1'],
    description: 'answers every Bedrock upstream error with its own HTML 502 page',
    responseWhen: (r, status) => isBedrock(r) && (status ?? 0) >= 400,
    response: (status) => (status >= 400 ? { status: 502, headers: { 'content-type': 'text/html' }, body: Buffer.from(ERROR_PAGE) } : null),
  },
];
