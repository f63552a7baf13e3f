// The telemetry collector the apps profile points gateways at: OTLP/HTTP on loopback
// (/v1/traces, /v1/metrics, /v1/logs; protobuf or JSON; gzip or deflate bodies), recording
// every span, log record and metric with its attributes, every text the exports carry (bytes
// decoded), and every export attempt with its raw body (so a check can look for a canary, or
// pieces of it, in any field, known or not, in either encoding). It can be switched down:
// answering an error status, stalling (accepting and never answering), or refusing connections,
// and back up on the same port. Under a path prefix (`credential`) it takes exports only with a
// bearer token: the endpoint with a credential that a gateway may hand clients in its settings.
// `SharedCollector` is one collector for runs that go on at once (the apps detection matrix):
// each run gets a tenant of its own, with its own records, mode, credential and address (a
// listener of its own on the shared HTTP server, host.ts), so a run sees only what was sent to
// it, and a run's collector refusing connections leaves the others up.
import type http from 'node:http';
import zlib from 'node:zlib';
import { patientTimeout } from '../../src/core/stall.js';
import {
  DecodeError,
  decodeJson,
  decodeProtobuf,
  type Decoded,
  type Encoding,
  type FieldText,
  type LogRecord,
  type MetricRecord,
  type Signal,
  type SpanRecord,
} from './decode.js';
import { ConnectionHost, type HostedListener } from './host.js';

export type CollectorMode =
  | { kind: 'up' }
  | { kind: 'error'; status: number }
  | { kind: 'stall' }
  | { kind: 'refuse' };

export interface ExportAttempt {
  signal: Signal | null;
  path: string;
  encoding: Encoding | null;
  contentType: string;
  /** The body as received, decompressed. */
  body: Buffer;
  /** The status the collector answered (0 while stalled or when the client went away). */
  status: number;
  at: number;
}

/** A path prefix under which exports need `authorization: Bearer <token>` (401 without it). */
export interface CollectorCredential {
  prefix: string;
  token: string;
}

const SIGNALS: Record<string, Signal> = { '/v1/traces': 'traces', '/v1/metrics': 'metrics', '/v1/logs': 'logs' };
const MAX_BODY = 16 * 1024 * 1024;

function encodingOf(contentType: string): Encoding | null {
  const ct = contentType.split(';')[0]!.trim().toLowerCase();
  if (ct === 'application/x-protobuf' || ct === 'application/protobuf') return 'protobuf';
  if (ct === 'application/json') return 'json';
  return null;
}

function decompress(body: Buffer, contentEncoding: string | undefined): Buffer {
  const ce = (contentEncoding ?? '').trim().toLowerCase();
  if (ce === '' || ce === 'identity') return body;
  if (ce === 'gzip') return zlib.gunzipSync(body);
  if (ce === 'deflate') return zlib.inflateSync(body);
  throw new DecodeError(`unsupported content-encoding ${ce}`);
}

export class OtlpCollector {
  readonly spans: SpanRecord[] = [];
  readonly logs: LogRecord[] = [];
  readonly metrics: MetricRecord[] = [];
  readonly attempts: ExportAttempt[] = [];
  /** Every text of every export decoded, with where it sat (see decode.ts). */
  readonly texts: (FieldText & { path: string })[] = [];
  private mode: CollectorMode = { kind: 'up' };
  private waiters = new Set<() => void>();
  private stalled = new Map<http.ServerResponse, ExportAttempt>();
  private readonly listener: HostedListener;

  /** On a server of its own, or on `host` (a SharedCollector's) beside other tenants. */
  constructor(
    private readonly credential?: CollectorCredential,
    host: ConnectionHost = new ConnectionHost(),
  ) {
    this.listener = host.listener((req, res) => this.handle(req, res), 'telemetry collector');
  }

  /** Where it listens (once started; kept while it refuses connections). */
  get url(): string {
    return this.listener.url;
  }

  async start(host = '127.0.0.1', port = 0): Promise<string> {
    return this.listener.listen(host, port);
  }

  get currentMode(): CollectorMode {
    return this.mode;
  }

  /**
   * Switches the collector. `refuse` stops listening and drops open connections (connection
   * refused until switched back); `stall` holds requests unanswered; `error` answers `status`.
   * Leaving `stall` ends held requests with a 503.
   */
  async setMode(mode: CollectorMode): Promise<void> {
    const was = this.mode;
    this.mode = mode;
    if (was.kind === 'stall' && mode.kind !== 'stall') {
      for (const [res, attempt] of this.stalled) {
        if (res.writableEnded) continue;
        attempt.status = 503;
        res.writeHead(503).end();
      }
      this.stalled.clear();
      this.notify();
    }
    if (mode.kind === 'refuse' && was.kind !== 'refuse') await this.listener.close();
    else if (was.kind === 'refuse' && mode.kind !== 'refuse') {
      const u = new URL(this.url);
      await this.listener.listen(u.hostname.replace(/^\[|\]$/g, ''), Number(u.port));
    }
  }

  async stop(): Promise<void> {
    for (const res of this.stalled.keys()) if (!res.writableEnded) res.destroy();
    this.stalled.clear();
    await this.listener.close();
  }

  /** Forgets everything recorded. */
  clear(): void {
    this.spans.length = 0;
    this.logs.length = 0;
    this.metrics.length = 0;
    this.attempts.length = 0;
    this.texts.length = 0;
  }

  /** Whether `text` occurs anywhere the collector received (see findAny). */
  sawText(text: string): boolean {
    return this.findAny([text]) !== undefined;
  }

  /**
   * Where the first of `pieces` occurs: in a decoded text (a string field, or a bytes value read
   * as UTF-8, at any depth of arrays and key-value lists; JSON escapes undone), or in an export
   * body as received (decompressed; one that did not decode too). Undefined when none occurs.
   */
  findAny(pieces: string[]): { piece: string; where: string } | undefined {
    for (const piece of pieces) {
      const t = this.texts.find((x) => x.text.includes(piece));
      if (t) return { piece, where: `${t.path} ${t.where}` };
      const needle = Buffer.from(piece, 'utf8');
      const a = this.attempts.find((x) => x.body.includes(needle));
      if (a) return { piece, where: `${a.path} (body as received)` };
    }
    return undefined;
  }

  /**
   * Resolves once `pred` holds over what was recorded, or after `timeoutMs` with the last
   * answer. Waits on arrivals, not on a clock; `timeoutMs` is the gateway's silence, not this
   * process's holds (src/core/stall.ts: an export that came during a hold is read before it ends).
   */
  async waitFor<T>(pred: () => T | undefined | null | false, timeoutMs: number): Promise<T | undefined> {
    const now = pred();
    if (now) return now;
    return new Promise((resolve) => {
      const done = (v: T | undefined) => {
        cancel();
        this.waiters.delete(check);
        resolve(v);
      };
      const check = () => {
        const v = pred();
        if (v) done(v);
      };
      const cancel = patientTimeout(() => done(pred() || undefined), timeoutMs);
      this.waiters.add(check);
    });
  }

  /** Resolves with the first span matching `pred`, or undefined after `timeoutMs`. */
  waitForSpan(pred: (s: SpanRecord) => boolean, timeoutMs: number): Promise<SpanRecord | undefined> {
    return this.waitFor(() => this.spans.find(pred), timeoutMs);
  }

  private notify(): void {
    for (const w of [...this.waiters]) w();
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0]!;
    const cred = this.credential;
    const secured = !!cred && path.startsWith(`${cred.prefix}/`);
    const signal = SIGNALS[secured ? path.slice(cred.prefix.length) : path] ?? null;
    const contentType = req.headers['content-type'] ?? '';
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        res.writeHead(413, { 'content-type': 'application/json' }).end('{"code":3,"message":"body too large"}');
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (res.writableEnded) return;
      const raw = Buffer.concat(chunks);
      let body: Buffer = raw;
      let undecompressable: string | null = null;
      try {
        body = decompress(raw, req.headers['content-encoding']);
      } catch (e) {
        undecompressable = e instanceof DecodeError ? e.message : 'body does not decompress';
      }
      const attempt: ExportAttempt = {
        signal,
        path,
        encoding: encodingOf(contentType),
        contentType,
        body,
        status: 0,
        at: Date.now(),
      };
      this.attempts.push(attempt);
      const answer = (status: number, payload: string | Buffer, type: string) => {
        attempt.status = status;
        res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(payload) });
        res.end(payload);
        this.notify();
      };
      const jsonError = (status: number, message: string) =>
        answer(status, JSON.stringify({ code: status === 400 ? 3 : 14, message }), 'application/json');

      if (this.mode.kind === 'stall') {
        this.stalled.set(res, attempt);
        res.on('close', () => this.stalled.delete(res));
        this.notify();
        return;
      }
      if (this.mode.kind === 'error') return jsonError(this.mode.status, 'collector switched down by the test');
      if (secured && req.headers.authorization !== `Bearer ${cred.token}`) return jsonError(401, `${cred.prefix}/v1/* takes exports with its bearer token only`);
      if (signal === null) return jsonError(404, `no OTLP signal at ${path}`);
      if (req.method !== 'POST') return jsonError(405, 'POST only');
      if (attempt.encoding === null) return jsonError(415, `unsupported content-type ${contentType || '(none)'}`);
      if (undecompressable !== null) return jsonError(400, undecompressable);
      let decoded: Decoded;
      try {
        decoded = attempt.encoding === 'protobuf' ? decodeProtobuf(signal, body) : decodeJson(signal, body);
      } catch (e) {
        return jsonError(400, e instanceof DecodeError ? e.message : 'bad request body');
      }
      this.texts.push(...decoded.texts.map((t) => ({ ...t, path })));
      this.spans.push(...decoded.spans);
      this.logs.push(...decoded.logs);
      this.metrics.push(...decoded.metrics);
      // An empty Export*ServiceResponse: zero bytes in protobuf, {} in JSON.
      if (attempt.encoding === 'protobuf') answer(200, Buffer.alloc(0), 'application/x-protobuf');
      else answer(200, '{}', 'application/json');
    });
  }
}

/** One collector for runs at once: each `tenant()` has its own records, mode, credential and address, on one HTTP server. */
export class SharedCollector {
  private readonly host = new ConnectionHost();

  /** A tenant of its own (start it to give it its address; stop it when its run ends). */
  tenant(credential?: CollectorCredential): OtlpCollector {
    return new OtlpCollector(credential, this.host);
  }
}
