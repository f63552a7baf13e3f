// Small pieces of the reference gateway's HTTP handling (gateway.ts): the fields it forwards
// (not the hop-by-hop ones), its JSON error answer, whether a request body is compressed and its decoding (ENC-1), and which failed requests it sends once more
// because their kept-alive upstream connection turned out closed (CONN-IDLE-1), and the prefix-and-header mode's admission.
import type http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { zstdDecompress } from '../src/core/zstd.js';

// RFC 9110 7.6.1: connection-specific fields are not forwarded.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'content-length']);
/** The request's or answer's fields that go on to the next hop: all but the hop-by-hop ones and those `connection` names. */
export function forwardHeaders(raw: string[]): Array<[string, string]> {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === 'connection') raw[i + 1].split(',').forEach((t) => named.add(t.trim().toLowerCase()));
  const out: Array<[string, string]> = [];
  for (let i = 0; i < raw.length; i += 2) {
    const k = raw[i].toLowerCase();
    if (!HOP_BY_HOP.has(k) && !named.has(k)) out.push([raw[i], raw[i + 1]]);
  }
  return out;
}

/** The request body carries a content coding (gzip, br...): a gateway that reads the body cannot read it as it is. */
export function encodedBody(r: { headers: Array<[string, string]> }): boolean {
  return r.headers.some(([k, v]) => k.toLowerCase() === 'content-encoding' && !/^\s*(identity)?\s*$/i.test(v));
}

/** The most a compressed request body decodes to here (the harness's bodies are a few KiB; the declared body limit is 32 MB). */
const DECODED_MAX = 64 * 1024 * 1024;

/**
 * Decodes a gzip or zstd request body whole and takes its Content-Encoding off (the gateway then
 * sends the decoded length): what a gateway that must read a compressed body does (ENC-1,
 * RESP-BODY-2). False when the body carries no coding decoded here; throws on bytes that are not
 * what their label says.
 */
export function decodeRequestBody(r: { headers: Array<[string, string]>; body: Buffer }): boolean {
  const ce = r.headers.find(([k]) => k.toLowerCase() === 'content-encoding')?.[1] ?? '';
  const gzip = /^\s*(x-)?gzip\s*$/i.test(ce);
  if (!gzip && !/^\s*zstd\s*$/i.test(ce)) return false;
  r.body = gzip ? gunzipSync(r.body, { maxOutputLength: DECODED_MAX }) : zstdDecompress(r.body, DECODED_MAX, false);
  r.headers = r.headers.filter(([k]) => k.toLowerCase() !== 'content-encoding');
  return true;
}

export function jsonError(res: http.ServerResponse, status: number, type: string, message: string) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ type: 'error', error: { type, message } }));
}

/**
 * The request went out on a kept-alive connection the upstream had closed while it sat idle,
 * before its close was read here (the race node's documentation describes for `reusedSocket`):
 * the write failed (EPIPE) or the connection ended with no answer ("socket hang up"), and the
 * request is sent once more on a fresh connection. A reset after the upstream read the request
 * ("read ECONNRESET", errors.upstream.reset) is not this: it is answered 502, never sent again.
 */
export function closedWhileIdle(up: { reusedSocket: boolean }, e: NodeJS.ErrnoException): boolean {
  return up.reusedSocket && (e.code === 'EPIPE' || (e.code === 'ECONNRESET' && e.message === 'socket hang up'));
}

/** Prefix-and-header mode: a JSON 404 outside the base path, a JSON 400 without a required header; strips both. */
export function admit(parts: { path: string; method: string; headers: Array<[string, string]> }, res: http.ServerResponse, basePath: string | undefined, requireHeaders: Array<[string, string]> | undefined): boolean {
  const base = basePath?.replace(/\/+$/, '');
  if (base) {
    if (!(parts.path.startsWith(`${base}/`) || parts.path.startsWith(`${base}?`))) {
      jsonError(res, 404, 'not_found_error', `no route for ${parts.method} ${parts.path.split('?')[0]}: this gateway serves under ${base}/`);
      return false;
    }
    parts.path = parts.path.slice(base.length);
  }
  for (const [name, value] of requireHeaders ?? []) {
    const got = parts.headers.filter(([k]) => k.toLowerCase() === name).map(([, v]) => v);
    if (!got.includes(value)) {
      jsonError(res, 400, 'invalid_request_error', `missing or wrong ${name} header: this gateway routes by it`);
      return false;
    }
    parts.headers = parts.headers.filter(([k]) => k.toLowerCase() !== name);
  }
  return true;
}
