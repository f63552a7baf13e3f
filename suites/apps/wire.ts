// HTTP as the apps checks speak it: one request with its reply read whole (no redirects
// followed, bounded by a timeout), reading error types, and the evidence form of a reply with
// every token masked.
import { maskTokens } from '../../src/core/mask.js';
import { parseJson } from '../../src/core/json.js';

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
}

const TIMEOUT_MS = 10_000;

export async function call(url: string, init: RequestInit & { form?: Record<string, string>; bodyJson?: unknown; partial?: boolean } = {}): Promise<Reply> {
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
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers, body, redirect: 'manual', signal: init.signal ?? AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    // With `partial`, a connection that ended before any header (the upstream cut the stream and
    // the gateway reset the client) is a cut reply too, status 0; a time-out still throws.
    if (!init.partial || (e as Error).name === 'TimeoutError' || (e as Error).name === 'AbortError') throw e;
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return { status: 0, headers: new Headers(), text: '', json: undefined, contentType: '', ms: performance.now() - t0, cut: `the connection ended before any header: ${cause?.code ?? cause?.message ?? (e as Error).message}` };
  }
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
  return { status: res.status, headers: res.headers, text, json, contentType: res.headers.get('content-type') ?? '', ms, ...(cut ? { cut } : {}) };
}

export const isJson = (r: Reply) => /^application\/json\b/i.test(r.contentType) && r.json !== undefined;
export const errorType = (r: Reply) => ((r.json as { error?: { type?: string } } | undefined)?.error?.type ?? (r.json as { error?: string } | undefined)?.error);
export const bearer = (token: string) => ({ authorization: `Bearer ${token}`, 'anthropic-version': '2023-06-01' });

/** The evidence form of a reply: status, type and the first of the body (inert text, tokens masked). */
export const brief = (r: Reply) => `${r.status} ${r.contentType || '-'} ${maskTokens(r.text).slice(0, 300)}`;
