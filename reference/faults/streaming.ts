// Faults of stream delivery: buffering, compression, re-framing, idle cuts, lost usage,
// no cancellation, steady delay. They apply to every text/event-stream response.
import { PassThrough, Transform, type TransformCallback } from 'node:stream';
import { createGzip } from 'node:zlib';
import { StringDecoder } from 'node:string_decoder';
import type { Fault, RequestParts } from './types.js';

/** The response is an event stream (text/event-stream). */
export const isEventStream = (headers: Array<[string, string]>) => headers.some(([k, v]) => k.toLowerCase() === 'content-type' && /text\/event-stream/i.test(v));

/** A stream fault that applies `make()` to event-stream responses only. */
export function onStreams(make: (r: RequestParts) => Transform, headers?: (h: Array<[string, string]>) => Array<[string, string]>): Fault['stream'] {
  return (r, _status, h) => (isEventStream(h) ? { headers: headers ? headers(h) : h, transform: make(r) } : null);
}

/** Holds everything until the upstream ends (nginx's default proxy_buffering, in the extreme). */
export class HoldAll extends Transform {
  private held: Buffer[] = [];
  _transform(c: Buffer, _e: BufferEncoding, cb: TransformCallback) {
    this.held.push(c);
    cb();
  }
  _flush(cb: TransformCallback) {
    cb(null, Buffer.concat(this.held));
  }
}

/** Releases bytes only in whole blocks of `size` (a proxy buffer), the rest at the end. */
class Blocks extends Transform {
  private held = Buffer.alloc(0);
  constructor(private readonly size: number) {
    super();
  }
  _transform(c: Buffer, _e: BufferEncoding, cb: TransformCallback) {
    this.held = Buffer.concat([this.held, c]);
    const n = Math.floor(this.held.length / this.size) * this.size;
    if (n > 0) {
      this.push(this.held.subarray(0, n));
      this.held = this.held.subarray(n);
    }
    cb();
  }
  _flush(cb: TransformCallback) {
    cb(null, this.held);
  }
}

/**
 * Applies `fn` to each complete SSE frame (text up to a blank line, the blank line included),
 * keeping bytes between frames; `last` is what to write at the end. The one frame splitter of the
 * faults: FrameData (protocols.ts) and Reframe (native.ts) are made of it.
 */
export class PerFrame extends Transform {
  private buf = '';
  // A multi-byte character split across chunks is decoded whole.
  private utf8 = new StringDecoder('utf8');
  constructor(
    private readonly fn: (frame: string) => string,
    private readonly last: () => string = () => '',
  ) {
    super();
  }
  _transform(c: Buffer, _e: BufferEncoding, cb: TransformCallback) {
    this.buf += this.utf8.write(c);
    let out = '';
    let m: RegExpExecArray | null;
    const end = /\r?\n\r?\n/g;
    let from = 0;
    while ((m = end.exec(this.buf))) {
      out += this.fn(this.buf.slice(from, m.index + m[0].length));
      from = m.index + m[0].length;
    }
    this.buf = this.buf.slice(from);
    cb(null, out);
  }
  _flush(cb: TransformCallback) {
    cb(null, this.buf + this.utf8.end() + this.last());
  }
}

/** The data of an SSE frame's first `data:` line (undefined when it has none). */
export const frameDataOf = (frame: string): string | undefined => /^data: ?([^\r\n]*)/m.exec(frame)?.[1];

/** Passes each chunk on `ms` after it arrived (timers of one delay fire in order). */
class Delay extends Transform {
  private pending = 0;
  private onIdle?: () => void;
  constructor(private readonly ms: number) {
    super();
  }
  _transform(c: Buffer, _e: BufferEncoding, cb: TransformCallback) {
    this.pending++;
    // The fault's scripted delay, not synchronisation.
    setTimeout(() => {
      this.push(c);
      if (--this.pending === 0) this.onIdle?.();
    }, this.ms);
    cb();
  }
  _flush(cb: TransformCallback) {
    if (this.pending === 0) cb();
    else this.onIdle = () => cb();
  }
}

/** A transform that holds one timer, cleared when the stream ends or is destroyed (the faults' time-outs). */
export abstract class TimedTransform extends Transform {
  protected abstract timer: NodeJS.Timeout;
  _flush(cb: TransformCallback) {
    clearTimeout(this.timer);
    cb();
  }
  _destroy(err: Error | null, cb: (e: Error | null) => void) {
    clearTimeout(this.timer);
    cb(err);
  }
}

/** Cuts the stream after `ms` without a byte from the upstream (a proxy's idle time-out). */
export class IdleCut extends TimedTransform {
  protected timer: NodeJS.Timeout;
  constructor(private readonly ms: number) {
    super();
    this.timer = this.arm();
  }
  private arm() {
    return setTimeout(() => this.destroy(new Error('idle time-out')), this.ms);
  }
  _transform(c: Buffer, _e: BufferEncoding, cb: TransformCallback) {
    clearTimeout(this.timer);
    this.timer = this.arm();
    cb(null, c);
  }
}

function stripStartUsage(frame: string): string {
  const m = /^(event: message_start\r?\ndata: )(.*)(\r?\n\r?\n)$/s.exec(frame);
  if (!m) return frame;
  const data = JSON.parse(m[2]);
  for (const k of ['cache_creation_input_tokens', 'cache_read_input_tokens', 'cache_creation']) delete data?.message?.usage?.[k];
  return `${m[1]}${JSON.stringify(data)}${m[3]}`;
}

export const STREAMING_FAULTS: Fault[] = [
  { name: 'buffer-stream', breaks: ['SSE-INC-1'], description: 'holds the whole event stream until the upstream ends it', stream: onStreams(() => new HoldAll()) },
  { name: 'buffer-4k', breaks: ['SSE-INC-1'], description: 'releases the event stream in 4 KiB blocks', stream: onStreams(() => new Blocks(4096)) },
  {
    name: 'gzip-stream',
    breaks: ['SSE-HDR-1', 'SSE-INC-1'],
    description: 'gzips the event stream (content-encoding: gzip) without flushing',
    stream: onStreams(
      () => createGzip(),
      (h) => [...h.filter(([k]) => k.toLowerCase() !== 'content-length'), ['content-encoding', 'gzip']],
    ),
  },
  {
    name: 'reframe-sse',
    breaks: ['SSE-FRAME-1', 'SSE-FRAME-2'],
    description: 're-frames the stream with data lines only, dropping every `event:` line',
    stream: onStreams(() => new PerFrame((f) => f.replace(/^event:[^\n]*\n/gm, ''))),
  },
  { name: 'idle-cut-5s', breaks: ['SSE-IDLE-1'], description: 'cuts an event stream after 5 s without a byte from the upstream', stream: onStreams(() => new IdleCut(5_000)) },
  {
    name: 'strip-stream-cache-usage',
    breaks: ['MSG-USAGE-1'],
    description: 'drops the cache usage fields from message_start events',
    stream: onStreams(() => new PerFrame(stripStartUsage)),
  },
  {
    name: 'close-connection',
    breaks: ['SSE-CONN-1'],
    description: 'closes the client connection after every event stream (Connection: close)',
    stream: onStreams(
      () => new PassThrough(),
      (h) => [...h.filter(([k]) => k.toLowerCase() !== 'connection'), ['connection', 'close']],
    ),
  },
  { name: 'no-cancel', breaks: ['SSE-ABORT-1'], description: 'keeps reading the upstream stream after the client disconnected', keepUpstreamOnAbort: true },
  // A steady delay per event, at five sizes: below the latency bound (a control that must pass),
  // just past it, well past it, at a kernel coalescing timer (a load balancer sending with
  // MSG_MORE), and past the coarse bound of incremental delivery.
  ...([
    [30, []],
    [60, ['SSE-LAT-1']],
    [150, ['SSE-LAT-1']],
    [210, ['SSE-LAT-1']],
    [1500, ['SSE-LAT-1', 'SSE-INC-1']],
  ] as Array<[number, string[]]>).map(([ms, breaks]): Fault => ({
    name: `delay-per-event-${ms}`,
    breaks,
    description: `passes every chunk of an event stream on ${ms} ms late${breaks.length ? '' : ' (within the bounds: a control that must pass)'}`,
    stream: onStreams(() => new Delay(ms)),
  })),
];
