// Reads a server-sent event stream from the gateway (sent through the client's one pipeline,
// GatewayClient.dispatch) and records, for each event, when its last byte arrived
// (performance.now(), the clock the recording upstream stamps its frames with). Parsing is
// eventsource-parser's; a gzip-encoded stream is decoded as a client would.
import { Client, request, type Dispatcher } from 'undici';
import { newClient } from './transport.js';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { createGunzip, createInflate, createBrotliDecompress } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { passedThrough, released } from '../core/pressure.js';
import type { Transform } from 'node:stream';
import type { GatewayClient } from './gateway.js';
import { classify, type AnswerBound } from './answer.js';
import { isSizedBody, type GwRequest, type Route } from './request.js';
import { pairsFromRecord } from './headers.js';

export interface SseEvent {
  event: string | undefined;
  data: string;
  id: string | undefined;
  /** performance.now() when the chunk holding the event's last byte arrived. */
  arrivedAt: number;
}

export interface SseResult {
  status: number;
  rawHeaders: Array<[string, string]>;
  header(name: string): string | undefined;
  events: SseEvent[];
  /** The body as received (after content decoding, if any). */
  raw: Buffer;
  /** Each received chunk: arrival time and size, for burst evidence. */
  chunks: Array<{ at: number; bytes: number }>;
  startedAt: number;
  headersAt: number;
  endedAt: number;
  /** Set when the stream ended with an error (reset, time-out) instead of a clean end. */
  error?: string;
  /** Set when the client closed the stream itself (abortAfterEvents, abortAfterMs). */
  abortedAt?: number;
  /** Set when the client left (abortAfterMs) before the response headers arrived: status is 0 then. */
  leftBeforeHeaders?: boolean;
}

/** The most of one stream the client reads (decoded): an endless stream is cut here, with an error saying so. */
export const STREAM_MAX = 6 * 1024 * 1024;
/** The longest line of a stream the client reads (a larger event's data is sent as several lines or not at all). */
export const LINE_MAX = 1024 * 1024;
/** Per-chunk timing entries kept (the rest is counted in the stream's length). */
const CHUNKS_KEPT = 20_000;

export interface StreamOptions {
  /** The client disconnects after this many events. */
  abortAfterEvents?: number;
  /** The client disconnects this long after it sent the request, whatever it got by then (headers or not). */
  abortAfterMs?: number;
  /** Per-read idle limit; a longer silence ends the stream with an error (default: the client's). */
  idleTimeoutMs?: number;
  dispatcher?: Dispatcher;
}

function decoder(encoding: string | undefined): Transform | null {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return null;
  }
}

/** What the client keeps of a stream as it reads: its events, chunk timings, body, and why it stopped reading early. */
function collector(headersAt: number) {
  const events: SseEvent[] = [];
  const chunks: SseResult['chunks'] = [];
  const body: Buffer[] = [];
  let now = headersAt;
  let total = 0;
  let tooLong: string | false = false;
  let line = 0;
  const parser = createParser({ onEvent: (m: EventSourceMessage) => events.push({ event: m.event, data: m.data, id: m.id, arrivedAt: now }) });
  // A multi-byte character split across two chunks must be decoded whole.
  const utf8 = new TextDecoder('utf-8');
  /** Decoded bytes, stamped with the arrival of the chunk that brought them. */
  const feed = (c: Buffer, at: number) => {
    if (tooLong) return;
    now = at;
    // One line that never ends is held by the parser whole: cut it at LINE_MAX.
    const nl = c.lastIndexOf(0x0a);
    line = nl < 0 ? line + c.length : c.length - nl - 1;
    if (line > LINE_MAX) {
      tooLong = `a line of the stream went on past ${LINE_MAX} bytes without a line break`;
      return;
    }
    if (total + c.length > STREAM_MAX) {
      tooLong = `the stream went on past ${STREAM_MAX} bytes`;
      c = c.subarray(0, STREAM_MAX - total);
    }
    total += c.length;
    body.push(c);
    parser.feed(utf8.decode(c, { stream: true }));
  };
  /** A chunk as it came off the wire. */
  const chunk = (at: number, bytes: number) => {
    passedThrough(bytes);
    if (chunks.length < CHUNKS_KEPT) chunks.push({ at, bytes });
  };
  return { events, chunks, body, feed, chunk, tooLong: () => tooLong };
}

type Collector = ReturnType<typeof collector>;

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
  dec.on('data', (c: Buffer) => {
    passedThrough(c.length);
    k.feed(c, lastArrival);
  });
  // A body that is not what its content-encoding claims: the write below fails with it; the
  // event must not go unheard (it would be an uncaught exception).
  let decodeError: Error | undefined;
  dec.on('error', (e) => (decodeError ??= e));
  for await (const c of res.body) {
    lastArrival = performance.now();
    k.chunk(lastArrival, (c as Buffer).length);
    await new Promise<void>((resolve, reject) => dec.write(c, (err) => (err ? reject(err) : resolve())));
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
  const bound = gw.answerBound(req.signal);
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
  const k = collector(headersAt);
  const result = started(res, raw, k, startedAt, headersAt);
  const dec = decoder(res.headers['content-encoding'] as string | undefined);
  const enoughEvents = () => opts.abortAfterEvents !== undefined && k.events.length >= opts.abortAfterEvents;
  const stop = () => enoughEvents() || k.tooLong() !== false;
  try {
    if (dec) await readDecoded(res, dec, k, headersAt, stop);
    else await readPlain(res, k, stop);
    const tooLong = k.tooLong();
    if (tooLong) {
      result.error = `${req.path}: ${tooLong} (${k.events.length} events in ${Math.round(performance.now() - startedAt)} ms); the client stopped reading`;
      controller.abort();
    } else if (enoughEvents() && result.abortedAt === undefined) {
      result.abortedAt = performance.now();
      controller.abort();
    }
  } catch (e) {
    if (s.left.at === undefined && !result.abortedAt) result.error = (bound.why(req.path) ?? classify(e, req.path)).message;
  } finally {
    s.release();
    bound.end(result.error === undefined);
  }
  result.abortedAt ??= s.left.at;
  result.raw = Buffer.concat(k.body);
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
    chunks: k.chunks,
    startedAt,
    headersAt,
    endedAt: headersAt,
  };
}

/** The stream of a client that left (abortAfterMs) before any response header came: no status, no events. */
function leftEarly(startedAt: number, abortedAt: number): SseResult {
  const error = `the client left ${Math.round(abortedAt - startedAt)} ms after the request, before any response header arrived`;
  return { status: 0, rawHeaders: [], header: () => undefined, events: [], raw: Buffer.alloc(0), chunks: [], startedAt, headersAt: abortedAt, endedAt: abortedAt, abortedAt, leftBeforeHeaders: true, error };
}

/** A client holding one connection, to see whether the gateway keeps it open across requests. */
export function singleConnection(gw: GatewayClient): { client: Client; connects: () => number } {
  let n = 0;
  const client = newClient(gw.base.origin, gw.connectOptions);
  client.on('connect', () => n++);
  return { client, connects: () => n };
}
