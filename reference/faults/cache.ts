// Faults of gateways that cache answers or handle the credential carelessly: a response cache
// whose key leaves out `stream`, or every body field but `model`; a cache that replays the
// upstream's framing headers (Transfer-Encoding, Connection, Keep-Alive) beside its own
// Content-Length; a model list cached for ever, loaded once for every request, kept for ever once
// the upstream marks it cacheable, or kept past the lifetime the gateway declares (and beside them
// a control that caches it honestly for what it declares); and the x-api-key copied into the forwarded
// URL's query (`?key=`), as gateways that translate to a key-in-URL upstream do.
import type http from 'node:http';
import { createHash } from 'node:crypto';
import { routeOfRequest } from '../../src/protocols/index.js';
import type { Fault, Json, Replacement, RequestParts } from './types.js';

/** Headers that frame one connection's message: never part of a cache key. */
const FRAMING = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'host']);

/** A messages answer that is not a stream (the body does not ask for one), or that is: both are looked up. */
const isGenerate = (r: RequestParts) => r.method === 'POST' && /^\/v1\/messages(\?|$)/.test(r.path);
const isModelList = (r: RequestParts) => r.method === 'GET' && routeOfRequest(r.method, r.path, r.headers)?.route === 'models' && routeOfRequest(r.method, r.path, r.headers)?.protocol === 'messages';
const asksStream = (r: RequestParts) => /"stream"\s*:\s*true/.test(r.body.toString('utf8'));

/** The request line and its headers (framing ones left out), sorted: the part of every key below. */
function headerKey(r: RequestParts): string {
  const kept = r.headers.filter(([k]) => !FRAMING.has(k.toLowerCase())).map(([k, v]) => `${k.toLowerCase()}:${v}`);
  return `${r.method} ${r.path}\n${kept.sort().join('\n')}`;
}

/** The body parsed, `drop` applied; the raw bytes when it is not JSON. */
function bodyKey(r: RequestParts, drop: (b: Json) => Json): string {
  try {
    return JSON.stringify(drop(JSON.parse(r.body.toString('utf8'))));
  } catch {
    return createHash('sha256').update(r.body).digest('hex');
  }
}

/** One response cache: a key per request, answers the upstream marks cacheable (max-age) held for that long (or for ever); the cache faults of other areas use it too. */
export function responseCache(opts: {
  when: (r: RequestParts) => boolean;
  store: (r: RequestParts) => boolean;
  key: (r: RequestParts) => string;
  forever?: boolean;
  replay?: 'framing';
  /** The cache lifetime the gateway declares to the client (cache-control max-age on every answer it stores or replays) and holds the entry for, unless `forever`. */
  declareS?: number;
  /** With `forever`: store only the answers the upstream marks cacheable (max-age), then keep them for ever. */
  cacheableOnly?: boolean;
}): Pick<Fault, 'intercept' | 'responseWhen' | 'response'> {
  const declared: Record<string, string> = opts.declareS ? { 'cache-control': `max-age=${opts.declareS}` } : {};
  const held = new Map<string, { status: number; headers: http.IncomingHttpHeaders; body: Buffer; until: number }>();
  return {
    intercept: (r, res) => {
      const hit = opts.when(r) ? held.get(opts.key(r)) : undefined;
      if (!hit || hit.until <= Date.now()) return false;
      const own = { 'content-type': String(hit.headers['content-type'] ?? 'application/json'), ...(hit.headers['cache-control'] ? { 'cache-control': String(hit.headers['cache-control']) } : {}), ...declared };
      // The framing fault writes every header it kept from the upstream's connection beside its own length.
      const headers = opts.replay === 'framing' ? { ...hit.headers, 'content-length': String(hit.body.length) } : { ...own, 'content-length': String(hit.body.length) };
      res.writeHead(hit.status, headers);
      res.end(hit.body);
      return true;
    },
    responseWhen: (r) => opts.when(r) && opts.store(r),
    response: (status, headers, body, r): Replacement | null => {
      const maxAge = opts.declareS ?? /max-age=(\d+)/.exec(String(headers['cache-control'] ?? ''))?.[1];
      if (status !== 200 || !(maxAge || (opts.forever && !opts.cacheableOnly))) return null;
      // Stored before the client has its answer: the lifetime runs from here.
      held.set(opts.key(r), { status, headers, body, until: opts.forever ? Infinity : Date.now() + Number(maxAge) * 1000 });
      return opts.declareS ? { status, headers: { 'content-type': String(headers['content-type'] ?? 'application/json'), ...declared }, body } : null;
    },
  };
}

/** The body without its `stream` field. */
const withoutStream = (b: Json) => {
  if (b && typeof b === 'object') delete b.stream;
  return b;
};

/** A fault whose cache is made anew for each gateway (`fresh`), so no run meets another's entries. */
function freshCache(fault: Omit<Fault, 'intercept' | 'responseWhen' | 'response' | 'fresh'>, cache: () => ReturnType<typeof responseCache>): Fault {
  const made: Fault = { ...fault, ...cache(), fresh: () => freshCache(fault, cache) };
  return made;
}

export const CACHE_FAULTS: Fault[] = [
  {
    name: 'credential-into-query',
    breaks: ['CRED-1'],
    description: 'copies the x-api-key header of a messages request into the forwarded URL as ?key= (the header kept), as a gateway that also serves key-in-URL upstreams does',
    request: (r) => {
      const key = r.headers.find(([k]) => k.toLowerCase() === 'x-api-key')?.[1];
      if (!key || !/^\/v1\/messages(\/|\?|$)/.test(r.path)) return;
      r.path = `${r.path}${r.path.includes('?') ? '&' : '?'}key=${encodeURIComponent(key)}`;
    },
  },
  {
    name: 'cache-ignores-stream-flag',
    breaks: ['CACHE-KEY-1'],
    description: 'keeps messages answers the upstream marks cacheable (max-age) under a key of the request headers and the body without its `stream` field, so a streaming request gets the JSON answer a non-streaming one left',
    ...responseCache({ when: isGenerate, store: (r) => !asksStream(r), key: (r) => `${headerKey(r)}\n${bodyKey(r, withoutStream)}` }),
  },
  {
    name: 'cache-keyed-on-model-only',
    breaks: ['CACHE-KEY-1'],
    description: "keeps messages answers the upstream marks cacheable (max-age) under a key of the request headers and the body's `model` alone, so requests that differ in any other field (the prompt, max_tokens, stream) share one entry",
    ...responseCache({ when: isGenerate, store: (r) => !asksStream(r), key: (r) => `${headerKey(r)}\n${bodyKey(r, (b) => b?.model ?? null)}` }),
  },
  {
    name: 'cache-replays-framing-headers',
    breaks: ['CACHE-KEY-1'],
    description: "keeps messages answers the upstream marks cacheable (max-age) under the whole request, and replays every header it kept, the upstream connection's Transfer-Encoding, Connection and Keep-Alive included, beside its own Content-Length",
    ...responseCache({ when: isGenerate, store: (r) => !asksStream(r), key: (r) => `${headerKey(r)}\n${bodyKey(r, (b) => b)}`, replay: 'framing' }),
  },
  {
    name: 'models-cache-forever',
    breaks: ['DISC-9'],
    description: "keeps the first answer to each GET /v1/models request (key: the request and its headers) for ever, whatever the upstream lists later and however long it allowed (the upstream's cache-control passed on as it came: none when it sent none)",
    ...responseCache({ when: isModelList, store: () => true, key: headerKey, forever: true }),
  },
  {
    name: 'models-cache-declared-lifetime',
    breaks: [],
    description: 'a control: keeps each GET /v1/models answer (key: the request and its headers) for the 2 s it declares to the client (cache-control: max-age=2), then asks the upstream again',
    ...responseCache({ when: isModelList, store: () => true, key: headerKey, declareS: 2 }),
  },
  {
    name: 'models-cache-past-lifetime',
    breaks: ['DISC-9'],
    description: 'declares a 2 s cache lifetime on GET /v1/models answers (cache-control: max-age=2) but keeps the first answer to each request for ever, so a model added or withdrawn upstream never shows',
    ...responseCache({ when: isModelList, store: () => true, key: headerKey, declareS: 2, forever: true }),
  },
  freshCache(
    {
      name: 'models-first-list-forever',
      breaks: ['DISC-9'],
      description: "keeps the first GET /v1/models answer it is given and serves it to every later GET /v1/models for ever (one entry, whatever the request), the upstream's cache-control passed on as it came, as a gateway that loads the list once does",
    },
    () => responseCache({ when: isModelList, store: () => true, key: () => 'the list', forever: true }),
  ),
  freshCache(
    {
      name: 'models-cache-cacheable-forever',
      breaks: ['DISC-9'],
      description: "keeps each GET /v1/models answer the upstream marks cacheable (cache-control max-age; key: the request and its headers) for ever instead of for the lifetime the upstream gave, the upstream's cache-control passed on as it came; an answer with no max-age is not kept",
    },
    () => responseCache({ when: isModelList, store: () => true, key: headerKey, forever: true, cacheableOnly: true }),
  ),
];
