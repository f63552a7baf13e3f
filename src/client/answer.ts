// How an answer from the gateway ended when it did not end well, and the one bound on a whole
// answer: the client's errors (time-out, transport), what had arrived when an answer was cut
// off, and how long an answer may take counted from the request (shortened once the gateway has
// been seen leaving answers unfinished, so a hanging gateway does not cost every check its limit).
import { performance } from 'node:perf_hooks';
import { tlsFailure } from './transport.js';
import { routeOfRequest } from '../protocols/index.js';

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
  if (e instanceof GatewayTransportError) return e; // named already (answerTooLarge)
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

/**
 * The most of one whole answer the client reads. The recording upstream's answers are a few
 * KiB, and a translating gateway's no larger than a few times that: an answer past this is the
 * gateway's own, and reading all of a 500 MB one (hashing it as it comes) took about a second
 * per request, so a run against such a gateway lasted minutes. A stream has its own bound
 * (STREAM_MAX).
 */
export const ANSWER_MAX = 16 * 1024 * 1024;

/** The error for an answer past ANSWER_MAX; ends its bound as answered (the gateway is not hanging). */
export function answerTooLarge(what: string, arrived: Arrived, bound: AnswerBound): GatewayTransportError {
  bound.end(true);
  return new GatewayTransportError(`${what}: the answer went on past ${ANSWER_MAX / 1024 / 1024} MiB, where the recording upstream's answers are a few KiB: the client stopped reading it${describeArrived(arrived)}`, 'ANSWER_TOO_LARGE');
}

/** What arrived before an answer was cut off, in words: "status 200 after 3 ms, then 41 bytes in 12 chunks over 20001 ms". */
export function describeArrived(a: Arrived): string {
  if (a.status === null) return `; nothing arrived in ${a.forMs} ms`;
  return `; status ${a.status} after ${a.headersAfterMs} ms, then ${a.bytes} body bytes in ${a.chunks} chunk${a.chunks === 1 ? '' : 's'} over ${a.forMs} ms${a.bytes ? ` (last byte at ${a.lastByteAfterMs} ms)` : ''}`;
}


/**
 * The reason a check's signal is aborted with at its time limit (the runner's): an answer cut
 * then counts toward a hanging gateway, where one its check stopped waiting for by choice (its
 * own shorter wait, or the check's end) does not.
 */
export class TimeLimitReached extends DOMException {
  constructor(readonly limitMs: number) {
    // An abort like any other (name AbortError) to whatever reads the signal's reason.
    super(`the check's time limit (${limitMs} ms) was reached`, 'AbortError');
  }
}

/** Answers left unfinished in a row (each for most of the time limit) after which the gateway is taken for hanging. */
export const HUNG_AFTER = 2;

/** An answer the client reads as a stream (it asked for one), or whole: HangMemory counts them apart. */
export type AnswerKind = 'stream' | 'whole';

/**
 * What the client has seen of the gateway's answers, shared by every check's view of it: how
 * many in a row were left unfinished for most of the time limit, and since when the gateway has
 * been taken for hanging. Once HUNG_AFTER were, each later answer gets a short budget counted
 * from its request, so a run against a gateway that hangs costs two full time limits and then a
 * short one per check, not the limit per check. And the run has one allowance for a hanging
 * gateway, one time limit counted from when it was first taken for hanging: once that is spent,
 * while the gateway still hangs one answer at a time gets the probe budget (an eighth of the
 * short one: time enough for an answer over loopback, not for a wait) to see whether it answers
 * again, and the others are not sent at all; so the run's wall time does not grow with the
 * number of checks a hanging gateway would time out. The first answer that completes restores
 * the full limit.
 *
 * Streamed answers and whole ones are counted apart (AnswerKind): a gateway whose streams never
 * end while it answers every other request at once is taken for hanging on its streams, which
 * its quick answers would otherwise keep forgiving; a kind that has never completed an answer
 * hangs with the other (a gateway that answers nothing gets no second grace).
 */
export class HangMemory {
  /** Answers of each kind left unfinished in a row; a completed answer of the kind resets its count. */
  private readonly unfinishedOf: Record<AnswerKind, number> = { stream: 0, whole: 0 };
  private readonly completedOnce: Record<AnswerKind, boolean> = { stream: false, whole: false };
  /** Answers left unfinished in a row, of the kind that has left most. */
  get unfinished(): number {
    return Math.max(this.unfinishedOf.stream, this.unfinishedOf.whole);
  }
  readonly shortMs: number;
  /** performance.now() when the gateway was first taken for hanging, or null. */
  brokenAt: number | null = null;
  constructor(
    readonly fullMs: number,
    /** The run's allowance for a hanging gateway (default: one time limit). */
    readonly allowanceMs = fullMs,
  ) {
    this.shortMs = Math.min(fullMs, Math.max(1000, Math.round(fullMs / 8)));
    this.probeMs = Math.max(100, Math.round(this.shortMs / 8));
  }
  /** An answer's budget while the gateway hangs and the run's allowance is spent. */
  readonly probeMs: number;
  /** Whether answers of `kind` are taken for hanging. */
  hangingFor(kind: AnswerKind): boolean {
    const other: AnswerKind = kind === 'stream' ? 'whole' : 'stream';
    return this.unfinishedOf[kind] >= HUNG_AFTER || (!this.completedOnce[kind] && this.unfinishedOf[other] >= HUNG_AFTER);
  }
  get hanging(): boolean {
    return this.hangingFor('whole') || this.hangingFor('stream');
  }
  /** What is left of the run's allowance for a hanging gateway at `now` (Infinity before it was first taken for hanging). */
  allowanceLeft(now: number): number {
    return this.brokenAt === null ? Infinity : Math.max(0, this.brokenAt + this.allowanceMs - now);
  }
  /** Until when an answer with the probe budget is under way (its budget's end, or when it ends first). */
  probingUntil = 0;
  /**
   * The budget of an answer starting at `now` whose own budget (its check's limit) is `ownMs`, and
   * which kind it is; 0 (not sent) while another answer has the probe budget. Taking the probe
   * budget holds it until `ended`.
   */
  take(ownMs: number, now: number, of: AnswerKind = 'whole'): { ms: number; kind: 'own' | 'short' | 'probe' | 'none' } {
    if (!this.hangingFor(of)) return { ms: ownMs, kind: 'own' };
    const left = this.allowanceLeft(now);
    if (left > this.probeMs) return { ms: Math.min(this.shortMs, left), kind: 'short' };
    if (now < this.probingUntil) return { ms: 0, kind: 'none' };
    this.probingUntil = now + this.probeMs;
    return { ms: this.probeMs, kind: 'probe' };
  }
  /**
   * An answer ended: completed, or cut off after `forMs` (counted when it had most of the limit).
   * `leftByCheck`: its check stopped waiting for it by choice (a wait of the check's own, the
   * check's end): not counted, however long it lasted.
   */
  ended(completed: boolean, forMs: number, now = performance.now(), probe = false, of: AnswerKind = 'whole', leftByCheck = false): void {
    if (probe) this.probingUntil = 0;
    if (completed) {
      this.unfinishedOf[of] = 0;
      this.completedOnce[of] = true;
    } else if (!leftByCheck && (forMs >= 0.8 * this.fullMs || this.hangingFor(of))) this.unfinishedOf[of]++;
    if (this.hangingFor(of)) this.brokenAt ??= now;
  }
}

/**
 * One answer's bound, counted from its request: one budget for the whole answer (status line,
 * informational answers, headers, body or stream together), its check's limit, or the short
 * budget of a gateway taken for hanging (HangMemory.budget); the request's own signal, and its
 * check's end (a check ended at its time limit sends and reads nothing more behind the run's back).
 */
export class AnswerBound {
  readonly signal: AbortSignal;
  readonly budgetMs: number;
  private readonly ac = new AbortController();
  private readonly timer?: NodeJS.Timeout;
  private readonly onOuter = () => this.ac.abort();
  private readonly startedAt = performance.now();
  hit = false;
  private ended = false;
  /** The signals that end the answer before its budget: the request's, its check's. */
  private readonly outers: AbortSignal[];
  /** Answers left unfinished in a row before this one. */
  private readonly before: number;
  /** Which budget this answer got: its own, the short one of a hanging gateway, the probe budget once the run's allowance was spent, or none (not sent). */
  private readonly kind: 'own' | 'short' | 'probe' | 'none';
  constructor(
    private readonly mem: HangMemory,
    outer?: AbortSignal,
    /** The answer's own budget when the gateway is not taken for hanging: its check's limit. */
    ownMs = mem.fullMs,
    /** The end of the answer's check (the runner aborts it when the check ends). */
    check?: AbortSignal,
    /** Streamed or whole: the gateway's hangs are counted per kind. */
    private readonly of: AnswerKind = 'whole',
  ) {
    this.signal = this.ac.signal;
    this.before = mem.unfinished;
    ({ ms: this.budgetMs, kind: this.kind } = mem.take(ownMs, this.startedAt, of));
    const cut = () => {
      this.hit = true;
      this.ac.abort();
    };
    if (this.kind === 'none') cut();
    else this.timer = setTimeout(cut, this.budgetMs);
    this.outers = [outer, check].filter((o): o is AbortSignal => o !== undefined);
    for (const o of this.outers) {
      if (o.aborted) this.ac.abort();
      else o.addEventListener('abort', this.onOuter, { once: true });
    }
  }
  /** The answer ended, completed or not; `answeredAs`: what came (a stream asked for may come whole), else what was asked. */
  end(completed: boolean, answeredAs: AnswerKind = this.of): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.timer);
    for (const o of this.outers) o.removeEventListener('abort', this.onOuter);
    const now = performance.now();
    // Cut by an outer signal for the check's own reasons (its own shorter wait, its end), not by
    // this answer's budget or at the check's time limit (TimeLimitReached): not counted.
    const leftByCheck = !this.hit && this.outers.some((o) => o.aborted) && !this.outers.some((o) => o.reason instanceof TimeLimitReached);
    this.mem.ended(completed, now - this.startedAt, now, this.kind === 'probe', answeredAs, leftByCheck);
  }
  /** Why the answer was cut off, when its own budget did it. */
  why(what: string, arrived?: Arrived): GatewayTimeoutError | null {
    if (!this.hit) return null;
    const whole = '(headers, informational answers and body together)';
    const allowance = `the run's allowance for a hanging gateway (${this.mem.allowanceMs} ms from when it was first taken for hanging)`;
    const got = `${arrived ? describeArrived(arrived) : ''}`;
    if (this.kind === 'own') return new GatewayTimeoutError(`${what}: no complete answer within ${this.budgetMs} ms of the request, the budget of one answer ${whole}${got}`, arrived);
    if (this.kind === 'none') return new GatewayTimeoutError(`${what}: not sent: the gateway had left ${this.before} answers in a row unfinished, ${allowance} is spent, and another request is seeing whether it answers again`, arrived);
    if (this.kind === 'probe') return new GatewayTimeoutError(`${what}: no complete answer within ${this.budgetMs} ms of the request: the gateway had left ${this.before} answers in a row unfinished and ${allowance} is spent, so one answer at a time gets ${this.budgetMs} ms ${whole} until one completes${got}`, arrived);
    return new GatewayTimeoutError(`${what}: no complete answer within ${this.budgetMs} ms of the request: the gateway had left ${this.before} answers in a row unfinished, so later ones get ${this.budgetMs} ms ${whole}, within ${allowance}${got}`, arrived);
  }
}

/** Whether a request asks for a streamed answer: a protocol's stream route (its record says), or `"stream": true` in a body of at most a MiB (a larger one is not scanned). */
export function asksStream(method: string, path: string, body: unknown): AnswerKind {
  if (routeOfRequest(method, path, [])?.route === 'stream') return 'stream';
  const b = typeof body === 'string' || Buffer.isBuffer(body) ? body : null;
  return b && b.length <= 1024 * 1024 && /"stream"\s*:\s*true/.test(b.toString()) ? 'stream' : 'whole';
}

/** An answer's kind by its content type: an event stream (SSE or AWS event stream) or whole. */
export const answerKindOf = (contentType: unknown): AnswerKind => (/event-?stream/i.test(String(contentType ?? '')) ? 'stream' : 'whole');
