// The reference gateway's trace, for the self-tests' detection matrix: every request as a
// fault's hooks would be handed it, and what the upstream answered it, so that which requests a
// fault would alter can be read off a clean run (test/helpers/reach.ts) instead of found by
// running every check under every fault. Off unless the gateway is given a tracer; it only
// copies what passes (a body up to TRACE_KEEP), it changes nothing that is sent.
import type http from 'node:http';
import type { RequestParts } from './faults/index.js';

/** The most of one body (request or answer) a trace keeps; a longer one is kept as null: not known. */
export const TRACE_KEEP = 64 * 1024 * 1024;

export interface TracedAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The answer's body as the upstream sent it; null when longer than TRACE_KEEP. */
  body: Buffer | null;
  /** False when the upstream's answer broke off before its end. */
  complete: boolean;
}

export interface TracedExchange {
  /** The request as the hooks are handed it (after the base path and routing headers are taken off), before any hook. A body over TRACE_KEEP is null. */
  parts: Omit<RequestParts, 'body'> & { body: Buffer | null };
  /** The upstream's (last) answer; absent when the gateway answered itself (a preflight, a 404, a 502 or 504). */
  upstream?: TracedAnswer;
  /** The client went away before its answer was all written. */
  aborted: boolean;
}

export type Tracer = (x: TracedExchange) => void;

const open = new WeakMap<RequestParts, TracedExchange>();

/** Concatenates chunks while their total stays within TRACE_KEEP; null past it. */
function keeper() {
  let chunks: Buffer[] | null = [];
  let size = 0;
  return {
    add(c: Buffer) {
      if (!chunks) return;
      size += c.length;
      if (size > TRACE_KEEP) chunks = null;
      else chunks.push(c);
    },
    done: (): Buffer | null => (chunks ? Buffer.concat(chunks) : null),
  };
}

/**
 * Starts the trace of one request. `streamed`: the body is not in `parts` but passes through
 * this stream (the clean gateway's large bodies): the trace keeps a copy as it passes. The
 * exchange is handed to `trace` once the client's answer is over.
 */
export function traceRequest(trace: Tracer | undefined, parts: RequestParts, res: http.ServerResponse, streamed?: http.IncomingMessage): void {
  if (!trace) return;
  const x: TracedExchange = { parts: { method: parts.method, path: parts.path, headers: parts.headers.map(([k, v]) => [k, v] as [string, string]), body: parts.body }, aborted: false };
  if (streamed) {
    const body = keeper();
    streamed.on('data', (c: Buffer) => body.add(c));
    streamed.on('end', () => (x.parts.body = body.done()));
  }
  open.set(parts, x);
  res.on('close', () => {
    x.aborted = !res.writableFinished;
    open.delete(parts);
    trace(x);
  });
}

/** Records the upstream's answer to a traced request as it passes (the answer is read as usual). */
export function traceAnswer(parts: RequestParts, ur: http.IncomingMessage): void {
  const x = open.get(parts);
  if (!x) return;
  const body = keeper();
  const answer: TracedAnswer = { status: ur.statusCode ?? 502, headers: ur.headers, body: null, complete: false };
  x.upstream = answer;
  ur.on('data', (c: Buffer) => body.add(c));
  ur.on('end', () => {
    answer.complete = true;
    answer.body = body.done();
  });
  ur.on('close', () => {
    if (!answer.complete) answer.body = body.done();
  });
}
