// Faults rebuilt from bug reports against public LLM gateways and proxies: the behaviours that
// pass every check of body, path and error passthrough yet still break clients (a usage option
// added to every stream, keys re-sorted, a lower body limit nobody declared, retries of client
// errors, keepalives swallowed, a count made up, a model list in another shape, a shared cache
// that forgets whose answer it holds).
import type http from 'node:http';
import { parseLossless, stringifyNode, type JNode } from '../../src/core/json.js';
import { FrameData } from './protocols.js';
import { isOn } from './routes.js';
import { isEventStream } from './streaming.js';
import type { Fault, Json, Replacement, RequestParts } from './types.js';
import { CREDENTIAL_HEADER_NAMES } from '../../src/core/protocols.js';

const isNative = (r: RequestParts) => isOn(r, 'native', 'generate', 'stream');
const isNativeCount = (r: RequestParts) => isOn(r, 'native', 'count');
const isChat = (r: RequestParts) => isOn(r, 'chat', 'generate');
const isMessages = (r: RequestParts) => isOn(r, 'messages', 'generate');
const isDiscovery = (r: RequestParts) => r.method === 'GET' && /^\/v1\/models(\?|$)/.test(r.path);

type Obj = Extract<JNode, { t: 'obj' }>;

/** Object keys sorted at every level; values keep their text (only the order changes). */
function sortNode(n: JNode): JNode {
  if (n.t === 'arr') return { ...n, items: n.items.map(sortNode) };
  if (n.t === 'obj') return { ...n, entries: [...n.entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, sortNode(v)] as [string, JNode]) };
  return n;
}

/** Applies `fn` to the lossless tree of matching requests' JSON bodies. */
function rewriteTree(match: (r: RequestParts) => boolean, fn: (n: JNode) => JNode) {
  return (r: RequestParts) => {
    if (match(r) && r.body.length) r.body = Buffer.from(stringifyNode(fn(parseLossless(r.body.toString('utf8')))));
  };
}

const field = (n: JNode, key: string) => (n.t === 'obj' ? n.entries.find(([k]) => k === key)?.[1] : undefined);

/** What a gateway that "always wants usage" does: `stream_options.include_usage: true` on every streaming chat request. */
function addIncludeUsage(n: JNode): JNode {
  const stream = field(n, 'stream');
  if (n.t !== 'obj' || stream?.t !== 'bool' || !stream.v) return n;
  const opts = field(n, 'stream_options') as Obj | undefined;
  const on: [string, JNode] = ['include_usage', { t: 'bool', v: true }];
  if (!opts) return { ...n, entries: [...n.entries, ['stream_options', { t: 'obj', entries: [on] }]] };
  opts.entries = [...opts.entries.filter(([k]) => k !== 'include_usage'), on];
  return n;
}

/** A usage chunk estimated by the gateway, inserted before [DONE] of a chat stream that had none. */
function inventUsage(): FrameData {
  let sawUsage = false;
  let last: Json = null;
  return new FrameData((d) => {
    if (d.trim() === '[DONE]') {
      if (sawUsage || !last) return d;
      const usage = { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 };
      return `${JSON.stringify({ ...last, choices: [], usage })}\n\ndata: ${d}`;
    }
    try {
      const v = JSON.parse(d);
      if (v?.usage) sawUsage = true;
      last = { id: v?.id, object: v?.object, created: v?.created, model: v?.model };
    } catch {
      /* not JSON: passed on */
    }
    return d;
  });
}

function jsonAnswer(res: http.ServerResponse, r: Replacement): true {
  res.writeHead(r.status, { ...r.headers, 'content-length': String(r.body.length) });
  res.end(r.body);
  return true;
}

/** The gateway's own body limit, lower than the provider's 32 MB, and not declared to the run. */
const OWN_LIMIT = 16 * 1024 * 1024;

/** The key of a cache keyed on everything but the credential. */
function cacheKey(r: RequestParts): string {
  const kept = r.headers.filter(([k]) => !CREDENTIAL_HEADER_NAMES.has(k.toLowerCase())).map(([k, v]) => `${k.toLowerCase()}:${v}`);
  return `${r.method} ${r.path}\n${kept.sort().join('\n')}`;
}

/** cache-ignoring-credential with a cache of its own (Fault.fresh). */
function cacheIgnoringCredential(): Fault {
  /** What its cache holds: key -> answer and expiry. */
  const cache = new Map<string, { r: Replacement; until: number }>();
  return {
    name: 'cache-ignoring-credential',
    breaks: ['ISO-1'],
    description: 'keeps GET /v1/models answers the upstream marks cacheable (max-age) in a shared cache keyed on the request without its credential headers, and serves them to any key',
    intercept: (r, res) => {
      const hit = isDiscovery(r) ? cache.get(cacheKey(r)) : undefined;
      return !!hit && hit.until > Date.now() && jsonAnswer(res, hit.r);
    },
    responseWhen: isDiscovery,
    response: (status, headers, body, r) => {
      const maxAge = /max-age=(\d+)/.exec(String(headers['cache-control'] ?? ''));
      const kept: Record<string, string> = { 'content-type': String(headers['content-type'] ?? 'application/json'), 'cache-control': String(headers['cache-control'] ?? '') };
      const answer = { status, headers: kept, body };
      if (status === 200 && maxAge) cache.set(cacheKey(r), { r: answer, until: Date.now() + Number(maxAge[1]) * 1000 });
      return answer;
    },
    fresh: cacheIgnoringCredential,
  };
}

export const FIELD_FAULTS: Fault[] = [
  {
    name: 'chat-sort-keys',
    breaks: ['CHAT-BODY-1'],
    description: 'sorts the object keys of chat request bodies (values kept as written): a gateway that re-serialises through a sorted map',
    request: rewriteTree(isChat, sortNode),
  },
  {
    name: 'native-sort-keys',
    breaks: ['NAT-BODY-1'],
    description: 'sorts the object keys of native request bodies (values kept as written)',
    request: rewriteTree(isNative, sortNode),
  },
  {
    name: 'chat-add-include-usage',
    breaks: ['CHAT-USAGE-1', 'CHAT-BODY-1'],
    description: 'sets stream_options.include_usage to true on every streaming chat request, asked for or not (the usage chunk it brings has empty choices)',
    request: rewriteTree(isChat, addIncludeUsage),
  },
  {
    name: 'chat-invent-usage',
    breaks: ['CHAT-USAGE-1'],
    description: 'adds a usage chunk of its own estimate before [DONE] to chat streams whose upstream sent none',
    stream: (r, _s, h) => (isChat(r) && isEventStream(h) ? { headers: h, transform: inventUsage() } : null),
  },
  {
    name: 'json-413-over-16mib',
    breaks: ['MSG-SIZE-1'],
    description: 'refuses messages bodies over 16 MiB with a JSON 413 request_too_large: a lower limit than the provider\'s 32 MB, not declared',
    intercept: (r, res) =>
      isMessages(r) &&
      r.body.length > OWN_LIMIT &&
      jsonAnswer(res, { status: 413, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ type: 'error', error: { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' } })) }),
  },
  {
    name: 'retry-422',
    breaks: ['ERR-RETRY-2'],
    description: 'sends a request the upstream answers 422 once more (a retry policy that counts every 4xx as transient)',
    retry: { status: 422, times: 1 },
  },
  {
    name: 'retry-429-politely',
    breaks: ['ERR-RETRY-2'],
    description: "retries a 429 once, after its retry-after: within the default bound (2), over a declared --retry-bound 0",
    retry: { status: 429, times: 1, honourRetryAfter: true },
  },
  {
    name: 'retry-429-at-once',
    breaks: ['ERR-RETRY-2'],
    description: 'retries a 429 twice at once, ignoring its retry-after',
    retry: { status: 429, times: 2 },
  },
  {
    name: 'drop-ping',
    breaks: ['SSE-KEEP-1', 'SSE-FRAME-1', 'SSE-FRAME-2'],
    description: 'drops the ping events of messages streams (a translator that forwards only content events); the events and bytes that reach the client differ too',
    stream: (r, _s, h) =>
      isMessages(r) && isEventStream(h)
        ? {
            headers: h,
            transform: new FrameData((d) => {
              try {
                return JSON.parse(d)?.type === 'ping' ? null : d;
              } catch {
                return d;
              }
            }),
          }
        : null,
  },
  {
    name: 'head-root-405',
    breaks: ['ERR-PROBE-2'],
    description: 'answers HEAD / with 405 Method Not Allowed (a router that serves GET / only)',
    intercept: (r, res) => r.method === 'HEAD' && r.path === '/' && jsonAnswer(res, { status: 405, headers: { allow: 'GET', 'content-type': 'application/json' }, body: Buffer.alloc(0) }),
  },
  {
    name: 'native-count-tokens-invented',
    breaks: ['NAT-CT-1'],
    description: 'answers countTokens itself with an estimate (characters / 4), never asking the upstream',
    intercept: (r, res) =>
      isNativeCount(r) && jsonAnswer(res, { status: 200, headers: { 'content-type': 'application/json; charset=UTF-8' }, body: Buffer.from(JSON.stringify({ totalTokens: Math.ceil(r.body.length / 4) })) }),
  },
  {
    name: 'discovery-openai-shape',
    breaks: ['DISC-8'],
    description: "answers GET /v1/models in OpenAI's list shape ({object: list, data: [{id, object: model, created, owned_by}]}), keeping display_name",
    responseWhen: isDiscovery,
    response: (status, headers, body) => {
      if (status !== 200) return null;
      const v = JSON.parse(body.toString('utf8'));
      if (!Array.isArray(v?.data)) return null;
      const data = v.data.map((m: Json) => ({ id: m.id, object: 'model', created: Math.floor(Date.parse(m.created_at) / 1000), owned_by: 'anthropic', display_name: m.display_name }));
      return { status, headers: { 'content-type': String(headers['content-type'] ?? 'application/json') }, body: Buffer.from(JSON.stringify({ object: 'list', data })) };
    },
  },
  cacheIgnoringCredential(),
];
