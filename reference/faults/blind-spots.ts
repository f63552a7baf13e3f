// Faults that earlier checks let through, each caught by the check that was widened for it: a
// native credential echoed in an answer header; a translated stream that loses its tool calls;
// a route deadline that ends every response 15 s after it began; an idle time-out of exactly the
// default profile's former silence (10 s).
import { PassThrough, type TransformCallback } from 'node:stream';
import type { Fault } from './types.js';
import { IdleCut, onStreams, TimedTransform } from './streaming.js';

/** Ends the response, cleanly, `ms` after it began (a deadline on the whole response); what the upstream sends later is dropped. */
class Deadline extends TimedTransform {
  private over = false;
  protected readonly timer: NodeJS.Timeout;
  constructor(ms: number) {
    super();
    this.timer = setTimeout(() => {
      this.over = true;
      this.push(null);
    }, ms);
  }
  _transform(c: Buffer, _e: BufferEncoding, cb: TransformCallback) {
    cb(null, this.over ? undefined : c);
  }
}

export const BLIND_SPOT_FAULTS: Fault[] = [
  {
    name: 'route-deadline-15s',
    breaks: ['SSE-LONG-1'],
    description: "ends every event stream 15 s after it began, cleanly (the response's last chunk written, no error), as a route with a 15 s total time-out does (Envoy's default); what the upstream sends later is dropped",
    stream: onStreams(() => new Deadline(15_000)),
  },
  {
    name: 'idle-cut-10s',
    breaks: ['SSE-IDLE-1'],
    description: 'cuts an event stream after 10 s without a byte from the upstream (a round idle time-out, the length of the silence the default profile used to test)',
    stream: onStreams(() => new IdleCut(10_000)),
  },
  {
    name: 'translate-stream-loses-tool-calls',
    breaks: ['XLATE-ANS-1'],
    description: "translates messages into chat completions, and maps a streamed answer back with its text deltas only: the upstream's streamed tool calls never reach the client (the answer that is not streamed keeps them)",
    translate: { loseStreamToolCalls: true },
  },
  {
    name: 'echo-goog-api-key',
    breaks: ['CRED-1'],
    description: 'hands the x-goog-api-key header of a native request back, as it came, in the same-named answer header (a proxy that mirrors its request headers onto the answer)',
    stream: (r, _status, headers) => {
      const key = r.headers.find(([k]) => k.toLowerCase() === 'x-goog-api-key')?.[1];
      return key ? { headers: [...headers, ['x-goog-api-key', key]], transform: new PassThrough() } : null;
    },
  },
];
