// Client of the gateway under test: sends exactly the bytes and headers a check gives it,
// and keeps what came back with raw headers and timings on the upstream's clock.
import { Agent, request } from 'undici';
import { performance } from 'node:perf_hooks';
import { CASE_HEADER } from '../upstream/contract.js';
import { pairsFromRecord } from './headers.js';
import { DEFAULT_CREDENTIAL, protocolOfPath, type ClientTargeting } from './protocol-paths.js';

/**
 * How the run's credential is attached: a header (`bearer`, `x-api-key`, the native protocol's
 * `x-goog-api-key`), the native `?key=` query (`key-query`, added by url()), or not at all.
 */
export type AuthStyle = 'bearer' | 'x-api-key' | 'x-goog-api-key' | 'key-query' | 'none';

export interface GwRequest {
  method?: string;
  /** Path with query, relative to the target's base (its own path prefix is kept). */
  path: string;
  headers?: Array<[string, string]>;
  body?: string | Buffer;
  auth?: AuthStyle;
  /** Sent as a hint header so the upstream can match a request whose body lost the token. */
  caseToken?: string;
  signal?: AbortSignal;
}

export interface GwResponse {
  status: number;
  rawHeaders: Array<[string, string]>;
  body: Buffer;
  startedAt: number;
  headersAt: number;
  endedAt: number;
  header(name: string): string | undefined;
  text(): string;
}

/** The gateway did not answer in time. */
export class GatewayTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GatewayTimeoutError';
  }
}

/** The gateway's connection failed (refused, reset, not HTTP). */
export class GatewayTransportError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'GatewayTransportError';
  }
}

export const ANTHROPIC_VERSION = '2023-06-01';

/** The headers of a messages-protocol POST: JSON, and `anthropic-version` (a given value, the current one, or none with null). */
export function messagesHeaders(version?: string | null): Array<[string, string]> {
  return [['content-type', 'application/json'], ...(version === null ? [] : [['anthropic-version', version ?? ANTHROPIC_VERSION] as [string, string]])];
}

export class GatewayClient {
  readonly base: URL;
  // Held in an object: the runner's per-check views (Object.create) share it, so a restart renews it for all.
  private conn: { agent: Agent };
  get dispatcher(): Agent {
    return this.conn.agent;
  }
  constructor(
    target: string,
    private readonly opts: { token: string; timeoutMs: number; targeting?: ClientTargeting; launcher?: { restart(): Promise<void> } },
  ) {
    this.base = new URL(target);
    this.conn = { agent: this.newAgent() };
  }

  private newAgent(): Agent {
    return new Agent({ headersTimeout: this.opts.timeoutMs, bodyTimeout: this.opts.timeoutMs, connectTimeout: Math.min(this.opts.timeoutMs, 5000) });
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
    await old.close().catch(() => {});
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
    const withKey = style === 'key-query' ? `${path}${path.includes('?') ? '&' : '?'}key=${encodeURIComponent(this.opts.token)}` : path;
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

  credentialHeaders(style: AuthStyle): Array<[string, string]> {
    if (style === 'bearer') return [['authorization', `Bearer ${this.opts.token}`]];
    if (style === 'x-api-key') return [['x-api-key', this.opts.token]];
    if (style === 'x-goog-api-key') return [['x-goog-api-key', this.opts.token]];
    return [];
  }

  /** Whether a credential value seen at the upstream is the run's own (reports say so without showing it). */
  isRunCredential(value: string): boolean {
    return value.trim().replace(/^Bearer\s+/i, '') === this.opts.token;
  }

  /** Called with each request before it is sent (the runner keeps what a check sent, for its replay). */
  onSend?: (req: GwRequest) => void;

  async send(req: GwRequest): Promise<GwResponse> {
    this.onSend?.(req);
    const { url, headers, method } = this.prepare(req);
    const startedAt = performance.now();
    try {
      const res = await request(url, {
        method: method as 'GET',
        headers,
        body: req.body,
        dispatcher: this.conn.agent,
        signal: req.signal,
      });
      const headersAt = performance.now();
      const chunks: Buffer[] = [];
      for await (const c of res.body) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks);
      const raw = pairsFromRecord(res.headers);
      return {
        status: res.statusCode,
        rawHeaders: raw,
        body,
        startedAt,
        headersAt,
        endedAt: performance.now(),
        header: (name) => raw.find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1],
        text: () => body.toString('utf8'),
      };
    } catch (e) {
      throw classify(e, `${req.method ?? 'GET'} ${req.path}`);
    }
  }

  /** POST a messages request the way Claude Code does (protocols.md 1). */
  messages(body: string, opts: Omit<GwRequest, 'path' | 'body'> & { query?: string; version?: string | null } = {}): Promise<GwResponse> {
    return this.send({ ...opts, method: 'POST', path: `/v1/messages${opts.query ?? ''}`, body, headers: [...messagesHeaders(opts.version), ...(opts.headers ?? [])] });
  }

  async close(): Promise<void> {
    await this.conn.agent.close();
  }
}

export function classify(e: unknown, what: string): Error {
  const err = e as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code ?? err.name ?? 'UNKNOWN';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || err.name === 'TimeoutError')
    return new GatewayTimeoutError(`${what}: the gateway did not answer in time (${code})`);
  if (err.name === 'AbortError') return new GatewayTimeoutError(`${what}: aborted at the check's time limit`);
  return new GatewayTransportError(`${what}: ${code}: ${err.message ?? String(e)}`, code);
}
