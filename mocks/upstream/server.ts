// The recording upstream. Built on node:http rather than mockttp: it must bind to loopback
// only (mockttp 4's start() binds every interface), write SSE frames at scripted moments
// (thenStream serves one request per rule, thenCallback buffers the reply), and tie each
// request to its check by a case token, which mockttp rules cannot do.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { listen } from '../../src/core/errors.js';
import { LoopbackServer, type ServerTls } from '../../src/core/server.js';
import { headerValues, RECORD_KEEP, type RecordedRequest } from '../../src/upstream/record.js';
import { BoundedBody, LONG_STRING_MIN, LongStrings } from '../../src/client/bounded.js';
import { replyForHit, type Reply } from '../../src/upstream/scenario.js';
import { CASE_HEADER, newCaseToken, tokensIn, tokensInBytes } from '../../src/upstream/contract.js';
import type { Expectation, UnmatchedRequest, Upstream } from '../../src/upstream/upstream.js';
import { RecordedCase } from '../../src/upstream/expectation.js';
import { play } from './play.js';
import { asPairs, Recorded } from './recorded.js';
import { Holds } from './hold.js';
import { busy, closeWhenIdle } from './idle-close.js';
import { pairsFromRaw } from '../../src/client/headers.js';
import { answerIn } from './answer-in.js';
import { underSecondUpstream } from '../../src/core/second-upstream.js';
import { MCP_SESSION_HEADER } from '../../src/protocols/mcp/index.js';
import { McpHost } from './mcp.js';
import { SocketCases } from './socket.js';
import type { SocketExpectation, SocketScript } from '../../src/upstream/socket.js';

/** The wall-clock time as ISO text, made once per millisecond (many requests share one). */
let wallMs = -1;
let wallIso = '';
function wallNow(): string {
  const ms = Date.now();
  if (ms !== wallMs) {
    wallMs = ms;
    wallIso = new Date(ms).toISOString();
  }
  return wallIso;
}

export class RecordingUpstream extends LoopbackServer implements Upstream {
  private open = new Map<string, RecordedCase>();
  private closed = new Set<string>();
  private seq = 0;
  readonly unmatched: UnmatchedRequest[] = [];
  readonly httpVersions: Record<string, number> = {};
  /** Answers held until a batch of their group has arrived (a reply's `hold`: the load profile's overlap). */
  private holds = new Holds();
  /** The MCP server of the McpReply cases (mcp.ts): its sessions. */
  private mcp = new McpHost();
  /** Handles requests under /__gwc/ (the `mock` command's control endpoint), when set. */
  control?: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  /** Called for each request no check expects (the `mock` command prints them), with the ended case's token when it had one. */
  onUnmatched?: (u: UnmatchedRequest, lateToken?: string) => void;
  /** Capture mode (capture.ts): sees every request and answers those no check expects. */
  capture?: { record(rec: RecordedRequest, res: http.ServerResponse): void; answer(rec: RecordedRequest, res: http.ServerResponse): void; upgrade?(req: http.IncomingMessage, socket: import('node:stream').Duplex, head: Buffer, url: string): boolean; stopSockets?(): void };

  /** Prefixes the gateway forwards under (longest first): stripped before a request is recorded. */
  private prefixes: string[] = [];
  forwardsUnder(prefixes: string[]): void {
    this.prefixes = [...prefixes].sort((a, b) => b.length - a.length);
  }
  private unprefixed(url: string): string {
    for (const p of this.prefixes) if (url === p || url.startsWith(`${p}/`) || url.startsWith(`${p}?`)) return url.slice(p.length) || '/';
    return url;
  }

  /** The last URL recorded: a request to the same one keeps that string, and its own (a new one from the parser) is left young. */
  private lastUrl = '';
  private sameUrl(url: string): string {
    if (url !== this.lastUrl) this.lastUrl = url;
    return this.lastUrl;
  }

  /** Connections that carry the `mock` command's control requests: suspend() leaves them up. */
  private controlSockets = new WeakSet<import('node:net').Socket>();
  private sockets = new Set<import('node:net').Socket>();

  /** With `tls`, the upstream serves https (and HTTP/2 beside HTTP/1.1 when `tls.http2`): --upstream-tls. */
  constructor(tls?: ServerTls) {
    super('recording upstream (choose another address with --upstream-listen)', tls);
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    this.server.keepAliveTimeout = 65_000;
    this.server.on('upgrade', (req: http.IncomingMessage, socket: import('node:stream').Duplex, head: Buffer) => {
      const url = this.unprefixed(req.url ?? '/');
      // Session mode (the client profile) takes a socket client's upgrade without a case token.
      if (this.capture?.upgrade?.(req, socket, head, url)) return;
      this.socketCases.upgrade(req, socket, head, url);
    });
    this.socketCases.onUnmatched = (url, reason) => this.unmatched.push({ method: 'GET', url, reason: `WebSocket upgrade: ${reason}`, receivedWall: wallNow() });
  }

  /** The WebSocket routes' cases (socket.ts). */
  private socketCases = new SocketCases();
  expectSocket(script: SocketScript): SocketExpectation {
    return this.socketCases.expect(script);
  }
  releaseSocket(token: string): void {
    this.socketCases.release(token);
  }
  override async stop(): Promise<void> {
    this.socketCases.stop();
    this.capture?.stopSockets?.();
    await this.mcp.close();
    await super.stop();
  }

  /**
   * Stops accepting connections and drops the open ones, so the gateway finds the upstream
   * down (connection refused) until resume(). Only for checks marked exclusive.
   */
  async suspend(): Promise<void> {
    // close() stops listening at once; its callback would wait for the control connection of
    // a run driven by `gw-conformance mock`, which stays up.
    this.server.close();
    for (const s of this.sockets) if (!this.controlSockets.has(s)) s.destroy();
  }

  async resume(): Promise<void> {
    const u = new URL(this.url);
    await listen(this.server, u.hostname.replace(/^\[|\]$/g, ''), Number(u.port), 'recording upstream');
  }

  /** Registers the reply for one case; the returned token ties the gateway's forwarded request to it. */
  expect(reply: Reply | ((token: string) => Reply)): Expectation {
    // Never a token this upstream has handed out before: runs sharing it (load shards driven
    // by one `mock`) cannot take each other's case. 64 random bits: a redraw is all but never needed.
    let token = newCaseToken();
    for (let tries = 1; this.open.has(token) || this.closed.has(token); tries++) {
      if (tries >= 8) throw new Error('harness bug: the case-token generator keeps repeating itself');
      token = newCaseToken();
    }
    return this.expectAs(token, typeof reply === 'function' ? reply(token) : reply)!;
  }

  /** Registers a case under a token made elsewhere (a run attached to the `mock`); null when the token was ever taken. */
  expectAs(token: string, reply: Reply): RecordedCase | null {
    if (this.open.has(token) || this.closed.has(token)) return null;
    const e = new RecordedCase(token, reply);
    this.open.set(token, e);
    return e;
  }

  /** Ends a case: a request that still arrives for it is reported as unmatched. */
  release(token: string): void {
    if (this.open.delete(token)) this.closed.add(token);
  }

  private find(req: http.IncomingMessage, body: Buffer, rec: RecordedRequest): RecordedCase | { reason: string; late?: string } {
    // In the order the contract gives (body, header, URL); a later place is read only when an
    // earlier one held no open case. (Plain calls, no list of closures: this runs per request.)
    const late = { token: '' };
    const e =
      this.openOf(tokensInBytes(body), 'body', rec, late) ??
      this.openOf(headerValues(rec, CASE_HEADER), 'header', rec, late) ??
      this.openOf(tokensIn(req.url ?? ''), 'url', rec, late) ??
      this.openOf(headerValues(rec, MCP_SESSION_HEADER).flatMap(tokensIn), 'session', rec, late);
    if (e) return e;
    return late.token ? { reason: `case ${late.token} had already ended when this request arrived (a retry or a late request)`, late: late.token } : { reason: 'no case token in body, header or URL' };
  }

  /** The first open case among `tokens` (the record says where it was found); a case already ended is noted in `late`. */
  private openOf(tokens: string[], by: RecordedRequest['matchedBy'], rec: RecordedRequest, late: { token: string }): RecordedCase | null {
    for (const raw of tokens) {
      const t = raw.trim();
      const e = this.open.get(t);
      if (e) {
        rec.matchedBy = by;
        rec.token = e.token;
        return e;
      }
      if (this.closed.has(t)) late.token = t;
    }
    return null;
  }

  protected handle(req: http.IncomingMessage, res: http.ServerResponse) {
    if (this.control && req.url?.startsWith('/__gwc/')) {
      this.controlSockets.add(req.socket);
      this.control(req, res);
      return;
    }
    this.httpVersions[req.httpVersion] = (this.httpVersions[req.httpVersion] ?? 0) + 1;
    if (this.socketCases.takePlain(req, res, this.unprefixed(req.url ?? ''))) return;
    busy(req.socket);
    // Large bodies are not kept whole: a prefix, the length and a SHA-256 (checks compare by hash).
    const got = new BoundedBody(RECORD_KEEP);
    // Only a body of LONG_STRING_MIN bytes can hold a long string: the scan starts there, with
    // the bytes so far (all kept: RECORD_KEEP is larger), and sees the rest as it comes.
    let strings: LongStrings | null = null;
    req.on('data', (c: Buffer) => {
      got.push(c);
      if (strings) strings.push(c);
      else if (got.length >= LONG_STRING_MIN) (strings = new LongStrings()).push(got.head());
    });
    req.on('end', () => {
      const body = got.head();
      // The second upstream's prefix, at the root or under a prefix the gateway forwards under.
      const second = underSecondUpstream(req.url ?? '') ?? underSecondUpstream(this.unprefixed(req.url ?? ''));
      // What is kept costs the latency tail (recorded.ts): the flat header list, a digest only for a body not kept whole.
      const headers = headersOf(req);
      const rec = new Recorded({
        seq: ++this.seq,
        method: req.method ?? '',
        url: this.sameUrl(this.unprefixed(second ?? req.url ?? '')),
        headers,
        body,
        bodyBytes: got.length,
        bodySha256: got.truncated ? got.sha256() : undefined,
        bodyTruncated: got.truncated,
        longStrings: strings?.found,
        receivedAt: performance.now(),
        receivedWall: wallNow(),
      });
      if (second !== null) rec.upstream = 'second';
      const found = this.find(req, body, rec);
      this.capture?.record(rec, res);
      res.on('close', () => {
        rec.closedAt = performance.now();
        if (found instanceof RecordedCase) found.closedOne(rec);
      });
      if (!(found instanceof RecordedCase)) {
        const u = { method: rec.method, url: rec.url, reason: found.reason, receivedWall: rec.receivedWall };
        this.unmatched.push(u);
        this.onUnmatched?.(u, found.late);
        if (this.capture) return this.capture.answer(rec, res);
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            type: 'error',
            error: { type: 'not_found_error', message: `gw-conformance upstream: no check expects this request (${found.reason})` },
          }),
        );
        return;
      }
      found.hit(rec, req.httpVersion);
      if (found.reply.kind === 'mcp') {
        void this.mcp.serve(found.reply, found.token, rec, req, res).catch(() => void (res.headersSent ? res.destroy() : (res.writeHead(500, { 'content-type': 'application/json' }), res.end('{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"gw-conformance upstream: the MCP server failed"}}'))));
        return;
      }
      if (found.reply.kind === 'json' && found.reply.closeIdleMs) closeWhenIdle(res, rec, found.reply.closeIdleMs, () => found.idleClosedOne(rec));
      // The second upstream answers what the case scripted for it, else what the first would; a case's later requests get its later replies.
      const scripted = second !== null && found.reply.kind === 'json' && found.reply.second ? found.reply.second : replyForHit(found.reply, found.hits.length);
      // The pairs from node's list: the record's are made from its bytes on each read.
      const reply = answerIn(scripted, rec, asPairs(headers));
      const hold = scripted.kind === 'json' || scripted.kind === 'sse' ? scripted.hold : undefined;
      this.holds.arrive(hold, () => void (res.destroyed || play(reply, rec, res)));
    });
  }
}

/**
 * The request's headers as received. Over HTTP/2 the pseudo-headers stand for the request line
 * and Host: they are recorded as HTTP/1.1 carries them (`:authority` as `host`), so the checks
 * read one shape whichever version the gateway spoke.
 */
function headersOf(req: http.IncomingMessage): string[] | Array<[string, string]> {
  if (req.httpVersionMajor !== 2) return req.rawHeaders;
  const raw = pairsFromRaw(req.rawHeaders);
  const authority = raw.find(([k]) => k === ':authority')?.[1];
  const rest = raw.filter(([k]) => !k.startsWith(':'));
  return authority !== undefined && !rest.some(([k]) => k.toLowerCase() === 'host') ? [['host', authority], ...rest] : rest;
}
