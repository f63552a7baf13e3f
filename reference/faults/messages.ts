// Faults of the messages core: request bodies and headers, JSON responses, stop reasons.
import type { Fault, Json, RequestParts } from './types.js';
import { onStreams, PerFrame } from './streaming.js';
import { routeOfRequest } from '../../src/protocols/index.js';

const isMessages = (r: RequestParts) => /\/v1\/messages(\?|$)/.test(r.path);

/** Applies `fn` to the parsed JSON body of a messages request and re-serialises it. */
function rewriteBody(fn: (b: Json) => Json) {
  return (r: RequestParts) => {
    if (!isMessages(r) || r.body.length === 0) return;
    const b = JSON.parse(r.body.toString('utf8'));
    r.body = Buffer.from(JSON.stringify(fn(b)));
  };
}

function walk(v: Json, fn: (o: Record<string, Json>) => void): Json {
  if (Array.isArray(v)) v.forEach((x) => walk(x, fn));
  else if (v && typeof v === 'object') {
    fn(v);
    Object.values(v).forEach((x) => walk(x, fn));
  }
  return v;
}

function sortKeys(v: Json): Json {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])]));
  return v;
}

const KNOWN_TOP = new Set(['model', 'max_tokens', 'messages', 'system', 'stream', 'tools', 'tool_choice', 'thinking', 'metadata', 'stop_sequences', 'temperature', 'top_p', 'top_k']);
const KNOWN_BLOCK = new Set(['type', 'text', 'source', 'id', 'name', 'input', 'tool_use_id', 'content', 'is_error', 'cache_control', 'thinking', 'signature', 'data', 'citations', 'title']);
const KNOWN_MESSAGE = new Set(['role', 'content']);
const KNOWN_TOOL = new Set(['name', 'description', 'input_schema', 'type', 'cache_control']);

function dropUnknown(b: Json): Json {
  for (const k of Object.keys(b)) if (!KNOWN_TOP.has(k)) delete b[k];
  const blocks = (c: Json) => Array.isArray(c) && c.forEach((x) => x && typeof x === 'object' && Object.keys(x).forEach((k) => !KNOWN_BLOCK.has(k) && delete x[k]));
  if (Array.isArray(b.messages))
    for (const m of b.messages) {
      if (m && typeof m === 'object') for (const k of Object.keys(m)) if (!KNOWN_MESSAGE.has(k)) delete m[k];
      blocks(m?.content);
    }
  blocks(b.system);
  if (Array.isArray(b.tools)) for (const t of b.tools) if (t && typeof t === 'object') for (const k of Object.keys(t)) if (!KNOWN_TOOL.has(k)) delete t[k];
  return b;
}

function dedupe(list: Json[]): Json[] {
  const out: Json[] = [];
  for (const x of list) if (!out.length || JSON.stringify(out[out.length - 1]) !== JSON.stringify(x)) out.push(x);
  return out;
}

function setHeader(r: RequestParts, name: string, value: string | null) {
  r.headers = r.headers.filter(([k]) => k.toLowerCase() !== name);
  if (value !== null) r.headers.push([name, value]);
}

const ALLOWED_BETAS = ['claude-code-20250219', 'interleaved-thinking-2025-05-14', 'fine-grained-tool-streaming-2025-05-14'];

/** The stop reasons a gateway written before the newer ones knows; it answers any other as end_turn. */
const OLD_STOPS = new Set(['end_turn', 'max_tokens', 'stop_sequence', 'tool_use']);
const oldStop = (s: Json) => (typeof s === 'string' && !OLD_STOPS.has(s) ? 'end_turn' : s);

/** A message_delta frame with its stop reason narrowed to the old ones; any other frame as it is. */
function oldStopFrame(frame: string): string {
  const m = /^(event: message_delta\r?\ndata: )(.*)(\r?\n\r?\n)$/s.exec(frame);
  if (!m) return frame;
  const data = JSON.parse(m[2]);
  // A frame whose stop reason the gateway knows goes on byte for byte.
  if (!data?.delta || oldStop(data.delta.stop_reason) === data.delta.stop_reason) return frame;
  data.delta.stop_reason = oldStop(data.delta.stop_reason);
  return `${m[1]}${JSON.stringify(data)}${m[3]}`;
}

export const MESSAGES_FAULTS: Fault[] = [
  {
    name: 'stop-reasons-to-end-turn',
    breaks: ['MSG-STOP-1'],
    description: 'answers every stop_reason but end_turn, max_tokens, stop_sequence and tool_use as end_turn (refusal, pause_turn and model_context_window_exceeded among them), JSON and streamed',
    responseJson(body) {
      if (body?.type === 'message') body.stop_reason = oldStop(body.stop_reason);
      return body;
    },
    stream: onStreams(() => new PerFrame(oldStopFrame)),
  },
  {
    name: 'reserialize-body',
    breaks: ['MSG-BODY-2', 'MSG-BODY-1'],
    description: 'parses and re-serialises the JSON body (JSON.parse/JSON.stringify): whitespace, escapes and number forms change, integers past 2^53 are rounded',
    request: rewriteBody((b) => b),
  },
  {
    name: 'false-gzip-json',
    breaks: ['MSG-RESP-1'],
    description: 'labels JSON messages answers `content-encoding: gzip` without compressing them (a misconfigured compression filter): no client can read them',
    responseWhen: (r) => /^\/v1\/messages(\?|$)/.test(r.path) && !/"stream"\s*:\s*true/.test(r.body.toString('latin1', 0, Math.min(r.body.length, 65536))),
    response: (status, headers, body) => {
      if (!/json/i.test(String(headers['content-type'] ?? ''))) return null;
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(headers)) if (v !== undefined && !['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(k)) out[k] = Array.isArray(v) ? v.join(', ') : v;
      return { status, headers: { ...out, 'content-encoding': 'gzip' }, body };
    },
  },
  { name: 'sort-keys', breaks: ['MSG-BODY-1'], description: 'sorts object keys before forwarding', request: rewriteBody(sortKeys) },
  { name: 'drop-unknown-fields', breaks: ['MSG-BODY-3'], description: 'drops fields it does not know at the top level and in messages, blocks and tools', request: rewriteBody(dropUnknown) },
  {
    name: 'strip-cache-control',
    breaks: ['MSG-CACHE-1'],
    description: 'removes every cache_control object',
    request: rewriteBody((b) => walk(b, (o) => delete o.cache_control)),
  },
  {
    name: 'prepend-system-block',
    breaks: ['MSG-SYS-2'],
    description: 'inserts its own text block at the start of system',
    request: rewriteBody((b) => {
      const own = { type: 'text', text: 'You are reached through the Example Gateway.' };
      b.system = b.system === undefined ? [own] : typeof b.system === 'string' ? [own, { type: 'text', text: b.system }] : [own, ...b.system];
      return b;
    }),
  },
  {
    name: 'flatten-system',
    breaks: ['MSG-SYS-1'],
    description: 'joins a system block array into one string',
    request: rewriteBody((b) => {
      if (Array.isArray(b.system)) b.system = b.system.map((x: Json) => x?.text ?? '').join('\n');
      return b;
    }),
  },
  {
    name: 'dedupe-blocks',
    breaks: ['MSG-BODY-4'],
    description: 'removes adjacent duplicate messages and content blocks',
    request: rewriteBody((b) => {
      if (Array.isArray(b.messages)) {
        b.messages = dedupe(b.messages);
        for (const m of b.messages) if (Array.isArray(m?.content)) m.content = dedupe(m.content);
      }
      return b;
    }),
  },
  { name: 'drop-anthropic-beta', breaks: ['MSG-HDR-2', 'MSG-HDR-3'], description: 'removes the anthropic-beta header', request: (r) => setHeader(r, 'anthropic-beta', null) },
  {
    name: 'allowlist-anthropic-beta',
    breaks: ['MSG-HDR-2'],
    description: `keeps only the beta values it knows (${ALLOWED_BETAS.join(', ')})`,
    request: (r) => {
      const v = r.headers.filter(([k]) => k.toLowerCase() === 'anthropic-beta').flatMap(([, x]) => x.split(','));
      const kept = v.map((s) => s.trim()).filter((s) => ALLOWED_BETAS.includes(s));
      setHeader(r, 'anthropic-beta', kept.length ? kept.join(',') : null);
    },
  },
  { name: 'force-anthropic-version', breaks: ['MSG-HDR-1'], description: 'forces anthropic-version to 2023-01-01', request: (r) => setHeader(r, 'anthropic-version', '2023-01-01') },
  {
    name: 'double-v1-path',
    breaks: ['MSG-PATH-1'],
    description: 'joins a base URL ending in /v1 with the request path: /v1/v1/messages',
    request: (r) => {
      if (r.path.startsWith('/v1/')) r.path = `/v1${r.path}`;
    },
  },
  {
    name: 'strip-cache-usage',
    breaks: ['MSG-USAGE-1'],
    description: 'drops cache_creation_input_tokens, cache_read_input_tokens and cache_creation from JSON responses',
    responseJson: (b) => {
      if (b?.usage) for (const k of ['cache_creation_input_tokens', 'cache_read_input_tokens', 'cache_creation']) delete b.usage[k];
      return b;
    },
  },
  {
    name: 'add-cost-field',
    breaks: ['MSG-RESP-1'],
    description: "adds its own usage.cost field to JSON responses (the upstream's fields stay as they were)",
    responseJson: (b) => {
      if (b?.usage) b.usage.cost = 0.0123;
      return b;
    },
  },
  {
    name: 'fabricate-cache-read',
    breaks: ['MSG-USAGE-2'],
    description: 'reports most input tokens as cache reads, whatever the upstream said',
    responseJson: (b) => {
      if (b?.usage && typeof b.usage.input_tokens === 'number') b.usage.cache_read_input_tokens = Math.max(1, Math.floor(b.usage.input_tokens * 0.9));
      return b;
    },
  },
  {
    name: 'substitute-model',
    breaks: ['MSG-MODEL-1'],
    description: 'silently replaces the requested model with a cheaper one',
    request: rewriteBody((b) => {
      if (typeof b.model === 'string') b.model = 'claude-3-5-haiku-20241022';
      return b;
    }),
  },
  {
    name: 'drop-credential',
    breaks: ['MSG-AUTH-1', 'AUTH-UP-1'],
    description: 'forwards requests with no credential (neither authorization nor x-api-key)',
    request: (r) => {
      setHeader(r, 'authorization', null);
      setHeader(r, 'x-api-key', null);
    },
  },
  {
    name: 'html-errors',
    breaks: ['MSG-RESP-2'],
    description: 'replaces upstream error responses with an HTML error page',
    // Error pages replace answers to plain requests; streams (asked in the body, or a stream route such as Bedrock's) are passed on unbuffered.
    responseWhen: (r) => !/"stream"\s*:\s*true/.test(r.body.toString('utf8')) && routeOfRequest(r.method, r.path, r.headers)?.route !== 'stream',
    response: (status) =>
      status >= 400
        ? { status, headers: { 'content-type': 'text/html' }, body: Buffer.from(`<html><head><title>${status} Error</title></head><body><h1>${status} Error</h1><hr><center>example-gateway</center></body></html>\n`) }
        : null,
  },
];
