// How an answer from the gateway ended when it did not end well, and the one bound on a whole
// answer: the client's errors (time-out, transport), what had arrived when an answer was cut
// off, and how long an answer may take counted from the request (shortened once the gateway has
// been seen leaving answers unfinished, so a hanging gateway does not cost every check its limit).
import { performance } from 'node:perf_hooks';
import { tlsFailure } from './transport.js';

/** What had arrived of an answer when it was cut off (a time limit, a reset). */
export interface Arrived {
  request: string;
  status: number | null;
  /** ms from the request to the response headers, and to the last byte received. */
  headersAfterMs: number | null;
  lastByteAfterMs: number | null;
  forMs: number;
  bytes: number;
  chunks: number;
  /** The first bytes, as text (inert; scrubbed with the rest of the report). */
  head: string;
}

/** The gateway did not answer in time. */
export class GatewayTimeoutError extends Error {
  constructor(
    message: string,
    readonly arrived?: Arrived,
  ) {
    super(message);
    this.name = 'GatewayTimeoutError';
  }
}

/** The gateway's connection failed (refused, reset, not HTTP). */
export class GatewayTransportError extends Error {
  constructor(
    message: string,
    readonly code: string,
    /** The connection closed or reset before any byte of the answer came: a real client sends such a request once more (retryable). */
    readonly beforeAnswer = false,
  ) {
    super(message);
    this.name = 'GatewayTransportError';
  }
}

/** The kind of a client error, without the text that varies (timings, addresses). */
export function errorKind(e: Error): string {
  if (e instanceof GatewayTimeoutError) return 'timeout';
  if (e instanceof GatewayTransportError) return `transport ${e.code}`;
  return e.name;
}

/** Connection errors that end a request before its answer: closed, reset, or broken while it was being sent. */
const BEFORE_ANSWER = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

export function classify(e: unknown, what: string, arrived?: Arrived): Error {
  const err = e as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code ?? err.name ?? 'UNKNOWN';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || err.name === 'TimeoutError')
    return new GatewayTimeoutError(`${what}: the gateway did not answer in time (${code})${arrived ? describeArrived(arrived) : ''}`, arrived);
  if (err.name === 'AbortError') return new GatewayTimeoutError(`${what}: aborted at the check's time limit${arrived ? describeArrived(arrived) : ''}`, arrived);
  // The SDKs the clients use send a request again after such an error (a kept-alive connection
  // the gateway closed without saying so, a reset before the answer): never after a byte of it.
  const beforeAnswer = BEFORE_ANSWER.has(code) && (!arrived || (arrived.status === null && arrived.bytes === 0));
  // An answer the HTTP parser refused (headers too large, a malformed line, an invalid status) is the gateway's, named as such.
  const invalid = code.startsWith('HPE_') || code === 'HTTPParserError' || code === 'UND_ERR_HEADERS_OVERFLOW' ? 'the answer is not valid HTTP: ' : '';
  // A TLS failure in the project's words, not the TLS library's.
  return new GatewayTransportError(`${what}: ${invalid}${code}: ${tlsFailure(e) ?? err.message ?? String(e)}`, code, beforeAnswer);
}

/** What arrived before an answer was cut off, in words: "status 200 after 3 ms, then 41 bytes in 12 chunks over 20001 ms". */
export function describeArrived(a: Arrived): string {
  if (a.status === null) return `; nothing arrived in ${a.forMs} ms`;
  return `; status ${a.status} after ${a.headersAfterMs} ms, then ${a.bytes} body bytes in ${a.chunks} chunk${a.chunks === 1 ? '' : 's'} over ${a.forMs} ms${a.bytes ? ` (last byte at ${a.lastByteAfterMs} ms)` : ''}`;
}


/** Answers left unfinished in a row (each for most of the time limit) after which the gateway is taken for hanging. */
export const HUNG_AFTER = 2;

/**
 * What the client has seen of the gateway's answers, shared by every check's view of it: how
 * many in a row were left unfinished for most of the time limit. Once HUNG_AFTER were, each
 * later answer gets a short budget counted from its request, so a run against a gateway that
 * hangs costs two full time limits and then a short one per check, not the limit per check. The
 * first answer that completes restores the full limit.
 */
export class HangMemory {
  unfinished = 0;
  readonly shortMs: number;
  constructor(readonly fullMs: number) {
    this.shortMs = Math.min(fullMs, Math.max(1000, Math.round(fullMs / 8)));
  }
  get hanging(): boolean {
    return this.unfinished >= HUNG_AFTER;
  }
  /** An answer ended: completed, or cut off after `forMs` (counted when it had most of the limit). */
  ended(completed: boolean, forMs: number): void {
    if (completed) this.unfinished = 0;
    else if (forMs >= 0.8 * this.fullMs || this.hanging) this.unfinished++;
  }
}

/** One answer's bound, counted from its request: none of its own unless the gateway was seen hanging (the check's limit bounds it then). */
export class AnswerBound {
  readonly signal: AbortSignal;
  readonly budgetMs: number | null;
  private readonly ac = new AbortController();
  private readonly timer?: NodeJS.Timeout;
  private readonly onOuter = () => this.ac.abort();
  private readonly startedAt = performance.now();
  hit = false;
  /** Answers left unfinished in a row before this one. */
  private readonly before: number;
  constructor(
    private readonly mem: HangMemory,
    private readonly outer?: AbortSignal,
  ) {
    this.signal = this.ac.signal;
    this.budgetMs = mem.hanging ? mem.shortMs : null;
    this.before = mem.unfinished;
    if (this.budgetMs !== null)
      this.timer = setTimeout(() => {
        this.hit = true;
        this.ac.abort();
      }, this.budgetMs);
    if (outer?.aborted) this.ac.abort();
    else outer?.addEventListener('abort', this.onOuter, { once: true });
  }
  /** The answer ended, completed or not. */
  end(completed: boolean): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.onOuter);
    this.mem.ended(completed, performance.now() - this.startedAt);
  }
  /** Why the answer was cut off, when its own budget did it. */
  why(what: string, arrived?: Arrived): GatewayTimeoutError | null {
    if (!this.hit) return null;
    return new GatewayTimeoutError(`${what}: no complete answer within ${this.budgetMs} ms of the request: the gateway had left ${this.before} answers in a row unfinished, so later ones get ${this.budgetMs} ms (headers, informational answers and body)${arrived ? describeArrived(arrived) : ''}`, arrived);
  }
}
