// The reference gateway's HTTP/2 hop to a TLS upstream (a fault's `upstreamHttp2`): one
// ClientHttp2Session per upstream origin, made again once it closes, is sent GOAWAY or errors;
// and an adapter so that gateway.ts forwards over it as over http.request: the request's stream
// plays the ClientRequest (events request, finish, timeout, error, close), and its answer an
// IncomingMessage (statusCode, headers, rawHeaders, complete, a readable body). A stream the
// upstream resets fails only its own request (an 'error', answered 502 like an unreachable upstream).
import http2 from 'node:http2';
import { EventEmitter } from 'node:events';
import type http from 'node:http';
import { PassThrough } from 'node:stream';
import type { Fault } from './faults/types.js';
import { HarnessError } from '../src/core/errors.js';

/** What gateway.ts uses of an upstream request, HTTP/1.1 (http.ClientRequest) or HTTP/2 (H2Request). */
export interface UpstreamRequest extends EventEmitter {
  /** HTTP/1.1: the request went out on a kept-alive connection (wire.ts closedWhileIdle). */
  reusedSocket: boolean;
  setTimeout(ms: number): this;
  destroy(): unknown;
  end(body?: Buffer): unknown;
}

/** The answer's headers as an IncomingMessage gives them: pseudo-headers left out, lists as repeated fields. */
export function answerHeaders(h: http2.IncomingHttpHeaders): { headers: http.IncomingHttpHeaders; rawHeaders: string[] } {
  const headers: http.IncomingHttpHeaders = {};
  const rawHeaders: string[] = [];
  for (const [k, v] of Object.entries(h)) {
    if (k.startsWith(':') || v === undefined) continue;
    headers[k] = v;
    for (const one of Array.isArray(v) ? v : [v]) rawHeaders.push(k, String(one));
  }
  return { headers, rawHeaders };
}

/** The request's headers for HTTP/2: names lower-case, host as :authority, repeated fields as a list. */
export function requestHeaders(method: string, path: string, flat: string[]): http2.OutgoingHttpHeaders {
  const out: http2.OutgoingHttpHeaders = { ':method': method, ':path': path };
  for (let i = 0; i < flat.length; i += 2) {
    const k = flat[i].toLowerCase();
    if (k === 'host') out[':authority'] = flat[i + 1];
    else {
      const had = out[k];
      out[k] = had === undefined ? flat[i + 1] : [...(Array.isArray(had) ? had : [String(had)]), flat[i + 1]];
    }
  }
  return out;
}

/** One request on an HTTP/2 session, through the calls gateway.ts makes on an http.ClientRequest. */
export class H2Request extends EventEmitter implements UpstreamRequest {
  readonly reusedSocket = false;
  /** The answer's headers came, or the stream failed: what its close means. */
  private settled = false;
  constructor(readonly stream: http2.ClientHttp2Stream) {
    super();
    stream.on('response', (h) => {
      this.settled = true;
      const { headers, rawHeaders } = answerHeaders(h);
      const body = new PassThrough();
      const ur = Object.assign(body, { statusCode: Number(h[':status']), headers, rawHeaders, complete: false });
      stream.on('end', () => (ur.complete = true));
      // A stream closed before its end (reset, cut) breaks its answer off, as a closed socket would.
      stream.on('close', () => !ur.complete && body.destroy());
      stream.pipe(body);
      this.emit('response', ur as unknown as http.IncomingMessage);
    });
    stream.on('error', (e) => ((this.settled = true), this.emit('error', e)));
    for (const ev of ['finish', 'timeout']) stream.on(ev, () => this.emit(ev));
    stream.on('close', () => {
      // A stream that ends with its session (the upstream closed the connection) gets no error of
      // its own: without an answer it fails, as a dropped HTTP/1.1 connection does ("socket hang up").
      if (!this.settled) this.emit('error', new Error('the HTTP/2 stream closed before its answer'));
      this.emit('close');
    });
  }
  setTimeout(ms: number): this {
    this.stream.setTimeout(ms);
    return this;
  }
  destroy(): this {
    this.stream.destroy();
    return this;
  }
  end(body?: Buffer): this {
    this.stream.end(body);
    return this;
  }
}

/** A request the session refused outright (e.g. a destroyed session): it fails as a connection would, on the next turn. */
class FailedRequest extends EventEmitter implements UpstreamRequest {
  readonly reusedSocket = false;
  constructor(e: Error) {
    super();
    process.nextTick(() => (this.emit('error', e), this.emit('close')));
  }
  setTimeout(): this {
    return this;
  }
  destroy(): this {
    return this;
  }
  end(): this {
    return this;
  }
}

/** The HTTP/2 sessions to the upstream, one per origin. */
export class H2Pool {
  private sessions = new Map<string, http2.ClientHttp2Session>();
  /** The fault's HTTP/2 hop: clean, or with its pool broken. */
  private readonly fault: NonNullable<Fault['upstreamHttp2']>;
  constructor(
    private readonly upstream: URL,
    /** The upstream's CA (PEM) to trust; undefined: the system's. */
    private readonly ca: string | undefined,
    fault: Fault,
  ) {
    this.fault = fault.upstreamHttp2 ?? {};
    if (upstream.protocol !== 'https:') throw new HarnessError('BAD_FLAG', `fault ${fault.name}: the gateway speaks HTTP/2 to its upstream over TLS, so the upstream must be an https:// URL (got ${upstream.origin}); \`demo --fault ${fault.name}\` starts one`);
  }

  /** The origin's session: the one open, or a new one. */
  private session(origin: string): http2.ClientHttp2Session {
    const had = this.sessions.get(origin);
    // The fault's pool hands out what it holds, even a session it destroyed itself.
    if (had && (this.fault.resetPoisonsSession || !(had.closed || had.destroyed))) return had;
    const s = http2.connect(origin, { ca: this.ca });
    const drop = () => this.sessions.get(origin) === s && this.sessions.delete(origin);
    // An error is the session's end (its requests get their own errors): never an uncaught one.
    s.on('error', () => drop());
    if (!this.fault.resetPoisonsSession) for (const ev of ['close', 'goaway']) s.on(ev, drop);
    this.sessions.set(origin, s);
    return s;
  }

  request(method: string, path: string, headers: string[]): UpstreamRequest {
    const s = this.session(this.upstream.origin);
    let stream: http2.ClientHttp2Stream;
    try {
      stream = s.request(requestHeaders(method, path, headers), { endStream: false });
    } catch (e) {
      return new FailedRequest(e as Error);
    }
    // The fault: a stream reset by the upstream is taken for a broken connection, and the session is destroyed.
    if (this.fault.resetPoisonsSession) stream.on('close', () => stream.rstCode !== undefined && stream.rstCode !== http2.constants.NGHTTP2_NO_ERROR && s.destroy());
    return new H2Request(stream);
  }

  close(): void {
    for (const s of this.sessions.values()) s.destroy();
    this.sessions.clear();
  }
}
