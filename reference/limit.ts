// The reference gateway's gateway-level limit, per credential: a fixed window of N requests
// (`rps`), or N requests open at once (`concurrency`). Over it: 429, a JSON error and
// retry-after, before anything is forwarded. Faults change how it answers (reference/faults/load.ts).
import type http from 'node:http';
import type { DeclaredLimit } from '../src/core/limits.js';
import type { LimitFault, RequestParts } from './faults/types.js';
import { CREDENTIAL_HEADER_NAMES } from '../src/core/protocols.js';

function credentialOf(r: RequestParts): string {
  const h = r.headers.find(([k]) => CREDENTIAL_HEADER_NAMES.has(k.toLowerCase()));
  return h?.[1] ?? new URLSearchParams(r.path.split('?')[1] ?? '').get('key') ?? '';
}

export class Limiter {
  private windows = new Map<string, { start: number; used: number }>();
  private open = new Map<string, number>();
  constructor(
    private readonly limit: DeclaredLimit,
    private readonly fault: LimitFault = {},
  ) {}

  /** Admits the request (and counts it), or returns the retry-after in seconds of its refusal. */
  admit(r: RequestParts, res: http.ServerResponse): number | null {
    const key = this.fault.shared ? '*' : credentialOf(r);
    const now = Date.now();
    if (this.limit.kind === 'rps') {
      let w = this.windows.get(key);
      if (!w || now - w.start >= this.limit.windowS * 1000) this.windows.set(key, (w = { start: now, used: 0 }));
      if (w.used >= this.limit.count) return this.fault.retryAfterS ?? Math.max(1, Math.ceil((w.start + this.limit.windowS * 1000 - now) / 1000));
      w.used++;
      return null;
    }
    const n = this.open.get(key) ?? 0;
    if (n >= this.limit.count) return this.fault.retryAfterS ?? 1;
    this.open.set(key, n + 1);
    res.on('close', () => this.open.set(key, (this.open.get(key) ?? 1) - 1));
    return null;
  }

  /** The refusal as this gateway writes it. */
  refuse(res: http.ServerResponse, retryAfterS: number): void {
    if (res.headersSent) return void res.destroy();
    if (this.fault.html503) {
      res.writeHead(503, { 'content-type': 'text/html' }).end('<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>');
      return;
    }
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(retryAfterS) });
    res.end(JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'gateway limit reached for this credential' } }));
  }

  get forwardsFirst(): boolean {
    return !!this.fault.forwardFirst;
  }
}
