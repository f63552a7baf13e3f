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
import { apiRouteOf, RECORDS, routeOfRequest, translateReply } from '../../src/protocols/index.js';
import { underSecondUpstream } from '../../src/core/second-upstream.js';

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
  /** Handles requests under /__gwc/ (the `mock` command's control endpoint), when set. */
  control?: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  /** Called for each request no check expects (the `mock` command prints them), with the ended case's token when it had one. */
  onUnmatched?: (u: UnmatchedRequest, lateToken?: string) => void;
  /** Capture mode (capture.ts): sees every request and answers those no check expects. */
  capture?: { record(rec: RecordedRequest, res: http.ServerResponse): void; answer(rec: RecordedRequest, res: http.ServerResponse): void };

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
      this.openOf(tokensIn(req.url ?? ''), 'url', rec, late);
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
 * The reply in the protocol the request arrived in (translate.ts): the request's protocol and
 * route, and the protocol answered in, are recorded for the checks and the report's routes.
 */
function answerIn(reply: Reply, rec: RecordedRequest, headers: Array<[string, string]>): Reply {
  const api = apiRouteOf(rec.method, rec.url, headers);
  if (api) return answerBeyond(reply, rec, api);
  const at = routeOfRequest(rec.method, rec.url, headers);
  if (at) {
    rec.protocol = at.protocol;
    rec.route = at.route;
  }
  const scripted = reply.kind === 'json' || reply.kind === 'sse' ? reply.protocol : undefined;
  // Only a request on another protocol's path than the script's is looked into, its body parsed
  // once (and not at all when only its first part was kept). A body that is not that path's
  // protocol's request (a native body sent to the chat path) is a request sent to the wrong place,
  // not a translation.
  const other = at && scripted && scripted !== at.protocol;
  const meaning = other && at.route !== 'models' && !rec.bodyTruncated ? RECORDS[at.protocol].readRequest(rec.url, rec.body.toString('utf8')) : undefined;
  const crossed = other && (at.route === 'models' || rec.bodyTruncated || meaning !== null);
  rec.routedAs = crossed ? at.protocol : scripted;
  const rendered = crossed ? translateReply(reply, { ...at, stream: at.route === 'stream' || meaning?.stream === true }) : null;
  rec.answeredIn = rendered && at ? at.protocol : scripted;
  if (rendered?.kind === 'sse' && rendered.from) rec.framesFrom = rendered.from;
  return unframed(rendered ?? reply, rec, at);
}

/**
 * A route beyond inference (compaction, a stored response, files, a batch, Codex's catalog): its
 * bodies are the route's own and are played as scripted; an error scripted in another protocol
 * is written in the route's, as the API the request is addressed to writes its errors.
 */
function answerBeyond(reply: Reply, rec: RecordedRequest, api: NonNullable<ReturnType<typeof apiRouteOf>>): Reply {
  rec.protocol = api.protocol;
  rec.apiRoute = api.route;
  const scripted = reply.kind === 'json' || reply.kind === 'sse' ? reply.protocol : undefined;
  const error = reply.kind === 'json' && reply.status >= 400 ? translateReply(reply, { protocol: api.protocol, route: 'generate', stream: false }) : null;
  rec.routedAs = api.protocol;
  rec.answeredIn = error ? api.protocol : scripted;
  return error ?? reply;
}

/** A stream the API answers without SSE framing where the request asked so (RECORDS' unframedStream): the frames' timing kept, their texts replaced. */
function unframed(reply: Reply, rec: RecordedRequest, at: ReturnType<typeof routeOfRequest>): Reply {
  if (reply.kind !== 'sse' || !at || at.route !== 'stream' || reply.protocol !== at.protocol || reply.status !== 200) return reply;
  const plain = RECORDS[at.protocol].unframedStream?.(rec.url, reply.frames.map((f) => f.data));
  if (!plain) return reply;
  const frames = plain.texts.map((data, i) => ({ gapMs: reply.frames[i]?.gapMs ?? 0, data }));
  const own = new Set(plain.headers.map(([k]) => k.toLowerCase()));
  return { ...reply, headers: [...plain.headers, ...reply.headers.filter(([k]) => !own.has(k.toLowerCase()))], frames };
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
