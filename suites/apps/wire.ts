// HTTP as the apps checks speak it: one request with its reply read whole (no redirects
// followed, bounded by a timeout), reading error types, and the evidence form of a reply with
// every token masked. Connection trouble is the connection verdict, never a body verdict: a
// request whose connection failed before any header is sent once more on a fresh connection (as
// the clients' SDKs do), and a second failure is a GatewayTransportError (the runner's "the
// gateway's connection failed"), not a harness error.
import { Agent } from 'undici';
import { maskTokens } from '../../src/core/mask.js';
import { parseJson } from '../../src/core/json.js';
import { patientTimeout, stallMeter } from '../../src/core/stall.js';
import { GatewayTransportError } from '../../src/client/gateway.js';
import { excerpt } from '../shared/evidence.js';

export { maskTokens };

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
  contentType: string;
  ms: number;
  /** Why the body broke off (the connection ended mid-body); only with `partial`, else such a reply throws. */
  cut?: string;
  /** Of `ms`, how long this process's event loop was held (src/core/stall.ts): time that is not the gateway's. */
  stalledMs: number;
  /** Set when the first connection failed before any header and the request was sent once more: why. */
  retriedAfter?: string;
}

const TIMEOUT_MS = 10_000;

type CallInit = RequestInit & { form?: Record<string, string>; bodyJson?: unknown; partial?: boolean };

/** The cause's code of a fetch that failed (ECONNRESET, UND_ERR_SOCKET, ...), or its message. */
const causeOf = (e: unknown) => {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (e as Error).message;
};
const isTimeout = (e: unknown) => (e as Error).name === 'TimeoutError' || (e as Error).name === 'AbortError';

/** Sends once; on a connection failure before any header, once more on a fresh connection. */
async function fetchOnce(url: string, init: RequestInit): Promise<{ res: Response; retriedAfter?: string }> {
  try {
    return { res: await fetch(url, init) };
  } catch (e) {
    if (isTimeout(e)) throw e;
    const first = causeOf(e);
    const fresh = new Agent();
    try {
      // `dispatcher` is undici's (Node's fetch is undici's): a connection of its own, not the pool's kept-alive ones.
      return { res: await fetch(url, { ...init, dispatcher: fresh } as RequestInit), retriedAfter: first };
    } catch (e2) {
      if (isTimeout(e2)) throw e2;
      throw new GatewayTransportError(`${init.method ?? 'GET'} ${new URL(url).pathname}: the connection failed before any header, twice (${first}; then ${causeOf(e2)})`, causeOf(e2), true);
    } finally {
      void fresh.close().catch(() => undefined);
    }
  }
}

export async function call(url: string, init: CallInit = {}): Promise<Reply> {
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.form) {
    headers.set('content-type', 'application/x-www-form-urlencoded');
    body = new URLSearchParams(init.form).toString();
  } else if (init.bodyJson !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.bodyJson);
  }
  const t0 = performance.now();
  const meter = stallMeter();
  // The bound counts the gateway's silence, not this process's holds (a loaded machine, other runs beside this one).
  const bound = new AbortController();
  const cancel = init.signal ? () => undefined : patientTimeout(() => bound.abort(new DOMException(`no answer within ${TIMEOUT_MS} ms`, 'TimeoutError')), TIMEOUT_MS);
  try {
    let sent: { res: Response; retriedAfter?: string };
    try {
      sent = await fetchOnce(url, { ...init, headers, body, redirect: 'manual', signal: init.signal ?? bound.signal });
    } catch (e) {
      // With `partial`, a connection that ended before any header (the upstream cut the stream and
      // the gateway reset the client), twice, is a cut reply, status 0; a time-out still throws.
      if (!init.partial || !(e instanceof GatewayTransportError)) throw e;
      return { status: 0, headers: new Headers(), text: '', json: undefined, contentType: '', ms: performance.now() - t0, stalledMs: meter.read(), cut: `the connection ended before any header: ${e.code}` };
    }
    const { res, retriedAfter } = sent;
    let text = '';
    let cut: string | undefined;
    try {
      text = await res.text();
    } catch (e) {
      if (!init.partial) throw e;
      cut = `${(e as Error).name}: ${(e as Error).message}`;
    }
    const ms = performance.now() - t0;
    let json: unknown = undefined;
    try {
      json = parseJson(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json, contentType: res.headers.get('content-type') ?? '', ms, stalledMs: meter.read(), ...(cut ? { cut } : {}), ...(retriedAfter ? { retriedAfter } : {}) };
  } finally {
    cancel();
    meter.stop();
  }
}

export const isJson = (r: Reply) => /^application\/json\b/i.test(r.contentType) && r.json !== undefined;
export const errorType = (r: Reply) => ((r.json as { error?: { type?: string } } | undefined)?.error?.type ?? (r.json as { error?: string } | undefined)?.error);
export const bearer = (token: string) => ({ authorization: `Bearer ${token}`, 'anthropic-version': '2023-06-01' });

/** The evidence form of a reply: status, type and the first of the body (inert text, tokens masked). */
export const brief = (r: Reply) => `${r.status} ${r.contentType || '-'} ${excerpt(maskTokens(r.text), 300)}`;
