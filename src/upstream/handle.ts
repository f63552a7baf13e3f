// A check's view of the recording upstream: builders that read like sentences
// (`upstream.next().json(body)`), scoped so the runner can end the check's cases.
import type { Protocol } from '../core/protocols.js';
import type { Expectation, Upstream } from './upstream.js';
import { JSON_HEADERS, SSE_HEADERS, type HeaderList, type JsonReply, type Reply, type SseFrame } from './scenario.js';
import { errorBody } from '../protocols/messages/index.js';
import type { SocketExpectation, SocketScript } from './socket.js';

export class ReplyBuilder {
  constructor(private readonly handle: UpstreamHandle) {}
  json(body: string, opts: { status?: number; headers?: HeaderList; betaForField?: Record<string, string>; gzip?: boolean; zstd?: boolean; closeIdleMs?: number } = {}): Expectation {
    const reply: JsonReply = { kind: 'json', status: opts.status ?? 200, headers: [...JSON_HEADERS, ...(opts.headers ?? [])], body, betaForField: opts.betaForField, ...(opts.gzip ? { gzip: true } : {}), ...(opts.zstd ? { zstd: true } : {}), ...(opts.closeIdleMs ? { closeIdleMs: opts.closeIdleMs } : {}) };
    return this.handle.register(reply);
  }
  /** A messages-protocol error (the upstream renders it in the protocol the request arrives in). */
  error(status: number, opts: { message?: string; headers?: HeaderList; gzip?: boolean; zstd?: boolean } = {}): Expectation {
    return this.handle.register({ kind: 'json', protocol: 'messages', status, headers: [...JSON_HEADERS, ...(opts.headers ?? [])], body: errorBody(status, opts.message), ...(opts.gzip ? { gzip: true } : {}), ...(opts.zstd ? { zstd: true } : {}) });
  }
  sse(frames: SseFrame[], opts: { status?: number; headers?: HeaderList } = {}): Expectation {
    return this.handle.register({ kind: 'sse', status: opts.status ?? 200, headers: opts.headers ?? SSE_HEADERS, frames });
  }
  /** An MCP session (scenario.ts's McpReply): the recording upstream's scripted MCP server answers the case's requests. */
  mcp(opts: { json?: boolean } = {}): Expectation {
    return this.handle.register({ kind: 'mcp', ...(opts.json ? { json: true } : {}) });
  }
  hang(): Expectation {
    return this.handle.register({ kind: 'hang' });
  }
  reset(): Expectation {
    return this.handle.register({ kind: 'reset' });
  }
}

export class UpstreamHandle {
  private tokens: string[] = [];
  /** Every case this check scripted, in order (the transcript reads what reached each). */
  readonly cases: Expectation[] = [];
  private suspended = false;
  /**
   * `upstream` is null in the service profile, where no check may script a reply. `protocol` is
   * the check's: a reply scripted without one of its own is written in it.
   */
  constructor(
    private readonly upstream: Upstream | null,
    private readonly protocol: Protocol = 'messages',
  ) {}
  private get up(): Upstream {
    if (!this.upstream) throw new Error('this run has no recording upstream (the service profile checks the service directly); a check that scripts replies cannot run in it');
    return this.upstream;
  }
  /**
   * Makes the upstream unreachable (connection refused) until resumeUpstream(). Only for
   * checks marked `outage`: every other check relies on the upstream being up.
   */
  async suspendUpstream(): Promise<void> {
    this.suspended = true;
    await this.up.suspend();
  }
  async resumeUpstream(): Promise<void> {
    if (!this.suspended) return;
    this.suspended = false;
    await this.up.resume();
  }
  /** The reply to the next request the check sends. */
  next(): ReplyBuilder {
    return new ReplyBuilder(this);
  }
  /** The base URL of the recording upstream (the load profile sends straight to it for the harness's own ceiling). */
  get url(): string {
    return this.up.url;
  }
  /** A reply made from its case's token, so the answer carries the token back (the load profile attributes answers by it). */
  answer(make: (token: string) => Reply): Expectation {
    return this.register(make);
  }
  /** The cases registered so far are in effect, and what reached the upstream so far is in their hits (Upstream.sync). */
  async sync(): Promise<void> {
    await this.up.sync?.();
  }
  register(reply: Reply | ((token: string) => Reply)): Expectation {
    const e = this.up.expect(typeof reply === 'function' ? (token) => this.stamped(reply(token)) : this.stamped(reply));
    this.tokens.push(e.token);
    this.cases.push(e);
    return e;
  }
  /** The reply with the protocol it is written in (its own, else the check's), its later replies likewise (theirs, else the first one's). */
  private stamped(reply: Reply): Reply {
    const own = (reply.kind === 'json' || reply.kind === 'sse') && !reply.protocol ? { ...reply, protocol: this.protocol } : reply;
    return own.kind === 'json' && own.later ? { ...own, later: own.later.map((l) => (l.protocol ? l : { ...l, protocol: own.protocol })) } : own;
  }
  private socketTokens: string[] = [];
  /** Whether the upstream speaks WebSocket (one in another process does not). */
  get speaksSockets(): boolean {
    return !!this.upstream?.expectSocket;
  }
  /** A socket case: what the upstream answers an upgrade of this check, and what it records of it. */
  socket(script: SocketScript): SocketExpectation {
    if (!this.up.expectSocket) throw new Error('this recording upstream speaks no WebSocket (it runs in another process)');
    const e = this.up.expectSocket(script);
    this.socketTokens.push(e.token);
    return e;
  }
  /** Ends every case of this check. */
  release(): void {
    for (const t of this.socketTokens.splice(0)) this.up.releaseSocket?.(t);
    for (const t of this.tokens.splice(0)) this.up.release(t);
    // A check that ended at its time limit while the upstream was down must not leave it down.
    if (this.suspended) void this.resumeUpstream().catch(() => undefined);
  }
}
