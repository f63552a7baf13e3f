// Reads a server-sent event stream from the gateway (sent through the client's one pipeline,
// GatewayClient.dispatch) and records, for each event, when its last byte arrived
// (performance.now(), the clock the recording upstream stamps its frames with). Parsing is
// eventsource-parser's, or the AWS event-stream decoder's for an answer so framed (collect.ts); a
// gzip-encoded stream is decoded as a client would.
import { Client, request, type Dispatcher } from 'undici';
import { newClient } from './transport.js';
import { performance } from 'node:perf_hooks';
import { passedThrough, released } from '../core/pressure.js';
import type { Transform } from 'node:stream';
import type { GatewayClient } from './gateway.js';
import { answerKindOf, classify, GatewayTimeoutError, GatewayTransportError, type AnswerBound } from './answer.js';
import { isSizedBody, type GwRequest, type Route } from './request.js';
import { pairsFromRecord } from './headers.js';
import { collector, decoder, type Collector, type SseEvent } from './collect.js';
import { isEventStreamType, type Framing } from '../core/framing.js';
import { plural } from '../core/words.js';

export type { FrameVerdict, SseEvent } from './collect.js';
export { LINE_MAX, STREAM_MAX } from './collect.js';

export interface SseResult {
  status: number;
  rawHeaders: Array<[string, string]>;
  header(name: string): string | undefined;
  events: SseEvent[];
  /** The body as received (after content decoding, if any): its first STREAM_KEEP bytes. */
  raw: Buffer;
  /** How many bytes of the (decoded) body the client read: more than `raw` holds when it went past STREAM_KEEP. */
  rawBytes: number;
  /** Each received chunk: arrival time and size, for burst evidence. */
  chunks: Array<{ at: number; bytes: number }>;
  startedAt: number;
  headersAt: number;
  endedAt: number;
  /** Set when the stream ended with an error (reset, time-out) instead of a clean end. */
  error?: string;
  /** The error is the client's own time-out: the stream neither went on nor ended (not a reset or a broken body). */
  timedOut?: boolean;
  /** How the answer framed its events (its content-type): SSE text, or AWS event-stream messages (each event's `frame` verdict). */
  framing: Framing;
  /** With AWS event-stream framing: why the bytes could not all be read as messages (a truncated last message, a length no message has). */
  framingError?: string;
  /** Set when the client closed the stream itself (abortAfterEvents, abortAfterMs). */
  abortedAt?: number;
  /** Set when the client left (abortAfterMs) before the response headers arrived: status is 0 then. */
  leftBeforeHeaders?: boolean;
  /** The client stopped reading at its bound (STREAM_MAX, LINE_MAX, EVENTS_MAX): `error` says which. */
  cutAtBound?: true;
}

export interface StreamOptions {
  /** The client disconnects after this many events. */
  abortAfterEvents?: number;
  /** The client disconnects this long after it sent the request, whatever it got by then (headers or not). */
  abortAfterMs?: number;
  /** Per-read idle limit; a longer silence ends the stream with an error (default: the client's). */
  idleTimeoutMs?: number;
  dispatcher?: Dispatcher;
}

/** Reads a body with no content-encoding, until its end or until `stop()`. */
async function readPlain(res: Dispatcher.ResponseData, k: Collector, stop: () => boolean): Promise<void> {
  for await (const c of res.body) {
    const at = performance.now();
    k.chunk(at, (c as Buffer).length);
    k.feed(c as Buffer, at);
    if (stop()) break;
  }
}

/** Reads a compressed body through its decoder; decoded output is stamped with the arrival of the compressed chunk that released it. */
async function readDecoded(res: Dispatcher.ResponseData, dec: Transform, k: Collector, headersAt: number, stop: () => boolean): Promise<void> {
  let lastArrival = headersAt;
  // Once the client has read all it reads (STREAM_MAX), the decoder is paused at once: a small
  // compressed chunk can inflate to a hundred MiB, all of it decoded (and thrown away) before
  // the chunk's write completes. Paused, the decoder stops at its buffer, and the wait below ends.
  let full!: () => void;
  const filled = new Promise<void>((r) => (full = r));
  dec.on('data', (c: Buffer) => {
    passedThrough(c.length);
    k.feed(c, lastArrival);
    if (k.tooLong()) {
      dec.pause();
      full();
    }
  });
  // A body that is not what its content-encoding claims: the write below fails with it; the
  // event must not go unheard (it would be an uncaught exception).
  let decodeError: Error | undefined;
  dec.on('error', (e) => (decodeError ??= e));
  for await (const c of res.body) {
    lastArrival = performance.now();
    k.chunk(lastArrival, (c as Buffer).length);
    await Promise.race([new Promise<void>((resolve, reject) => dec.write(c, (err) => (err ? reject(err) : resolve()))), filled]);
    if (stop()) break;
  }
  if (k.tooLong()) dec.destroy();
  else
    await new Promise<void>((resolve) => {
      dec.once('end', resolve);
      dec.once('error', () => resolve());
      dec.end();
    });
  if (decodeError) throw new Error(`the stream is not ${res.headers['content-encoding']} as its content-encoding claims (${(decodeError as NodeJS.ErrnoException).code ?? decodeError.message})`);
}

/** A stream in progress, as its attempts share it: one bound and one abort for both. */
interface Streaming {
  req: GwRequest;
  opts: StreamOptions;
  bound: AnswerBound;
  controller: AbortController;
  startedAt: number;
  /** When the client left (abortAfterMs), if it did. */
  left: { at?: number };
  release(): void;
}

/**
 * Sends the request through the client's one pipeline (GatewayClient.dispatch: its route, the
 * retry on a fresh connection unless the check chose the connection, the runner's hooks) and
 * reads its stream. Every client-side bound counts from the request: a gateway that holds the
 * headers back is left at abortAfterMs like one that streams nothing after them.
 */
export async function readStream(gw: GatewayClient, req: GwRequest, opts: StreamOptions = {}): Promise<SseResult> {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort();
  // The check's signal, and the short budget of a gateway seen hanging (src/client/answer.ts).
  const bound = gw.answerBound(req.signal, 'stream');
  bound.signal.addEventListener('abort', onOuterAbort);
  const startedAt = performance.now();
  const left: Streaming['left'] = {};
  const abortTimer =
    opts.abortAfterMs === undefined
      ? undefined
      : setTimeout(() => {
          left.at = performance.now();
          controller.abort();
        }, opts.abortAfterMs);
  const release = () => {
    clearTimeout(abortTimer);
    bound.signal.removeEventListener('abort', onOuterAbort);
  };
  const s: Streaming = { req, opts, bound, controller, startedAt, left, release };
  const { answer } = await gw.dispatch(req, {
    method: 'POST',
    signal: controller.signal,
    dispatcher: opts.dispatcher,
    attempt: (route, dispatcher) => readOn(s, route, dispatcher),
    received: (r) => (r.leftBeforeHeaders ? { error: 'left before headers' } : { status: r.status, rawHeaders: r.rawHeaders, body: r.raw, aborted: r.abortedAt !== undefined, error: r.error === undefined ? undefined : 'stream error' }),
    // No answer: the bound's own reason, or the stream of a client that left before any header.
    failed: (e) => {
      release();
      bound.end(left.at !== undefined);
      return left.at === undefined ? { error: bound.why(`${req.method ?? 'POST'} ${req.path}`) ?? e } : { answer: leftEarly(startedAt, left.at) };
    },
  });
  // A stream read to the client's bound is told as a connection the client cut (the runner counts such answers: src/runner/unbounded.ts).
  if (answer.cutAtBound) gw.onConnectionFailed?.(new GatewayTransportError(answer.error ?? 'the stream went on past the client\'s bound', 'STREAM_TOO_LONG'));
  return answer;
}

/** One attempt: a failure before the response headers is classified like any request's; after them, it ends the stream (`error`). */
async function readOn(s: Streaming, route: Route, dispatcher: Dispatcher): Promise<SseResult> {
  const { req, opts, bound, controller, startedAt } = s;
  let res: Dispatcher.ResponseData;
  try {
    res = await request(route.url, {
      method: route.method as 'POST',
      headers: route.headers,
      body: isSizedBody(req.body) ? Buffer.concat([...req.body.chunks()]) : req.body,
      signal: controller.signal,
      dispatcher,
      // A buffering proxy may hold the headers back with the first events.
      ...(opts.idleTimeoutMs ? { bodyTimeout: opts.idleTimeoutMs, headersTimeout: opts.idleTimeoutMs } : {}),
    });
  } catch (e) {
    throw classify(e, `${route.method} ${req.path}`);
  }
  const headersAt = performance.now();
  const raw = pairsFromRecord(res.headers);
  const k = collector(headersAt, isEventStreamType(res.headers['content-type'] as string | undefined) ? 'aws-eventstream' : 'sse');
  const result = started(res, raw, k, startedAt, headersAt);
  const dec = decoder(res.headers['content-encoding'] as string | undefined);
  const enoughEvents = () => opts.abortAfterEvents !== undefined && k.events.length >= opts.abortAfterEvents;
  const stop = () => enoughEvents() || k.tooLong() !== false;
  try {
    if (dec) await readDecoded(res, dec, k, headersAt, stop);
    else await readPlain(res, k, stop);
    const tooLong = k.tooLong();
    if (tooLong) {
      result.error = `${req.path}: ${tooLong} (${plural(k.events.length, 'event')} in ${Math.round(performance.now() - startedAt)} ms); the client stopped reading`;
      result.cutAtBound = true;
      controller.abort();
    } else if (enoughEvents() && result.abortedAt === undefined) {
      result.abortedAt = performance.now();
      controller.abort();
    }
  } catch (e) {
    if (s.left.at === undefined && !result.abortedAt) {
      const err = bound.why(req.path) ?? classify(e, req.path);
      result.error = err.message;
      result.timedOut = err instanceof GatewayTimeoutError;
    }
  } finally {
    s.release();
    bound.end(result.error === undefined, answerKindOf(res.headers['content-type']));
  }
  result.abortedAt ??= s.left.at;
  result.framing = k.framing;
  const unframed = k.framingEnd();
  if (unframed && result.abortedAt === undefined) result.framingError = unframed;
  result.raw = Buffer.concat(k.body);
  result.rawBytes = k.bytes();
  // The chunks, kept until the body was whole (most of them promoted by now), are garbage.
  released(result.raw.length);
  k.body.length = 0;
  result.endedAt = performance.now();
  return result;
}

/** A stream's result as its headers arrive (its events and chunks fill in as they are read). */
function started(res: Dispatcher.ResponseData, raw: Array<[string, string]>, k: Collector, startedAt: number, headersAt: number): SseResult {
  return {
    status: res.statusCode,
    rawHeaders: raw,
    header: (n) => raw.find(([name]) => name.toLowerCase() === n.toLowerCase())?.[1],
    events: k.events,
    raw: Buffer.alloc(0),
    rawBytes: 0,
    chunks: k.chunks,
    startedAt,
    headersAt,
    endedAt: headersAt,
    framing: k.framing,
  };
}

/** The stream of a client that left (abortAfterMs) before any response header came: no status, no events. */
function leftEarly(startedAt: number, abortedAt: number): SseResult {
  const error = `the client left ${Math.round(abortedAt - startedAt)} ms after the request, before any response header arrived`;
  return { status: 0, rawHeaders: [], header: () => undefined, events: [], raw: Buffer.alloc(0), rawBytes: 0, chunks: [], framing: 'sse', startedAt, headersAt: abortedAt, endedAt: abortedAt, abortedAt, leftBeforeHeaders: true, error };
}

/** A client holding one connection, to see whether the gateway keeps it open across requests. */
export function singleConnection(gw: GatewayClient): { client: Client; connects: () => number } {
  let n = 0;
  const client = newClient(gw.base.origin, gw.connectOptions);
  client.on('connect', () => n++);
  return { client, connects: () => n };
}
