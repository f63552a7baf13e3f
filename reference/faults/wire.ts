// Faults on the wire between gateway and upstream: content encoding (gzip, zstd) mislabelled on the way back
// or on the way up (ENC-1), a compressed request body read as JSON or decoded short (ENC-1,
// RESP-BODY-2) beside the control that decodes it right, and a pool of kept-alive upstream
// connections that never notices the upstream closing one (CONN-IDLE-1).
import http from 'node:http';
import type { Socket } from 'node:net';
import { createGunzip } from 'node:zlib';
import { zstdDecompress, zstdStream } from '../../src/core/zstd.js';
import type { Fault } from './types.js';
import { decodeRequestBody, jsonError } from '../wire.js';

const isGzip = (h: Array<[string, string]>) => h.some(([k, v]) => k.toLowerCase() === 'content-encoding' && /gzip/i.test(v));
const isZstd = (h: Array<[string, string]>) => h.some(([k, v]) => k.toLowerCase() === 'content-encoding' && /zstd/i.test(v));
/** What the faulty decoder below decodes of one answer at most (the recording upstream's are a few KiB). */
const ZSTD_FAULT_CAP = 16 * 1024 * 1024;

/**
 * A pool that never checks a kept-alive connection before reusing it: one the upstream closed
 * while it sat idle (its FIN read, 'end') stays in the pool, and the next request handed it fails
 * as writing to a closed connection does (ECONNRESET), with no second try. A connection the pool
 * closed itself (its own idle time-out) is not one the upstream closed: it is dropped as usual.
 */
class UncheckedPool extends http.Agent {
  private idle = new WeakSet<Socket>();
  private watched = new WeakSet<Socket>();
  private dead = 0;
  constructor() {
    super({ keepAlive: true });
    // Before the agent's own 'free' listener, which may hand the connection to a waiting request at once.
    this.prependListener('free', (s: Socket) => {
      this.idle.add(s);
      if (this.watched.has(s)) return;
      this.watched.add(s);
      s.on('end', () => {
        if (this.idle.delete(s)) this.dead++;
      });
    });
  }
  reuseSocket(s: Socket, req: http.ClientRequest): void {
    this.idle.delete(s);
    super.reuseSocket(s, req);
  }
  addRequest(req: http.ClientRequest, options: unknown): void {
    (http.Agent.prototype as unknown as { addRequest(r: http.ClientRequest, o: unknown): void }).addRequest.call(this, req, options);
    if (this.dead === 0) return;
    this.dead--;
    // Before the connection is handed over (next tick): the request fails as one written to a closed connection.
    req.destroy(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
  }
}

/** The bytes a streaming decoder that loses its final flush never hands on (the JSON's tail). */
const LOST_TAIL = 16;

export const WIRE_FAULTS: Fault[] = [
  {
    name: 'decode-request-body',
    breaks: [],
    description: 'a control, the decoding gateway: decodes every gzip or zstd request body whole and forwards the plain JSON with `Content-Encoding` removed and `Content-Length` set to the decoded length (what gateways ship so that they can read compressed bodies; ENC-1 and RESP-BODY-2 allow it)',
    request: (r) => void decodeRequestBody(r),
  },
  {
    name: 'encoded-body-read-as-json',
    breaks: ['ENC-1', 'RESP-BODY-2'],
    description: 'parses every request body as JSON before anything else, compressed ones included, and refuses a gzip or zstd body as `400 invalid_request_error: request body is not valid JSON` without forwarding it',
    intercept: (r, res) => {
      if (r.method !== 'POST' || !(isGzip(r.headers) || isZstd(r.headers))) return false;
      jsonError(res, 400, 'invalid_request_error', 'request body is not valid JSON');
      return true;
    },
  },
  {
    name: 'decode-request-lost-tail',
    breaks: ['ENC-1', 'RESP-BODY-2'],
    description: `decodes a gzip or zstd request body with a streaming decoder whose final flush is lost, and forwards the JSON without \`Content-Encoding\` and without its last ${LOST_TAIL} bytes (its length the cut body's)`,
    request: (r) => {
      if (decodeRequestBody(r)) r.body = r.body.subarray(0, Math.max(0, r.body.length - LOST_TAIL));
    },
  },
  {
    name: 'gunzip-keeps-header',
    breaks: ['ENC-1'],
    description: 'decodes a gzip-encoded answer but keeps its `Content-Encoding: gzip` header',
    stream: (_r, _status, h) => (isGzip(h) ? { headers: h, transform: createGunzip() } : null),
  },
  {
    name: 'unzstd-keeps-header',
    breaks: ['ENC-1'],
    description: 'decodes a zstd-encoded answer but keeps its `Content-Encoding: zstd` header',
    stream: (_r, _status, h) => (isZstd(h) ? { headers: h, transform: zstdStream(ZSTD_FAULT_CAP) } : null),
  },
  {
    name: 'drop-request-encoding-header',
    breaks: ['ENC-1', 'RESP-BODY-2'],
    description: 'forwards a compressed (gzip or zstd) request body without its `Content-Encoding` header',
    request: (r) => {
      r.headers = r.headers.filter(([k]) => k.toLowerCase() !== 'content-encoding');
    },
  },
  {
    name: 'unzstd-request-keeps-header',
    breaks: ['ENC-1', 'RESP-BODY-2'],
    description: 'decodes a zstd-encoded request body but forwards it still labelled `Content-Encoding: zstd` (its gzip bodies pass as sent)',
    request: (r) => {
      if (isZstd(r.headers)) r.body = zstdDecompress(r.body, ZSTD_FAULT_CAP, false);
    },
  },
  {
    name: 'reuse-closed-upstream-connection',
    breaks: ['CONN-IDLE-1'],
    description: 'hands the next request a kept-alive upstream connection the upstream closed while idle, and answers 502',
    upstreamPool: () => new UncheckedPool(),
  },
];
