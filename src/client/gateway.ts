// Client of the gateway under test: sends exactly the bytes and headers a check gives it,
// and keeps what came back with raw headers and timings on the upstream's clock.
import { request, type Agent } from 'undici';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { CASE_HEADER } from '../upstream/contract.js';
import { pairsFromRecord } from './headers.js';
import { DEFAULT_CREDENTIAL, MESSAGES_PATH, messagesHeaders, protocolOfPath, type AuthStyle, type Protocol } from '../protocol/index.js';
import { BoundedBody, decodeBody, textOf, unreadable } from './bounded.js';
import { connectOptions, newDispatcher, type ConnectOptions, type Transport } from './transport.js';
import { maskCut, rememberSecret } from '../core/mask.js';
import { AnswerBound, GatewayTransportError, HangMemory, classify, errorKind, type Arrived } from './answer.js';

// The error vocabulary of an answer, for the checks and the runner.
export { GatewayTimeoutError, GatewayTransportError, classify, describeArrived, errorKind, type Arrived } from './answer.js';

// The checks take these from the client they send with.
export { ANTHROPIC_VERSION, messagesHeaders, type AuthStyle } from '../protocol/index.js';

/** What the client applies per protocol (src/config/targeting.ts): base path, headers (expanded), credential style. */
export type ClientTargeting = Record<Protocol, { basePath: string; headers: Array<[string, string]>; credential?: AuthStyle }>;

export interface GwRequest {
  method?: string;
  /** Path with query, relative to the target's base (its own path prefix is kept). */
  path: string;
  headers?: Array<[string, string]>;
  /** A SizedBody is made piece by piece while it is sent, never held whole (large bodies). */
  body?: string | Buffer | SizedBody;
  auth?: AuthStyle;
  /** Sent as a hint header so the upstream can match a request whose body lost the token. */
  caseToken?: string;
  signal?: AbortSignal;
}

/** A body of known length made while it is sent: `chunks()` may be called more than once and yields the same bytes. */
export interface SizedBody {
  length: number;
  chunks(): Iterable<Buffer>;
}

export const isSizedBody = (b: GwRequest['body']): b is SizedBody => typeof b === 'object' && !Buffer.isBuffer(b) && typeof (b as SizedBody).chunks === 'function';

export interface GwResponse {
  status: number;
  rawHeaders: Array<[string, string]>;
  /** The body as a client reads it (decoded per content-encoding), at most BODY_KEEP bytes of it. */
  body: Buffer;
  /** Bytes received on the wire (before decoding), SHA-256 of them, and whether `body` is only their start. */
  wireBytes: number;
  wireSha256: string;
  truncated: boolean;
  /** Why a client could not decode the body (its content-encoding is not what it claims). */
  decodeError?: string;
  /** The connection error of a first attempt, when the answer came on a fresh connection (sendTracked). */
  retriedAfter?: string;
  startedAt: number;
  headersAt: number;
  endedAt: number;
  header(name: string): string | undefined;
  text(): string;
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
    private readonly opts: { token: string; timeoutMs: number; targeting?: ClientTargeting; launcher?: { restart(): Promise<void> }; transport?: Transport },
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
   * The credential style a request goes out with: a protocol given its own style
   * (`credential:` in its targeting) uses it where the check asked for the protocol's default;
   * a check that tries another style on purpose keeps it.
   */
  authFor(path: string, auth?: AuthStyle): AuthStyle {
    const p = protocolOfPath(path);
    const own = this.opts.targeting?.[p].credential;
    const asked = auth ?? 'bearer';
    return own && asked === DEFAULT_CREDENTIAL[p] ? own : asked;
  }

  /** The target URL of `path` (under its protocol's base path); with `key-query` the run's credential goes in a `key` parameter. */
  url(path: string, auth?: AuthStyle): string {
    const prefix = this.base.pathname.replace(/\/+$/, '') + (this.opts.targeting?.[protocolOfPath(path)].basePath ?? '');
    const style = this.authFor(path, auth);
    const withKey = style === 'key-query' && this.opts.token ? `${path}${path.includes('?') ? '&' : '?'}key=${encodeURIComponent(this.opts.token)}` : path;
    return `${this.base.origin}${prefix}${withKey}`;
  }

  /** The URL and the flat header list of a request: credential, the protocol's own headers, the check's, the case token. */
  prepare(req: GwRequest, defaultMethod = 'GET'): { url: string; headers: string[]; method: string } {
    const style = this.authFor(req.path, req.auth);
    const headers: string[] = [];
    for (const [k, v] of this.credentialHeaders(style)) headers.push(k, v);
    for (const [k, v] of this.opts.targeting?.[protocolOfPath(req.path)].headers ?? []) headers.push(k, v);
    for (const [k, v] of req.headers ?? []) headers.push(k, v);
    if (req.caseToken) headers.push(CASE_HEADER, req.caseToken);
    return { url: this.url(req.path, req.auth), headers, method: req.method ?? defaultMethod };
  }

  /** The run's credential in this style; none when the run has none (the gateway takes none: --no-token). */
  credentialHeaders(style: AuthStyle): Array<[string, string]> {
    if (!this.opts.token) return [];
    if (style === 'bearer') return [['authorization', `Bearer ${this.opts.token}`]];
    if (style === 'x-api-key') return [['x-api-key', this.opts.token]];
    if (style === 'x-goog-api-key') return [['x-goog-api-key', this.opts.token]];
    return [];
  }

  /** Whether a credential value seen at the upstream is the run's own (reports say so without showing it). */
  isRunCredential(value: string): boolean {
    return this.opts.token !== '' && value.trim().replace(/^Bearer\s+/i, '') === this.opts.token;
  }

  /** Called with each request before it is sent (the runner keeps what a check sent, for its replay). */
  onSend?: (req: GwRequest) => void;
  /** Called with each answer in progress (the runner reports what arrived when a check times out). */
  onProgress?: (a: Arrived) => void;

  /**
   * Called with each request and what came back (a response, or the error that ended it): the
   * runner keeps a masked transcript of every exchange (src/report/transcript.ts).
   */
  onReceive?: (req: GwRequest, res: ReceivedResponse) => void;

  /** The bound of one answer from now (the check's signal, and the short budget once the gateway was seen hanging). */
  answerBound(signal?: AbortSignal): AnswerBound {
    return new AnswerBound(this.conn.hangs, signal);
  }

  /** Keeps `answer` among the answers in progress until it settles (close() gives them a grace period). */
  track<T>(answer: Promise<T>): Promise<T> {
    const p = this.conn.pending;
    p.add(answer);
    const forget = () => void p.delete(answer);
    answer.then(forget, forget);
    return answer;
  }

  send(req: GwRequest): Promise<GwResponse> {
    return this.track(this.sendTracked(req));
  }

  /**
   * A request whose connection failed before any byte of its answer (a kept-alive connection the
   * gateway closed without saying so: `other side closed`; a reset) is sent once more on a fresh
   * connection, as the clients' SDKs do; the answer says so (`retriedAfter`), and a second
   * failure is the transport error.
   */
  private async sendTracked(req: GwRequest): Promise<GwResponse> {
    this.onSend?.(req);
    try {
      return await this.sendOn(req, this.conn.agent);
    } catch (e) {
      if (!(e instanceof GatewayTransportError) || !e.beforeAnswer) throw e;
      const fresh = this.newAgent();
      try {
        return { ...(await this.sendOn(req, fresh)), retriedAfter: e.message };
      } finally {
        await closeAgent(fresh, new Set());
      }
    }
  }

  private async sendOn(req: GwRequest, agent: Agent): Promise<GwResponse> {
    const { url, headers, method } = this.prepare(req);
    const startedAt = performance.now();
    const what = `${req.method ?? 'GET'} ${req.path}`;
    const arrived: Arrived = { request: what, status: null, headersAfterMs: null, lastByteAfterMs: null, forMs: 0, bytes: 0, chunks: 0, head: '' };
    const progress = () => {
      arrived.forMs = Math.round(performance.now() - startedAt);
      this.onProgress?.(arrived);
    };
    progress();
    const bound = this.answerBound(req.signal);
    try {
      const res = await request(url, {
        method: method as 'GET',
        headers: isSizedBody(req.body) ? [...headers, 'content-length', String(req.body.length)] : headers,
        body: isSizedBody(req.body) ? Readable.from(req.body.chunks(), { objectMode: false }) : req.body,
        dispatcher: agent,
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
      }
      const raw = pairsFromRecord(res.headers);
      const decoded = decodeBody(got.head(), res.headers['content-encoding'] as string | undefined, got.truncated);
      const { body } = decoded, wireBytes = got.length, wireSha256 = got.sha256(); // the answer never holds `got` (its pieces)
      bound.end(true);
      this.onReceive?.(req, { status: res.statusCode, rawHeaders: raw, body });
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
      const err = bound.why(what, arrived) ?? classify(e, what, arrived);
      this.onReceive?.(req, { error: errorKind(err) });
      throw err;
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

/** What the client got back for one request, as the transcript keeps it. */
export type ReceivedResponse = { status: number; rawHeaders: Array<[string, string]>; body: Buffer; aborted?: boolean; error?: string } | { error: string };

/** How long pending answers get when the client closes, before their sockets are destroyed. */
export const CLOSE_GRACE_MS = 1000;

/**
 * Closes an agent: answers still coming get CLOSE_GRACE_MS to end, then the agent is destroyed.
 * Not close() then destroy(): undici leaves a body that is being read pending forever then.
 */
async function closeAgent(agent: Agent, pending: Set<Promise<unknown>>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), CLOSE_GRACE_MS)));
  const how = pending.size ? await Promise.race([Promise.allSettled([...pending]).then(() => 'ended' as const), grace]) : 'ended';
  clearTimeout(timer);
  if (how === 'late') await agent.destroy(new Error('the client closed with this answer still coming')).catch(() => {});
  else await agent.close().catch(() => {});
}
