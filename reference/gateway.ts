// The reference gateway: a small, clean pass-through for every protocol (the paths of their
// records, src/protocols/). It forwards method, path, query, headers (minus hop-by-hop) and body bytes unchanged, streams replies
// without buffering, cancels the upstream when the client goes away, answers JSON errors when the
// upstream is down and CORS preflights (cors.ts), and sends a request once more when its kept-alive
// upstream connection turns out closed (wire.ts). `fault` breaks one requirement on purpose (faults/).
import http from 'node:http';
import { pipeline } from 'node:stream';
import { LoopbackServer } from '../src/core/server.js';
import type { Fault, RequestParts } from './faults/index.js';
import type { DeclaredLimit } from '../src/core/limits.js';
import { Limiter } from './limit.js';
import { patientTimeout } from '../src/core/stall.js';
import { apiRouteOf, routeOfRequest } from '../src/protocols/index.js';
import { answererOf, type Answerer } from './fallback.js';
import { preflight } from './cors.js';
import { admit, closedWhileIdle, encodedBody, forwardHeaders, jsonError } from './wire.js';
import { H2Pool, type UpstreamRequest } from './h2.js';
import { traceAnswer, traceRequest, type Tracer } from './trace.js';

/** A path some protocol serves, inference or beyond (its record says): forwarded; any other is a JSON 404. */
const routed = (method: string, path: string) => routeOfRequest(method === 'HEAD' ? 'GET' : method, path, []) !== null || apiRouteOf(method === 'HEAD' ? 'GET' : method, path, null) !== null;

/** The demo's upstream time-out (./defaults.ts says why it is short). */
export { DEMO_UPSTREAM_TIMEOUT_MS } from './defaults.js';
/** While the request body goes out: the most the upstream may leave the connection without progress. */
const UPLOAD_IDLE_MS = 60_000;

export interface ReferenceOptions {
  upstream: string;
  fault?: Fault;
  /** How long the gateway waits for the upstream's response headers before answering 504. */
  upstreamTimeoutMs?: number;
  /** Prefix-and-header mode: the gateway serves every protocol under this path only ('/anthropic')... */
  basePath?: string;
  /** ...and only requests carrying these headers (name lower-case, exact value); it consumes them. */
  requireHeaders?: Array<[string, string]>;
  /** A gateway-level limit per credential (the load profile's LIMIT checks). */
  limit?: DeclaredLimit | null;
  /** Translating mode: messages requests go upstream as chat completions, their answers come back as messages (translate/). */
  translate?: 'messages-to-chat';
  /** The upstream's CA (PEM) for a fault's HTTP/2 hop to a TLS upstream (fault.upstreamHttp2). */
  upstreamCa?: string;
  /** Handed every exchange as the hooks would see it (the detection matrix's reach, trace.ts). */
  trace?: Tracer;
}

/** What `GET /` answers: the gateway is up. */
const ROOT_BODY = Buffer.from('{"status":"ok"}');

/** Without a fault, request bodies larger than this are streamed to the upstream. */
const STREAM_OVER = 1024 * 1024;
/** The largest declared request body read into one buffer up front. */
const MAX_BODY = 64 * 1024 * 1024;

export class ReferenceGateway extends LoopbackServer {
  private upstream: URL;
  private limiter: Limiter | null;
  /** A fault's upstream pool (bounded, or one that never checks a connection); the clean gateway uses node's global agent (no bound). */
  private agent: http.Agent | undefined;
  /** A fault's HTTP/2 hop to a TLS upstream (h2.ts); null: HTTP/1.1. */
  private h2: H2Pool | null;
  private readonly opts: ReferenceOptions;
  constructor(given: ReferenceOptions) {
    super('reference gateway');
    // A fault with state serves a copy of its own (Fault.fresh): the state lasts as long as this gateway.
    const opts = (this.opts = { ...given, fault: given.fault?.fresh?.() ?? given.fault });
    this.upstream = new URL(opts.upstream);
    this.limiter = opts.limit ? new Limiter(opts.limit, opts.fault?.limit) : null;
    this.agent = opts.fault?.upstreamPool?.() ?? (opts.fault?.upstreamSockets ? new http.Agent({ keepAlive: true, maxSockets: opts.fault.upstreamSockets }) : undefined);
    this.h2 = opts.fault?.upstreamHttp2 ? new H2Pool(this.upstream, opts.upstreamCa, opts.fault) : null;
  }

  override async stop(): Promise<void> {
    this.h2?.close();
    await super.stop();
  }

  protected handle(req: http.IncomingMessage, res: http.ServerResponse) {
    // Without a fault nothing needs the body: a large one is streamed through, never held.
    const length = Number(req.headers['content-length']);
    if (!this.opts.fault && !this.opts.translate && Number.isSafeInteger(length) && length > STREAM_OVER && routed(req.method ?? 'POST', req.url ?? '/')) {
      const parts = { method: req.method ?? 'POST', path: req.url ?? '/', headers: forwardHeaders(req.rawHeaders), body: Buffer.alloc(0) };
      traceRequest(this.opts.trace, parts, res, req);
      return this.forward(parts, res, 0, { stream: req, length });
    }
    // The body is read into one buffer of its declared length (a large body exists once here,
    // not as chunks and their copy); without a length, chunks are joined at the end.
    const declared = Number(req.headers['content-length']);
    const sized = Number.isSafeInteger(declared) && declared > 0 && declared <= MAX_BODY ? Buffer.allocUnsafe(declared) : null;
    let filled = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      if (sized && filled + c.length <= sized.length) {
        c.copy(sized, filled);
        filled += c.length;
      } else chunks.push(c);
    });
    req.on('end', () => {
      const body = sized && !chunks.length ? sized.subarray(0, filled) : Buffer.concat([...(sized ? [sized.subarray(0, filled)] : []), ...chunks]);
      const parts: RequestParts = { method: req.method ?? 'GET', path: req.url ?? '/', headers: forwardHeaders(req.rawHeaders), body };
      const fault = this.opts.fault;
      const probe = (parts.method === 'HEAD' || parts.method === 'GET') && parts.path === '/';
      if (!probe && !admit(parts, res, this.opts.basePath, this.opts.requireHeaders)) return;
      traceRequest(this.opts.trace, parts, res);
      if (fault?.intercept?.(parts, res) || preflight(parts, res)) return;
      if (probe) {
        // The root answers GET and HEAD alike (HEAD without the body), as HTTP requires.
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(ROOT_BODY.length) });
        res.end(parts.method === 'HEAD' ? undefined : ROOT_BODY);
        return;
      }
      if (!routed(parts.method, parts.path)) {
        jsonError(res, 404, 'not_found_error', `no route for ${parts.method} ${parts.path.split('?')[0]}`);
        return;
      }
      if (this.limiter && this.limited(parts, res)) return;
      try {
        fault?.request?.(parts);
      } catch {
        // A fault that reads the body cannot read a compressed one: refused as unsupported (ENC-1), not as bad JSON.
        if (encodedBody(parts)) jsonError(res, 415, 'invalid_request_error', 'compressed request bodies are not supported');
        else jsonError(res, 400, 'invalid_request_error', 'request body is not valid JSON');
        return;
      }
      const answer = this.translation(parts);
      const delay = fault?.delayMs?.(parts) ?? 0;
      // A fault's scripted delay (e.g. a slow discovery), not synchronisation.
      if (delay > 0) setTimeout(() => this.forward(parts, res, fault?.retry?.times ?? 0, undefined, answer), delay);
      else this.forward(parts, res, fault?.retry?.times ?? 0, undefined, answer);
    });
  }

  /** Over the declared limit: refused (or, under a fault, forwarded first and refused after). */
  private limited(parts: RequestParts, res: http.ServerResponse): boolean {
    const retryAfter = this.limiter!.admit(parts, res);
    if (retryAfter === null) return false;
    if (this.limiter!.forwardsFirst) {
      const up = http.request({ host: this.upstream.hostname.replace(/^\[|\]$/g, ''), port: this.upstream.port || 80, method: parts.method, path: parts.path, headers: [...parts.headers.flat(), 'host', this.upstream.host, 'content-length', String(parts.body.length)], agent: this.agent });
      up.on('response', (ur) => ur.resume().on('end', () => this.limiter!.refuse(res, retryAfter)));
      up.on('error', () => this.limiter!.refuse(res, retryAfter));
      up.end(parts.body);
      return true;
    }
    this.limiter!.refuse(res, retryAfter);
    return true;
  }

  private down(res: http.ServerResponse, status: number, reason: string) {
    const r = this.opts.fault?.upstreamDown?.(status, reason);
    if (r && !res.headersSent) {
      res.writeHead(r.status, { ...r.headers, 'content-length': String(r.body.length) });
      res.end(r.body);
      return;
    }
    jsonError(res, status, status === 504 ? 'timeout_error' : 'api_error', reason);
  }

  /** The answer handler of a request the translating route rewrote (translate/route.ts) or the declared fallback may take (fallback.ts); undefined: passed through. */
  private translation(parts: RequestParts): Answerer | undefined {
    return answererOf(parts, this.opts.fault, !!this.opts.translate, { forward: (p, res, a) => this.forward(p, res, 0, undefined, a), reply: (p, ur, res) => this.reply(p, ur, res) });
  }

  private forward(parts: RequestParts, res: http.ServerResponse, retriesLeft: number, body?: { stream: http.IncomingMessage; length: number }, answer?: Answerer, fresh = false) {
    const fault = this.opts.fault;
    const headers: string[] = [];
    for (const [k, v] of parts.headers) headers.push(k, v);
    headers.push('host', this.upstream.host);
    if (body) headers.push('content-length', String(body.length));
    else if (parts.body.length || parts.method === 'POST') headers.push('content-length', String(parts.body.length));
    const base = this.upstream.pathname.replace(/\/+$/, '');
    const up: UpstreamRequest =
      this.h2?.request(parts.method, `${base}${parts.path}`, headers).setTimeout(UPLOAD_IDLE_MS) ??
      http.request({
        host: this.upstream.hostname.replace(/^\[|\]$/g, ''),
        port: this.upstream.port || 80,
        method: parts.method,
        path: `${base}${parts.path}`,
        headers,
        // The second try after a connection closed while idle goes on a connection of its own.
        agent: fresh ? false : this.agent,
        timeout: UPLOAD_IDLE_MS,
      });
    // Cancel the upstream request when the client goes away before the reply is complete.
    res.on('close', () => {
      if (!res.writableFinished && !fault?.keepUpstreamOnAbort) up.destroy();
    });
    const giveUp = () => {
      up.destroy();
      this.down(res, 504, 'upstream did not answer in time');
    };
    up.on('timeout', giveUp);
    // The wait for the answer's headers starts once the request is sent (a 32 MB body takes a while).
    let waiting: (() => void) | undefined;
    let over = false;
    const stopWaiting = () => {
      over = true;
      waiting?.();
      waiting = undefined;
    };
    up.on('finish', () => {
      // An upstream may answer (e.g. 413) before the body is all sent: then there is nothing to wait for.
      if (over) return;
      up.setTimeout(0);
      waiting = patientTimeout(giveUp, this.opts.upstreamTimeoutMs ?? 60_000);
    });
    up.on('close', stopWaiting);
    up.on('error', (e: NodeJS.ErrnoException) => {
      stopWaiting();
      if (!res.headersSent && !body && !fresh && !fault?.upstreamPool && closedWhileIdle(up, e)) return this.forward(parts, res, retriesLeft, undefined, answer, true);
      if (!res.headersSent) this.down(res, 502, `upstream unreachable: ${e.code ?? e.message}`);
      else res.destroy();
    });
    up.on('response', (ur: http.IncomingMessage) => {
      // The time-out bounds the wait for the upstream's answer, not the silences of a stream.
      stopWaiting();
      up.setTimeout(0);
      if (fault?.retry && ur.statusCode === fault.retry.status && retriesLeft > 0) {
        ur.resume();
        const waitS = fault.retry.honourRetryAfter ? Number(ur.headers['retry-after']) || 0 : 0;
        setTimeout(() => (fault.retry!.rewrite?.(parts), this.forward(parts, res, retriesLeft - 1, undefined, answer)), waitS * 1000);
        return;
      }
      if (answer) answer(ur, res);
      else this.reply(parts, ur, res);
    });
    // A streamed body is the clean gateway's (HTTP/1.1): a fault's, the HTTP/2 hop's included, is read first.
    if (body) pipeline(body.stream, up as http.ClientRequest, () => {});
    else up.end(parts.body);
  }

  private reply(parts: RequestParts, ur: http.IncomingMessage, res: http.ServerResponse) {
    traceAnswer(parts, ur);
    const fault = this.opts.fault;
    const status = ur.statusCode ?? 502;
    const isJson = /json/i.test(String(ur.headers['content-type'] ?? ''));
    const onMessages = /^\/v1\/messages(\?|$)/.test(parts.path);
    // `responseWhen` keeps a fault's rewriting (and so its buffering) to the requests it targets.
    const replaces = !!fault?.response && (fault.responseWhen?.(parts, status) ?? true);
    if (fault && (replaces || (fault.responseJson && isJson && onMessages))) {
      // Only a faulty gateway buffers: it needs the whole body to rewrite it.
      const chunks: Buffer[] = [];
      ur.on('data', (c: Buffer) => chunks.push(c));
      ur.on('end', () => {
        let body = Buffer.concat(chunks);
        const replaced = replaces ? fault.response?.(status, ur.headers, body, parts) : null;
        if (replaced) {
          res.writeHead(replaced.status, { ...replaced.headers, 'content-length': String(replaced.body.length) });
          res.end(replaced.body);
          return;
        }
        if (fault.responseJson && isJson && onMessages) {
          try {
            body = Buffer.from(JSON.stringify(fault.responseJson(JSON.parse(body.toString('utf8')), status)));
          } catch {
            /* not JSON after all: forwarded as it came */
          }
        }
        res.writeHead(status, [...forwardHeaders(ur.rawHeaders).flat(), 'content-length', String(body.length)]);
        res.end(body);
      });
      return;
    }
    let headers = forwardHeaders(ur.rawHeaders);
    const streamed = fault?.stream?.(parts, status, headers);
    if (streamed) headers = streamed.headers;
    res.writeHead(status, headers.flat());
    res.flushHeaders();
    if (streamed) {
      // A transform that fails (e.g. an idle cut) takes the client's response down with it.
      pipeline(ur, streamed.transform, res, () => {});
      return;
    }
    ur.pipe(res);
    // An upstream answer broken off breaks the client's off too (a fault may end it otherwise).
    ur.on('close', () => !ur.complete && (fault?.upstreamCut ? fault.upstreamCut(res, (a) => this.forward(parts, res, 0, undefined, a)) : res.destroy()));
    // A gateway that does not cancel goes on reading the upstream for nobody.
    if (fault?.keepUpstreamOnAbort) res.on('close', () => ur.resume());
  }
}
