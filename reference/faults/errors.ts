// Faults of model discovery, count_tokens, error passthrough and HTTP hygiene: the
// quiet failures that make a client fall back or give up. Each is modelled on a real setup:
// an identity-aware proxy in front of /v1/models, a framework's HTML error page, a proxy that
// "helpfully" retries, nginx's client_max_body_size.
import type http from 'node:http';
import { PassThrough } from 'node:stream';
import type { Fault, Replacement, RequestParts } from './types.js';

const isDiscovery = (r: RequestParts) => r.method === 'GET' && /^\/v1\/models(\?|$)/.test(r.path);
const isCountTokens = (r: RequestParts) => /^\/v1\/messages\/count_tokens(\?|$)/.test(r.path);
const isMessages = (r: RequestParts) => /^\/v1\/messages(\/count_tokens)?(\?|$)/.test(r.path);
const header = (r: RequestParts, name: string) => r.headers.find(([k]) => k.toLowerCase() === name)?.[1];
const hasCredential = (r: RequestParts) => !!(header(r, 'authorization') || header(r, 'x-api-key'));

/** A stream request (`"stream": true`) keeps being streamed under a fault that rewrites other answers. */
const isStream = (r: RequestParts) => /"stream"\s*:\s*true/.test(r.body.toString('latin1', 0, Math.min(r.body.length, 65536)));

/** Response headers as a plain record, without the framing ones the gateway sets itself. */
export function plain(h: http.IncomingHttpHeaders, drop: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined || ['content-length', 'transfer-encoding', 'connection', 'keep-alive', ...drop].includes(k)) continue;
    out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

function htmlPage(status: number, title: string, server = 'nginx'): Replacement {
  return {
    status,
    headers: { 'content-type': 'text/html' },
    body: Buffer.from(`<html>\r\n<head><title>${status} ${title}</title></head>\r\n<body>\r\n<center><h1>${status} ${title}</h1></center>\r\n<hr><center>${server}</center>\r\n</body>\r\n</html>\r\n`),
  };
}

function answer(res: http.ServerResponse, r: Replacement): true {
  res.writeHead(r.status, { ...r.headers, 'content-length': String(r.body.length) });
  res.end(r.body);
  return true;
}

/** Streams the answer unchanged, minus some headers (no buffering: streams keep flowing). */
function dropHeaders(names: string[]): Fault['stream'] {
  return (_r, _status, headers) => ({ headers: headers.filter(([k]) => !names.includes(k.toLowerCase())), transform: new PassThrough() });
}

const SIGN_IN = 'https://sso.example.com/oauth2/authorize?client_id=llm-gateway&response_type=code&redirect_uri=https%3A%2F%2Fgateway.example.com%2Foauth2%2Fcallback&state=gwc';

/** How long sticky-backend-down keeps its backend marked down after a refused connection. */
const STICKY_DOWN_MS = 12_000;

function jsonReplacement(status: number, message: string): Replacement {
  return { status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ type: 'error', error: { type: 'api_error', message } })) };
}

/** discovery-unstable-order with its own counts of the answers it gave (Fault.fresh). */
function discoveryUnstableOrder(): Fault {
  /** Per case (x-gwc-case), how many discovery answers it has given: a deterministic order change per call. */
  const shuffleCalls = new Map<string, number>();
  return {
    name: 'discovery-unstable-order',
    breaks: ['DISC-6'],
    description: 'lists the models in a different order on every call (a list merged from several providers as they answer)',
    responseWhen: isDiscovery,
    response: (status, headers, body, r) => {
      if (status !== 200) return null;
      try {
        const list = JSON.parse(body.toString('utf8'));
        if (!Array.isArray(list.data) || list.data.length < 2) return null;
        const key = header(r, 'x-gwc-case') ?? '';
        const n = shuffleCalls.get(key) ?? 0;
        shuffleCalls.set(key, n + 1);
        const k = n % list.data.length;
        list.data = [...list.data.slice(k), ...list.data.slice(0, k)];
        return { status, headers: plain(headers), body: Buffer.from(JSON.stringify(list)) };
      } catch {
        return null;
      }
    },
    fresh: discoveryUnstableOrder,
  };
}

/** sticky-backend-down with its own time its backend stays marked down (Fault.fresh). */
function stickyBackendDown(): Fault {
  /** Until when (epoch ms) it answers without forwarding. */
  let stickyDownUntil = 0;
  return {
    name: 'sticky-backend-down',
    breaks: ['ERR-RECOVER-1'],
    description: 'marks its backend down for 12 s after a refused connection and answers a JSON 503 without forwarding meanwhile (a passive health check with a long fail time-out)',
    upstreamDown: (status, reason) => {
      if (/ECONNREFUSED/.test(reason)) stickyDownUntil = Date.now() + STICKY_DOWN_MS;
      return jsonReplacement(status, reason);
    },
    intercept: (r, res) => {
      if (!isMessages(r) || Date.now() >= stickyDownUntil) return false;
      return answer(res, jsonReplacement(503, 'no healthy upstream'));
    },
    fresh: stickyBackendDown,
  };
}

export const ERRORS_FAULTS: Fault[] = [
  {
    name: 'discovery-redirect-anonymous',
    breaks: ['DISC-2', 'DISC-1'],
    description: 'redirects GET /v1/models without a credential to an identity provider sign-in page (302), like an auth proxy in front of every path',
    intercept: (r, res) => {
      if (!isDiscovery(r) || hasCredential(r)) return false;
      res.writeHead(302, { location: SIGN_IN, 'content-type': 'text/html' });
      res.end(`<a href="${SIGN_IN.replace(/&/g, '&amp;')}">Found</a>.\n`);
      return true;
    },
  },
  {
    name: 'discovery-login-page',
    breaks: ['DISC-4', 'DISC-1'],
    description: 'answers GET /v1/models with a bearer token with its HTML sign-in page (200), taking the token for a missing browser session',
    intercept: (r, res) => {
      if (!isDiscovery(r) || !/^bearer\s/i.test(header(r, 'authorization') ?? '')) return false;
      return answer(res, {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8', 'set-cookie': '_oauth2_proxy_csrf=gwc; Path=/; HttpOnly' },
        body: Buffer.from(
          `<!DOCTYPE html>\n<html lang="en"><head><title>Sign In</title></head><body><h1>Sign in to Example Gateway</h1><form method="GET" action="/oauth2/start"><input type="hidden" name="rd" value="/v1/models?limit=1000"><button type="submit">Sign in with SSO</button></form></body></html>\n`,
        ),
      });
    },
  },
  {
    name: 'slow-discovery',
    breaks: ['DISC-3'],
    description: 'takes 4 s before forwarding GET /v1/models (a cold model catalogue fetched from several providers), past the client\'s 3 s time-out',
    delayMs: (r) => (isDiscovery(r) ? 4000 : 0),
  },
  {
    name: 'discovery-drop-query',
    breaks: ['DISC-5'],
    description: 'forwards GET /v1/models without its query, so the upstream lists its default page instead of limit=1000',
    request: (r) => {
      if (isDiscovery(r)) r.path = r.path.replace(/\?.*$/, '');
    },
  },
  discoveryUnstableOrder(),
  {
    name: 'count-tokens-html-404',
    breaks: ['MSG-CT-1', 'MSG-RESP-2'],
    description: 'has no route for /v1/messages/count_tokens and answers its HTML 404 page',
    intercept: (r, res) => isCountTokens(r) && answer(res, htmlPage(404, 'Not Found')),
  },
  {
    name: 'count-tokens-invented',
    breaks: ['MSG-CT-1'],
    description: 'answers count_tokens with its own estimate (characters / 4) when the upstream answers an error',
    responseWhen: isCountTokens,
    response: (status, headers, _body, r) =>
      status >= 400 ? { status: 200, headers: { ...plain(headers, ['request-id']), 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ input_tokens: Math.ceil(r.body.length / 4) })) } : null,
  },
  {
    name: 'wrap-upstream-errors',
    breaks: ['ERR-PASS-1', 'ERR-PASS-2', 'ERR-AUTH-1'],
    description: 'wraps every upstream error of a messages request into its own 502 JSON envelope, the original body as a string in the message',
    responseWhen: (r) => isMessages(r) && !isStream(r),
    response: (status, _headers, body) =>
      status >= 400
        ? {
            status: 502,
            headers: { 'content-type': 'application/json' },
            body: Buffer.from(JSON.stringify({ error: { message: `Upstream request failed with status ${status}: ${body.toString('utf8')}`, type: 'upstream_error', code: 502 } })),
          }
        : null,
  },
  {
    name: 'html-502-upstream-down',
    breaks: ['ERR-DOWN-1', 'MSG-RESP-2'],
    description: 'answers its HTML 502 Bad Gateway / 504 Gateway Time-out page when the upstream is unreachable, resets or times out',
    upstreamDown: (status) => htmlPage(status, status === 504 ? 'Gateway Time-out' : 'Bad Gateway'),
  },
  {
    name: 'drop-retry-after',
    breaks: ['ERR-PASS-2'],
    description: 'drops retry-after and retry-after-ms from responses (a header allow-list without them)',
    stream: dropHeaders(['retry-after', 'retry-after-ms']),
  },
  {
    name: 'drop-request-id',
    breaks: ['ERR-PASS-2', 'HDR-OK-1'],
    description: 'drops the request-id response header (of errors and successful answers alike)',
    stream: dropHeaders(['request-id']),
  },
  {
    name: 'retry-404',
    breaks: ['ERR-RETRY-1'],
    description: 'retries a request the upstream answers 404 (e.g. an unknown model) five more times',
    retry: { status: 404, times: 5 },
  },
  {
    name: 'html-413-over-1mib',
    breaks: ['MSG-RESP-2'],
    description: 'refuses request bodies over 1 MiB with an HTML 413 page (nginx\'s default client_max_body_size 1m)',
    intercept: (r, res) => r.body.length > 1024 * 1024 && answer(res, htmlPage(413, 'Request Entity Too Large')),
  },
  stickyBackendDown(),
  {
    name: 'html-200-over-1mib',
    breaks: ['MSG-RESP-2'],
    description: 'forwards request bodies over 1 MiB intact, then answers the client with an HTML page and status 200 instead of the upstream\'s answer (a proxy\'s "request too large" or sign-in page served as a success)',
    responseWhen: (r) => r.body.length > 1024 * 1024,
    response: () => ({ ...htmlPage(200, 'Request Too Large'), status: 200 }),
  },
  {
    name: 'head-hang',
    breaks: ['ERR-PROBE-1'],
    description: 'never answers HEAD / (the start-up probe of earlier clients)',
    intercept: (r) => r.method === 'HEAD' && r.path === '/',
  },
  {
    name: 'head-hang-api-hello',
    breaks: ['ERR-PROBE-1'],
    description: 'never answers HEAD /api/hello (the start-up probe of Claude Code 2.1.330)',
    intercept: (r) => r.method === 'HEAD' && r.path === '/api/hello',
  },
];
