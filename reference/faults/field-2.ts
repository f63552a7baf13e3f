// Faults of the second round rebuilt from field reports against gateways: rate-limit and
// request-id headers kept on errors but stripped from successful answers, and upstream streams
// broken off mid-answer that reach the client ended cleanly, completed with a made-up
// message_stop, or retried upstream and spliced into the same stream.
import type http from 'node:http';
import { PassThrough } from 'node:stream';
import type { Fault } from './types.js';

/** The headers a successful answer loses through a gateway that rebuilds 2xx headers from its own list. */
const SUCCESS_ONLY = /^((x-)?request-id|anthropic-ratelimit-|x-ratelimit-)/i;

/** The event a gateway appends to close a stream the upstream left unfinished. */
const FAKE_STOP = 'event: message_stop\ndata: {"type":"message_stop"}\n\n';

/** Ends the client's answer (when it is still open) with `tail`: the last chunk written, as if the upstream had finished. */
function endCleanly(res: http.ServerResponse, tail?: string): void {
  if (res.destroyed || res.writableEnded) return;
  res.end(tail);
}

export const FIELD_2_FAULTS: Fault[] = [
  {
    name: 'drop-success-headers',
    breaks: ['HDR-OK-1'],
    description: 'strips request-id, x-request-id, anthropic-ratelimit-* and x-ratelimit-* from 2xx answers (JSON and streamed), keeping them on errors',
    stream: (_r, status, headers) => (status >= 200 && status < 300 ? { headers: headers.filter(([k]) => !SUCCESS_ONLY.test(k)), transform: new PassThrough() } : null),
  },
  {
    name: 'cut-stream-clean-end',
    breaks: ['SSE-CUT-1'],
    description: "ends the client's stream cleanly (the last chunk written) when the upstream's breaks off before its end",
    upstreamCut: (res) => endCleanly(res),
  },
  {
    name: 'cut-stream-fake-stop',
    breaks: ['SSE-CUT-1'],
    description: "appends a message_stop of its own and ends the client's stream cleanly when the upstream's breaks off before its end",
    upstreamCut: (res) => endCleanly(res, FAKE_STOP),
  },
  {
    name: 'cut-stream-spliced-retry',
    breaks: ['SSE-CUT-1'],
    description: "sends the request upstream again when its stream breaks off, and streams the new answer on into the client's stream (then ends it cleanly)",
    upstreamCut: (res, again) => {
      if (res.destroyed || res.writableEnded) return;
      again((ur) => {
        ur.on('data', (c: Buffer) => res.write(c));
        ur.on('close', () => endCleanly(res));
      });
    },
  },
];
