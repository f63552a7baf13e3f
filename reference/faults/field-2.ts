// Faults of the second round rebuilt from field reports against gateways: rate-limit and
// request-id headers kept on errors but stripped from successful answers, and upstream streams
// broken off mid-answer that reach the client ended cleanly, completed with a made-up
// message_stop, or retried upstream and spliced into the same stream; a shared cache keyed on
// the Authorization header alone (x-api-key, x-goog-api-key and ?key= requests share entries);
// anthropic-version and anthropic-beta dropped on count_tokens, a route of its own; the
// client's credential echoed back in a debug header; CORS preflights refused.
import type http from 'node:http';
import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { routeOfRequest } from '../../src/protocols/index.js';
import type { Fault, RequestParts } from './types.js';
import { responseCache } from './cache.js';
import { CREDENTIAL_HEADER_NAMES } from '../../src/core/protocols.js';

/** The headers a successful answer loses through a gateway that rebuilds 2xx headers from its own list. */
const SUCCESS_ONLY = /^((x-)?request-id|anthropic-ratelimit-|x-ratelimit-)/i;

/** The event a gateway appends to close a stream the upstream left unfinished. */
const FAKE_STOP = 'event: message_stop\ndata: {"type":"message_stop"}\n\n';

/** Ends the client's answer (when it is still open) with `tail`: the last chunk written, as if the upstream had finished. */
function endCleanly(res: http.ServerResponse, tail?: string): void {
  if (res.destroyed || res.writableEnded) return;
  res.end(tail);
}

/** Answers a shared cache may keep: model lists, and POST answers that are not streams. */
function cacheable(r: RequestParts): boolean {
  const route = routeOfRequest(r.method, r.path, r.headers)?.route;
  return route === 'models' || (r.method === 'POST' && (route === 'generate' || route === 'count') && !/"stream"\s*:\s*true/.test(r.body.toString('utf8')));
}

/** The cache key of a gateway that counts only `Authorization` as the credential: the request with x-api-key, x-goog-api-key and the `key` parameter left out. */
function authorizationOnlyKey(r: RequestParts): string {
  const url = new URL(r.path, 'http://gateway');
  url.searchParams.delete('key');
  const kept = r.headers.filter(([k]) => !['x-api-key', 'x-goog-api-key'].includes(k.toLowerCase())).map(([k, v]) => `${k.toLowerCase()}:${v}`);
  return `${r.method} ${url.pathname}${url.search}\n${kept.sort().join('\n')}\n${createHash('sha256').update(r.body).digest('hex')}`;
}

/** cache-keyed-on-authorization with a cache of its own (Fault.fresh). */
function cacheKeyedOnAuthorization(): Fault {
  return {
    name: 'cache-keyed-on-authorization',
    breaks: ['ISO-1', 'CACHE-KEY-1'],
    description: 'keeps answers the upstream marks cacheable (max-age: model lists, and POST answers) in a shared cache keyed on the request and its Authorization header alone, so requests with x-api-key, x-goog-api-key, ?key= or no credential share one entry',
    ...responseCache({ when: cacheable, store: () => true, key: authorizationOnlyKey }),
    fresh: cacheKeyedOnAuthorization,
  };
}

export const FIELD_2_FAULTS: Fault[] = [
  {
    name: 'drop-success-headers',
    breaks: ['HDR-OK-1'],
    description: 'strips request-id, x-request-id, anthropic-ratelimit-* and x-ratelimit-* from 2xx answers (JSON and streamed), keeping them on errors',
    stream: (_r, status, headers) => (status >= 200 && status < 300 ? { headers: headers.filter(([k]) => !SUCCESS_ONLY.test(k)), transform: new PassThrough() } : null),
  },
  {
    name: 'cut-stream-clean-end',
    breaks: ['SSE-CUT-1'],
    description: "ends the client's stream cleanly (the last chunk written) when the upstream's breaks off before its end",
    upstreamCut: (res) => endCleanly(res),
  },
  {
    name: 'cut-stream-fake-stop',
    breaks: ['SSE-CUT-1'],
    description: "appends a message_stop of its own and ends the client's stream cleanly when the upstream's breaks off before its end",
    upstreamCut: (res) => endCleanly(res, FAKE_STOP),
  },
  {
    name: 'cut-stream-spliced-retry',
    breaks: ['SSE-CUT-1'],
    description: "sends the request upstream again when its stream breaks off, and streams the new answer on into the client's stream (then ends it cleanly)",
    upstreamCut: (res, again) => {
      if (res.destroyed || res.writableEnded) return;
      again((ur) => {
        ur.on('data', (c: Buffer) => res.write(c));
        ur.on('close', () => endCleanly(res));
      });
    },
  },
  cacheKeyedOnAuthorization(),
  {
    name: 'count-tokens-drop-headers',
    breaks: ['MSG-HDR-1', 'MSG-HDR-2'],
    description: 'forwards POST /v1/messages/count_tokens without anthropic-version and anthropic-beta (a route of its own that rebuilds the headers); /v1/messages keeps them',
    request: (r) => {
      const at = routeOfRequest(r.method, r.path, r.headers);
      if (at?.protocol === 'messages' && at.route === 'count') r.headers = r.headers.filter(([k]) => !/^anthropic-(version|beta)$/i.test(k));
    },
  },
  {
    name: 'echo-credential-header',
    breaks: ['CRED-1'],
    description: "adds a debug header to every answer that carries the request's credential header, base64-encoded (x-gateway-debug-auth: base64 of `x-api-key: ...`)",
    stream: (r, _status, headers) => {
      const cred = r.headers.find(([k]) => CREDENTIAL_HEADER_NAMES.has(k.toLowerCase()));
      return cred ? { headers: [...headers, ['x-gateway-debug-auth', Buffer.from(`${cred[0]}: ${cred[1]}`).toString('base64')]], transform: new PassThrough() } : null;
    },
  },
  {
    name: 'no-cors-preflight',
    breaks: ['CORS-1'],
    description: 'answers every OPTIONS request with a JSON 405 (a router that serves GET and POST only), so no browser gets past its preflight',
    intercept: (r, res) => {
      if (r.method !== 'OPTIONS') return false;
      res.writeHead(405, { allow: 'GET, POST', 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'method_not_allowed', message: 'OPTIONS is not allowed' } }));
      return true;
    },
  },
];
