// Faults of the field round over plain HTTP (issue 45) besides the encoding ones (wire.ts): a
// gateway that frames a body it rewrote by the length of the body it replaced (a gzip answer it
// decoded, an empty error it filled) or by a length beside chunks (FRAME-1); ones that send the
// upstream two credentials (its own x-api-key beside the client's OAuth bearer, its own bearer
// after the client's, a native `?key=` copied into x-goog-api-key and kept) (AUTH-UP-1); a
// translating route that passes a compressed body on untranslated (ENC-1); and ones that send a
// generating POST again in place after a 502 or a read time-out (RETRY-POST-1).
import { gunzipSync } from 'node:zlib';
import { routeOfRequest } from '../../src/protocols/index.js';
import type { Fault, RequestParts } from './types.js';
import { plain } from './errors.js';

/** The gateway's own error body, written in the place of an upstream error that came empty. */
const OWN_ERROR = Buffer.from(JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'upstream returned an empty error' } }));

/** The key the gateway holds for its upstream (never the client's). */
const PROVIDER_KEY = 'sk-ant-gateway-provider-key-0000000000000';

const protocolOf = (r: RequestParts) => routeOfRequest(r.method, r.path, r.headers)?.protocol;
/** A request body that asks for a stream. */
const asksStream = (r: RequestParts) => /"stream"\s*:\s*true/.test(r.body.toString('latin1', 0, Math.min(r.body.length, 65536)));
const has = (r: RequestParts, name: string) => r.headers.some(([k]) => k.toLowerCase() === name);

export const FIELD_HTTP_FAULTS: Fault[] = [
  {
    name: 'decoded-answer-keeps-length',
    breaks: ['FRAME-1'],
    description: "decodes a gzip answer and removes its `Content-Encoding` (allowed), but declares the compressed body's length as the decoded body's `Content-Length`: the client reads a cut body and the rest lands in front of the next answer",
    // Answers that may come gzipped (the client accepts gzip) and are not streams: a stream is passed on as it comes.
    responseWhen: (r) => r.headers.some(([k, v]) => k.toLowerCase() === 'accept-encoding' && /gzip/i.test(v)) && !asksStream(r),
    response: (status, headers, body) => (/gzip/i.test(String(headers['content-encoding'] ?? '')) ? { status, headers: plain(headers, ['content-encoding']), body: gunzipSync(body), length: body.length } : null),
  },
  {
    name: 'empty-error-filled-keeps-length',
    breaks: ['FRAME-1'],
    description: "answers an upstream error that came with an empty body with a JSON error of its own, but declares the empty body's `Content-Length: 0`: the client reads nothing and the JSON lands in front of the next answer",
    responseWhen: (_r, status) => (status ?? 0) >= 400,
    response: (status, headers, body) => (body.length === 0 ? { status, headers: { ...plain(headers), 'content-type': 'application/json' }, body: OWN_ERROR, length: 0 } : null),
  },
  {
    name: 'length-beside-chunked',
    breaks: ['FRAME-1'],
    description: "decodes a gzip answer, removes its `Content-Encoding` and sends the decoded body chunk-framed (`Transfer-Encoding: chunked`), but keeps the compressed body's `Content-Length` beside it: a reader cannot tell which header frames the body, and strict clients (undici among them) refuse the answer",
    responseWhen: (r) => r.headers.some(([k, v]) => k.toLowerCase() === 'accept-encoding' && /gzip/i.test(v)) && !asksStream(r),
    response: (status, headers, body) => (/gzip/i.test(String(headers['content-encoding'] ?? '')) ? { status, headers: { ...plain(headers, ['content-encoding']), 'transfer-encoding': 'chunked' }, body: gunzipSync(body), length: body.length } : null),
  },
  {
    name: 'x-api-key-beside-bearer',
    breaks: ['AUTH-UP-1', 'ERR-AUTH-1'],
    description: "adds its provider key as `x-api-key` to every messages request that came with `Authorization: Bearer` (an OAuth client's token), keeping the client's bearer: the upstream gets two credentials (and a bad bearer goes through on the provider key: ERR-AUTH-1 too)",
    request: (r) => {
      if (protocolOf(r) === 'messages' && has(r, 'authorization') && !has(r, 'x-api-key')) r.headers.push(['x-api-key', PROVIDER_KEY]);
    },
  },
  {
    name: 'second-bearer-upstream',
    breaks: ['AUTH-UP-1', 'ERR-AUTH-1'],
    description: "forwards the client's `Authorization: Bearer` on chat-completions, Responses, Vertex and Bedrock requests and appends its own `Authorization: Bearer` (the provider's key) after it: the upstream gets the header twice (and a bad chat key goes through on the provider's: ERR-AUTH-1 too)",
    request: (r) => {
      const p = protocolOf(r);
      if ((p === 'chat' || p === 'responses' || p === 'vertex' || p === 'bedrock') && has(r, 'authorization')) r.headers.push(['authorization', `Bearer ${PROVIDER_KEY}`]);
    },
  },
  {
    name: 'native-key-query-and-header',
    breaks: ['AUTH-UP-1'],
    description: 'copies a native request\'s `?key=` into an `x-goog-api-key` header and forwards both: the upstream gets the key twice, in two places',
    request: (r) => {
      if (protocolOf(r) !== 'native' || has(r, 'x-goog-api-key')) return;
      const q = r.path.indexOf('?');
      const key = q >= 0 ? new URLSearchParams(r.path.slice(q + 1)).get('key') : null;
      if (key) r.headers.push(['x-goog-api-key', key]);
    },
  },
  {
    name: 'retry-post-after-502',
    breaks: ['RETRY-POST-1'],
    description: 'sends a request once more, in place and without an Idempotency-Key, when the upstream answers it 502',
    retry: { status: 502, times: 1 },
  },
  {
    name: 'resend-after-read-timeout',
    breaks: ['RETRY-POST-1'],
    description: 'sends a request once more, in place and without an Idempotency-Key, when the upstream accepted it and stayed silent past the gateway\'s time-out; answers 504 when the second send times out too',
    resendAfterTimeout: true,
  },
  {
    name: 'translate-passes-compressed',
    breaks: ['ENC-1'],
    description: 'translates messages into chat completions, but does not decode a compressed request body: the JSON parser cannot read it, and the route passes it on untranslated, compressed, to the messages path of an upstream that speaks chat',
    translate: { passEncoded: true },
  },
];
