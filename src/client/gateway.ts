// Client of the gateway under test: sends exactly the bytes and headers a check gives it,
// and keeps what came back with raw headers and timings on the upstream's clock. Every request,
// an answer read whole (send) or a stream (readStream, src/client/sse.ts), takes one way through
// it (dispatch): its route resolved once, the retry on a fresh connection, the runner's hooks.
import { request, type Agent, type Dispatcher } from 'undici';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { CASE_HEADER } from '../upstream/contract.js';
import { pairsFromRecord } from './headers.js';
import { DEFAULT_CREDENTIAL, MESSAGES_PATH, messagesHeaders, protocolOfPath, RECORDS, type AuthStyle } from '../protocols/index.js';
import { BoundedBody, decodeBody, textOf, unreadable } from './bounded.js';
import { closeAgent, connectOptions, newDispatcher, type ConnectOptions, type Transport } from './transport.js';
import { maskCut, rememberSecret } from '../core/mask.js';
import { credentialHeader } from '../core/protocols.js';
import { ANSWER_MAX, AnswerBound, GatewayTransportError, answerTooLarge, HangMemory, answerKindOf, asksStream, classify, errorKind, type AnswerKind, type Arrived } from './answer.js';
import { isSizedBody, type ClientTargeting, type GwRequest, type GwResponse, type ReceivedResponse, type Route } from './request.js';

// The error vocabulary of an answer, for the checks and the runner; and what the checks take from the client they send with.
export { GatewayTimeoutError, GatewayTransportError, classify, describeArrived, errorKind, TimeLimitReached, type Arrived } from './answer.js';
export { ANTHROPIC_VERSION, messagesHeaders, type AuthStyle } from '../protocols/index.js';
export { isSizedBody, type ClientTargeting, type GwRequest, type GwResponse, type ReceivedResponse, type Route, type SizedBody } from './request.js';

/** One kind of exchange as the client's one pipeline (GatewayClient.dispatch) runs it: an answer read whole (send), or a stream (src/client/sse.ts). */
export interface Exchange<T> {
  /** The method of a request that names none. */
  method: string;
  /** Once it aborted, a failed request is not sent again (the check's time limit, a client that left). */
  signal?: AbortSignal;
  /** A connection the check chose (a single-connection client): no other connection is tried. */
  dispatcher?: Dispatcher;
  /** One attempt on `dispatcher`, the whole answer read; rejects with the error it ended with (classified). */
  attempt(route: Route, dispatcher: Dispatcher): Promise<T>;
  /** What the transcript keeps of an answer. */
  received(answer: T): ReceivedResponse;
  /** How the last failure ends: an error thrown (the default), or an answer after all (a client that left on purpose). */
  failed?(e: Error): { error: Error } | { answer: T };
}

export class GatewayClient {
  readonly base: URL;
  // Held in an object: the runner's per-check views (Object.create) share it, so a restart renews it for all.
  private conn: { agent: Agent; hangs: HangMemory; pending: Set<Promise<unknown>> };
  get dispatcher(): Agent {
    return this.conn.agent;
  }
  constructor(
    target: string,
    private readonly opts: { token: string; timeoutMs: number; targeting?: ClientTargeting; launcher?: { restart(): Promise<void>; resources?: import('../core/resources.js').ResourceProbe }; transport?: Transport },
  ) {
    this.base = new URL(target);
    this.connectOptions = connectOptions(opts.transport);
    rememberSecret(opts.token);
    this.conn = { agent: this.newAgent(), hangs: new HangMemory(opts.timeoutMs), pending: new Set() };
  }
  /** TLS and HTTP/2 of every connection to the gateway (src/client/transport.ts). */
  readonly connectOptions: ConnectOptions;

  /** A pool of new connections (a retry's, or the renewed one after a restart), with the run's TLS and HTTP/2. */
  newAgent(): Agent {
    return newDispatcher(this.connectOptions, this.opts.timeoutMs);
  }

  /** The launched gateway's memory and CPU readings (src/launch/resources.ts); null when the harness did not start it. */
  get resources(): import('../core/resources.js').ResourceProbe | null { return this.opts.launcher?.resources ?? null; }
  /** True when the harness started the gateway (--gateway-cmd) and a check may restart it. */
  get canRestart(): boolean {
    return this.opts.launcher !== undefined;
  }

  /**
   * Restarts the gateway the harness started (--gateway-cmd): TERM (KILL after 5 s), start
   * again on the same ports, wait until it listens. For checks of what survives a restart;
   * such a check must be `exclusive`. The client's connections are renewed.
   */
  async restart(): Promise<void> {
    if (!this.opts.launcher) throw new Error('this run did not start the gateway (--gateway-cmd): it cannot be restarted');
    await this.opts.launcher.restart();
    const old = this.conn.agent;
    this.conn.agent = this.newAgent();
    await closeAgent(old, this.conn.pending);
  }

  /**
   * Where a request goes, from its protocol (found once): the credential style (a protocol given
   * its own style, `credential:` in its targeting, uses it where the check asked for the
   * protocol's default; a check that tries another style on purpose keeps it), the target URL
   * (under the protocol's base path; with `key-query` the run's credential in a `key` parameter)
   * and the protocol's own headers.
   */
  private resolve(path: string, auth?: AuthStyle): { style: AuthStyle; url: string; headers: Array<[string, string]> } {
    const p = protocolOfPath(path);
    const t = this.opts.targeting?.[p];
    const asked = auth ?? 'bearer';
    const style = t?.credential && asked === DEFAULT_CREDENTIAL[p] ? t.credential : asked;
    const prefix = this.base.pathname.replace(/\/+$/, '') + (t?.basePath ?? '');
    const sent = this.aimed(path);
    const withKey = style === 'key-query' && this.opts.token ? `${sent}${sent.includes('?') ? '&' : '?'}key=${encodeURIComponent(this.opts.token)}` : sent;
    return { style, url: `${this.base.origin}${prefix}${withKey}`, headers: t?.headers ?? [] };
  }

  /** `path` with the run's values in its placeholders (Vertex's project and region): the path as sent, before any base path. */
  aimed(path: string): string {
    const p = protocolOfPath(path);
    const values = this.opts.targeting?.[p].placeholders;
    return values ? (RECORDS[p].placeholders?.fill(path, values) ?? path) : path;
  }

  /** The credential style a request to `path` goes out with (resolve). */
  authFor(path: string, auth?: AuthStyle): AuthStyle {
    return this.resolve(path, auth).style;
  }

  /** The target URL of `path` (resolve). */
  url(path: string, auth?: AuthStyle): string {
    return this.resolve(path, auth).url;
  }

  /** The route of a request: URL, method, and the flat header list: credential, the protocol's own headers, the check's, the case token. */
  prepare(req: GwRequest, defaultMethod = 'GET'): Route {
    const { style, url, headers: own } = this.resolve(req.path, req.auth);
    const headers: string[] = [];
    for (const [k, v] of this.credentialHeaders(style)) headers.push(k, v);
    for (const [k, v] of own) headers.push(k, v);
    for (const [k, v] of req.headers ?? []) headers.push(k, v);
    if (req.caseToken) headers.push(CASE_HEADER, req.caseToken);
    return { url, headers, method: req.method ?? defaultMethod };
  }

  /** The run's credential in this style; none when the run has none (the gateway takes none: --no-token). */
  credentialHeaders(style: AuthStyle): Array<[string, string]> {
    const header = this.opts.token ? credentialHeader(style, this.opts.token) : null;
    return header ? [header] : [];
  }

  /** Whether a credential value seen at the upstream is the run's own (reports say so without showing it). */
  isRunCredential(value: string): boolean {
    return this.opts.token !== '' && value.trim().replace(/^Bearer\s+/i, '') === this.opts.token;
  }

  /** Called with each request before it is sent (the runner keeps what a check sent, for its replay). */
  onSend?: (req: GwRequest) => void;
  /** Called with each answer in progress (the runner reports what arrived when a check times out). */
  onProgress?: (a: Arrived) => void;
  /** Called with each request and what came back (a response, or the error that ended it): the runner's masked transcript (src/report/certify/transcript.ts). */
  onReceive?: (req: GwRequest, res: ReceivedResponse) => void;
  /** A connection to the gateway failed (refused, reset, closed, retried or not) or was cut at the client's bound: the runner then asks whether the gateway is gone (src/runner/gone.ts) and counts answers that defeat every check (src/runner/unbounded.ts). */
  onConnectionFailed?: (e: GatewayTransportError) => void;

  /** One answer's whole budget in this view: its check's limit (the runner sets it per check); the run's time limit when unset. */
  answerLimitMs?: number;
  /** The check's own end in this view (the runner sets it): a check ended at its limit sends and reads nothing more. */
  checkSignal?: AbortSignal;
  /** The bound of one answer from now: the request's and the check's signals, and one budget for the whole answer (short once the gateway was seen hanging). */
  answerBound(signal?: AbortSignal, of: AnswerKind = 'whole'): AnswerBound {
    return new AnswerBound(this.conn.hangs, signal, this.answerLimitMs ?? this.opts.timeoutMs, this.checkSignal, of);
  }

  /**
   * The one way of every request: its route resolved once, `onSend` before it goes, one attempt
   * (the whole answer read), `onReceive` once with what came back or the error that ended it.
   * Kept among the answers in progress until it settles (close() gives them a grace period).
   */
  dispatch<T>(req: GwRequest, x: Exchange<T>): Promise<{ answer: T; retriedAfter?: string }> {
    const p = this.conn.pending;
    const done = this.dispatched(req, x);
    p.add(done);
    const forget = () => void p.delete(done);
    done.then(forget, forget);
    return done;
  }

  private async dispatched<T>(req: GwRequest, x: Exchange<T>): Promise<{ answer: T; retriedAfter?: string }> {
    this.onSend?.({ ...req, method: req.method ?? x.method });
    const route = this.prepare(req, x.method);
    let sent: { answer: T; retriedAfter?: string };
    try {
      sent = await this.retried(route, x);
    } catch (e) {
      const end = x.failed?.(e as Error) ?? { error: e as Error };
      if ('error' in end) {
        this.onReceive?.(req, { error: errorKind(end.error) });
        throw end.error;
      }
      sent = { answer: end.answer };
    }
    this.onReceive?.(req, x.received(sent.answer));
    return sent;
  }

  /**
   * A request whose connection failed before any byte of its answer (a kept-alive connection the
   * gateway closed without saying so: `other side closed`; a reset) is sent once more on a fresh
   * connection, as the clients' SDKs do, unless the check chose the connection or the request
   * was already given up; the answer says so (`retriedAfter`), and a second failure is the
   * transport error. The fresh connection carries that one answer and is closed after it.
   */
  private async retried<T>(route: Route, x: Exchange<T>): Promise<{ answer: T; retriedAfter?: string }> {
    try {
      return { answer: await x.attempt(route, x.dispatcher ?? this.conn.agent) };
    } catch (e) {
      if (e instanceof GatewayTransportError) this.onConnectionFailed?.(e);
      if (x.dispatcher || !(e instanceof GatewayTransportError) || !e.beforeAnswer || x.signal?.aborted) throw e;
      const fresh = this.newAgent();
      try {
        return { answer: await x.attempt(route, fresh), retriedAfter: e.message };
      } finally {
        void fresh.destroy().catch(() => {});
      }
    }
  }

  /** Sends a request and reads its answer whole (bounded: BODY_KEEP bytes kept, the rest counted and hashed). */
  async send(req: GwRequest): Promise<GwResponse> {
    const { answer, retriedAfter } = await this.dispatch(req, {
      method: 'GET',
      signal: req.signal,
      attempt: (route, dispatcher) => this.whole(req, route, dispatcher),
      received: (r) => ({ status: r.status, rawHeaders: r.rawHeaders, body: r.body }),
    });
    return retriedAfter === undefined ? answer : { ...answer, retriedAfter };
  }

  /** One attempt of send: the answer read whole, its progress reported as it comes. */
  private async whole(req: GwRequest, { url, headers, method }: Route, dispatcher: Dispatcher): Promise<GwResponse> {
    const startedAt = performance.now();
    const what = `${method} ${req.path}`;
    const arrived: Arrived = { request: what, status: null, headersAfterMs: null, lastByteAfterMs: null, forMs: 0, bytes: 0, chunks: 0, head: '' };
    const progress = () => {
      arrived.forMs = Math.round(performance.now() - startedAt);
      this.onProgress?.(arrived);
    };
    progress();
    const bound = this.answerBound(req.signal, asksStream(method, req.path, req.body));
    try {
      const res = await request(url, {
        method: method as 'GET',
        headers: isSizedBody(req.body) ? [...headers, 'content-length', String(req.body.length)] : headers,
        body: isSizedBody(req.body) ? Readable.from(req.body.chunks(), { objectMode: false }) : req.body,
        dispatcher,
        signal: bound.signal,
      });
      const headersAt = performance.now();
      arrived.status = res.statusCode;
      arrived.headersAfterMs = Math.round(headersAt - startedAt);
      progress();
      const got = new BoundedBody();
      for await (const c of res.body) {
        got.push(c as Buffer);
        arrived.bytes = got.length;
        arrived.chunks++;
        arrived.lastByteAfterMs = Math.round(performance.now() - startedAt);
        if (arrived.chunks <= 4) arrived.head = maskCut(got.start(1200).toString('utf8'), 300, got.length);
        progress();
        if (got.length > ANSWER_MAX) throw answerTooLarge(what, arrived, bound);
      }
      const raw = pairsFromRecord(res.headers);
      const decoded = decodeBody(got.head(), res.headers['content-encoding'] as string | undefined, got.truncated);
      const { body } = decoded, wireBytes = got.length, wireSha256 = got.sha256(); // the answer never holds `got` (its pieces)
      bound.end(true, answerKindOf(res.headers['content-type']));
      return {
        status: res.statusCode,
        rawHeaders: raw,
        body,
        wireBytes,
        wireSha256,
        truncated: decoded.truncated,
        ...(decoded.error ? { decodeError: decoded.error } : {}),
        startedAt,
        headersAt,
        endedAt: performance.now(),
        header: (name) => raw.find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1],
        // A body its content-encoding misdescribes is what a client fails to read: every check sees that, not the raw bytes.
        text: () => (decoded.error ? unreadable(decoded.error, wireBytes, body) : textOf(body)),
      };
    } catch (e) {
      arrived.forMs = Math.round(performance.now() - startedAt);
      bound.end(false);
      throw bound.why(what, arrived) ?? classify(e, what, arrived);
    }
  }

  /** POST a messages request the way Claude Code does: JSON with `anthropic-version`, the run's bearer token. */
  messages(body: string, opts: Omit<GwRequest, 'path' | 'body'> & { query?: string; version?: string | null } = {}): Promise<GwResponse> {
    return this.send({ ...opts, method: 'POST', path: `${MESSAGES_PATH}${opts.query ?? ''}`, body, headers: [...messagesHeaders(opts.version), ...(opts.headers ?? [])] });
  }

  /**
   * Ends the client's connections: answers still coming (a request a check left behind at its
   * time limit, a body that never ends) get CLOSE_GRACE_MS, then their sockets are destroyed. A
   * graceful close alone waits for every pending answer, which a hanging gateway never ends.
   */
  async close(): Promise<void> {
    await closeAgent(this.conn.agent, this.conn.pending);
  }

  /** Closes at once, cutting the requests in flight (a run stopped by Ctrl-C). */
  async destroy(): Promise<void> {
    await this.conn.agent.destroy();
  }
}
