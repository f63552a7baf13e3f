// Reads a server-sent event stream from the gateway and records, for each event, when its
// last byte arrived (performance.now(), the clock the recording upstream stamps its frames
// with). Parsing is eventsource-parser's; a gzip-encoded stream is decoded as a client would.
import { Client, request, type Agent, type Dispatcher } from 'undici';
import { newClient } from './transport.js';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { createGunzip, createInflate, createBrotliDecompress } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { passedThrough, released } from '../core/pressure.js';
import type { Transform } from 'node:stream';
import { classify, errorKind, GatewayTransportError, isSizedBody, type GatewayClient, type GwRequest } from './gateway.js';
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

/**
 * Sends the request; a failure before the response headers is classified and reported like any
 * request's. One whose connection failed before any answer byte is sent once more on a fresh
 * connection (`fresh`, closed by the caller after the stream), unless the check chose the
 * connection itself (opts.dispatcher).
 */
async function openStream(gw: GatewayClient, req: GwRequest, sent: { url: string; headers: string[] }, signal: AbortSignal, opts: StreamOptions, fresh: { agent?: Agent }): Promise<Dispatcher.ResponseData> {
  const once = (dispatcher: Dispatcher) =>
    request(sent.url, {
      method: (req.method ?? 'POST') as 'POST',
      headers: sent.headers,
      body: isSizedBody(req.body) ? Buffer.concat([...req.body.chunks()]) : req.body,
      signal,
      dispatcher,
      // A buffering proxy may hold the headers back with the first events.
      ...(opts.idleTimeoutMs ? { bodyTimeout: opts.idleTimeoutMs, headersTimeout: opts.idleTimeoutMs } : {}),
    });
  const what = `${req.method ?? 'POST'} ${req.path}`;
  try {
    return await once(opts.dispatcher ?? gw.dispatcher);
  } catch (e) {
    const first = classify(e, what);
    if (opts.dispatcher || !(first instanceof GatewayTransportError) || !first.beforeAnswer || signal.aborted) {
      gw.onReceive?.(req, { error: errorKind(first) });
      throw first;
    }
    try {
      fresh.agent = gw.newAgent();
      return await once(fresh.agent);
    } catch (again) {
      const err = classify(again, what);
      gw.onReceive?.(req, { error: errorKind(err) });
      throw err;
    }
  }
}

export function readStream(gw: GatewayClient, req: GwRequest, opts: StreamOptions = {}): Promise<SseResult> {
  return gw.track(read(gw, req, opts));
}

async function read(gw: GatewayClient, req: GwRequest, opts: StreamOptions): Promise<SseResult> {
  gw.onSend?.({ ...req, method: req.method ?? 'POST' });
  // The protocol's targeting (base path, headers, credential style) as for any request.
  const sent = gw.prepare(req, 'POST');
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort();
  // The check's signal, and the short budget of a gateway seen hanging (src/client/answer.ts).
  const bound = gw.answerBound(req.signal);
  bound.signal.addEventListener('abort', onOuterAbort);
  const startedAt = performance.now();
  // Every client-side bound counts from the request: a gateway that holds the headers back is
  // left at abortAfterMs like one that streams nothing after them.
  let abortedAt: number | undefined;
  const abortTimer =
    opts.abortAfterMs === undefined
      ? undefined
      : setTimeout(() => {
          abortedAt = performance.now();
          controller.abort();
        }, opts.abortAfterMs);
  const release = () => {
    clearTimeout(abortTimer);
    bound.signal.removeEventListener('abort', onOuterAbort);
  };
  let res: Dispatcher.ResponseData;
  const fresh: { agent?: Agent } = {};
  try {
    res = await openStream(gw, req, sent, controller.signal, opts, fresh);
  } catch (e) {
    release();
    bound.end(abortedAt !== undefined);
    void fresh.agent?.destroy().catch(() => {});
    if (abortedAt === undefined) throw bound.why(`${req.method ?? 'POST'} ${req.path}`) ?? e;
    return leftEarly(gw, req, startedAt, abortedAt);
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
    if (abortedAt === undefined && !result.abortedAt) result.error = (bound.why(req.path) ?? classify(e, req.path)).message;
  } finally {
    release();
    bound.end(result.error === undefined);
    // A retry's connection: its one stream is read (or left), nothing else uses it.
    void fresh.agent?.destroy().catch(() => {});
  }
  result.abortedAt ??= abortedAt;
  result.raw = Buffer.concat(k.body);
  // The chunks, kept until the body was whole (most of them promoted by now), are garbage.
  released(result.raw.length);
  k.body.length = 0;
  result.endedAt = performance.now();
  gw.onReceive?.(req, { status: result.status, rawHeaders: raw, body: result.raw, aborted: result.abortedAt !== undefined, error: result.error === undefined ? undefined : 'stream error' });
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
function leftEarly(gw: GatewayClient, req: GwRequest, startedAt: number, abortedAt: number): SseResult {
  const error = `the client left ${Math.round(abortedAt - startedAt)} ms after the request, before any response header arrived`;
  gw.onReceive?.(req, { error: 'left before headers' });
  return { status: 0, rawHeaders: [], header: () => undefined, events: [], raw: Buffer.alloc(0), chunks: [], startedAt, headersAt: abortedAt, endedAt: abortedAt, abortedAt, leftBeforeHeaders: true, error };
}

/** A client holding one connection, to see whether the gateway keeps it open across requests. */
export function singleConnection(gw: GatewayClient): { client: Client; connects: () => number } {
  let n = 0;
  const client = newClient(gw.base.origin, gw.connectOptions);
  client.on('connect', () => n++);
  return { client, connects: () => n };
}
