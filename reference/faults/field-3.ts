// Faults of the third round rebuilt from field reports against gateways: a translation that adds
// content the upstream never sent (an empty made-up web search on every answer whose chat
// message carries `annotations`); count_tokens answered by the gateway itself, counted locally;
// and a control: a shared cache of model lists keyed on the whole request, credentials and all,
// which breaks nothing (a check must not take one credential's cached answer for another's); a
// gateway that waits for the stream a request asked for when the upstream answers it in JSON.
import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { routeOfRequest } from '../../src/protocols/index.js';
import type { Fault, RequestParts } from './types.js';
import { responseCache } from './cache.js';
import { answer } from './routes.js';

/** The key of a cache that knows the credential headers: method, path with query, Authorization, x-api-key and x-goog-api-key, the body. */
function wholeRequestKey(r: RequestParts): string {
  const headers = r.headers.filter(([k]) => /^(authorization|x-api-key|x-goog-api-key)$/i.test(k)).map(([k, v]) => `${k.toLowerCase()}:${v}`);
  return `${r.method} ${r.path}\n${headers.sort().join('\n')}\n${createHash('sha256').update(r.body).digest('hex')}`;
}

/** cache-keyed-on-credentials with a cache of its own (Fault.fresh): model lists the upstream marks cacheable, per whole request. */
function cacheKeyedOnCredentials(): Fault {
  const models = (r: RequestParts) => r.method === 'GET' && routeOfRequest(r.method, r.path, r.headers)?.route === 'models';
  return {
    name: 'cache-keyed-on-credentials',
    breaks: [],
    description: 'a control: keeps model lists the upstream marks cacheable (max-age) in a shared cache keyed on the method, the path with its query and every credential header (Authorization, x-api-key, x-goog-api-key), so a request is answered from the cache only when it is the same request with the same credential (or the same lack of one)',
    ...responseCache({ when: models, store: () => true, key: wholeRequestKey }),
    fresh: cacheKeyedOnCredentials,
  };
}

/** A request body that asks for a stream. */
const asksForStream = (r: RequestParts) => /"stream"\s*:\s*true/.test(r.body.toString('utf8'));

/** Takes the upstream's bytes and never passes them on nor ends: a reader waiting for stream events that never come. */
const waitingForEvents = () => new Transform({ transform: (_c, _e, done) => done(), flush: () => undefined });

/** The model a messages request names, when it is one. */
function messagesModel(r: RequestParts): string | null {
  if (r.method !== 'POST' || routeOfRequest(r.method, r.path, r.headers)?.protocol !== 'messages') return null;
  try {
    const m = (JSON.parse(r.body.toString('utf8')) as { model?: unknown }).model;
    return typeof m === 'string' ? m : null;
  } catch {
    return null;
  }
}

/** The gateway's own key, which a gateway that swaps credentials sends upstream in the client's place. */
const OWN_KEY = 'sk-gateway-own-upstream-key-000000000000';

/** Takes every credential off a request and puts the gateway's own key in, in the style of its route's protocol (Bearer for chat and Responses, x-api-key otherwise). */
function ownKey(r: RequestParts): void {
  const protocol = routeOfRequest(r.method, r.path, r.headers)?.protocol;
  r.headers = r.headers.filter(([k]) => !/^(authorization|x-api-key|x-goog-api-key|api-key)$/i.test(k));
  r.headers.push(protocol === 'chat' || protocol === 'responses' ? ['authorization', `Bearer ${OWN_KEY}`] : ['x-api-key', OWN_KEY]);
}

/** A messages stream event split in two where it is a text delta of two characters or more (the halves' texts joined are the event's); any other event as it came. */
function splitDelta(frame: string): string {
  const data = /^data: (.*)$/m.exec(frame)?.[1];
  let v: { type?: string; delta?: { type?: string; text?: string } } | undefined;
  try {
    v = data ? JSON.parse(data) : undefined;
  } catch {
    return frame;
  }
  const text = v?.type === 'content_block_delta' && v.delta?.type === 'text_delta' ? v.delta.text : undefined;
  if (!v || typeof text !== 'string' || text.length < 2) return frame;
  const half = Math.ceil(text.length / 2);
  const event = (t: string) => `event: content_block_delta\ndata: ${JSON.stringify({ ...v, delta: { ...v!.delta, text: t } })}\n\n`;
  return event(text.slice(0, half)) + event(text.slice(half));
}

/** Re-frames a stream event by event (frames end in a blank line), splitting each text delta in two. */
function splittingDeltas(): Transform {
  let held = '';
  return new Transform({
    transform(chunk: Buffer, _e, done) {
      held += chunk.toString('utf8');
      const frames = held.split('\n\n');
      held = frames.pop() ?? '';
      done(null, frames.map((f) => splitDelta(`${f}\n\n`)).join(''));
    },
    flush(done) {
      done(null, held);
    },
  });
}

/** cut-stream-clean-end-alternate with a count of its own (Fault.fresh): every other upstream cut reaches the client as a clean end. */
function cutCleanEndAlternate(): Fault {
  let cuts = 0;
  return {
    name: 'cut-stream-clean-end-alternate',
    breaks: ['SSE-CUT-1'],
    description: "ends the client's stream cleanly on every other upstream stream that breaks off before its end (the first, third, fifth…), and breaks the others off: a proxy whose race between the upstream's close and its own last write goes one way or the other",
    upstreamCut: (res) => {
      if (res.destroyed || res.writableEnded) return;
      if (++cuts % 2 === 1) res.end();
      else res.destroy();
    },
    fresh: cutCleanEndAlternate,
  };
}

/** A local estimate of a count_tokens request's prompt: about four characters a token. */
const estimate = (body: Buffer) => Math.max(1, Math.round(body.length / 4));

export const FIELD_3_FAULTS: Fault[] = [
  {
    name: 'translate-invents-web-search',
    breaks: ['XLATE-ANS-1'],
    description: 'translates messages into chat completions, and maps an answer whose chat message carries `annotations: []` back with an empty made-up web search before its text (a server_tool_use block and a web_search_tool_result block with no results)',
    translate: { inventsWebSearch: true },
  },
  cacheKeyedOnCredentials(),
  {
    name: 'stream-waits-for-events',
    breaks: [],
    description: 'a control: a request that asks for a stream and is answered 200 in JSON gets the headers and then nothing more: the gateway waits for the stream events it was promised (a gateway may rely on the upstream answering in the shape asked for)',
    stream: (r, status, headers) => {
      const json = headers.some(([k, v]) => k.toLowerCase() === 'content-type' && /json/i.test(v));
      return status === 200 && json && asksForStream(r) ? { headers: headers.filter(([k]) => k.toLowerCase() !== 'content-length'), transform: waitingForEvents() } : null;
    },
  },
  {
    name: 'unknown-model-local-400',
    breaks: [],
    description: "a control: knows its models, and answers a messages request for a model it does not know (a name with `gwc` in it) with a JSON 400 invalid_request_error of its own, forwarding nothing (allowed: a gateway may refuse a model it does not serve)",
    intercept: (r, res) => {
      const model = messagesModel(r);
      if (!model || !/gwc/.test(model)) return false;
      return answer(res, 400, 'application/json', JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: `model ${model} is not served by this gateway` } }));
    },
  },
  {
    name: 'chat-own-key',
    breaks: ['ERR-AUTH-1', 'CHAT-AUTH-1'],
    description: "forwards chat-completions requests under a key of its own in the client's place (the client's Authorization dropped), whatever key the client sent",
    request: (r) => void (routeOfRequest(r.method, r.path, r.headers)?.protocol === 'chat' && ownKey(r)),
  },
  {
    name: 'own-key-no-token',
    breaks: [],
    description: "a control, run with --no-token: takes no client credential, drops any the client sends and forwards every request under a key of its own (a gateway that holds the upstream's key)",
    request: ownKey,
  },
  {
    name: 'translate-error-with-stack',
    breaks: ['XLATE-ERR-1'],
    description: 'translates messages into chat completions, and answers every upstream error with its status in a body of its own: `{"error":{"type":"Error","message":…,"stack":…}}` (no top-level type, a stack trace)',
    translate: { errorWithStack: true },
  },
  {
    name: 'large-body-413-string-error',
    breaks: ['MSG-RESP-2'],
    description: "refuses request bodies over 1 MiB with its web framework's own 413, a JSON body whose `error` is a string: `{\"error\":\"request entity too large\"}`",
    intercept: (r, res) => {
      if (r.body.length <= 1024 * 1024) return false;
      const body = JSON.stringify({ error: 'request entity too large' });
      res.writeHead(413, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
      res.end(body);
      return true;
    },
  },
  {
    name: 'translate-drops-retry-after-413',
    breaks: ['ERR-PASS-2'],
    description: "translates messages into chat completions, drops retry-after and retry-after-ms from the upstream's errors, and refuses request bodies over 1 MiB with its web framework's own 413 page (text/html), which errors.body.large judges on translated routes too",
    translate: { dropRetryAfter: true },
    intercept: (r, res) => {
      if (r.body.length <= 1024 * 1024) return false;
      const body = '<!DOCTYPE html><html><body><pre>PayloadTooLargeError: request entity too large</pre></body></html>';
      res.writeHead(413, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) });
      res.end(body);
      return true;
    },
  },
  {
    name: 'split-text-deltas',
    breaks: ['SSE-FRAME-1'],
    description: 'splits every text delta of a messages stream into two content_block_delta events (the text kept whole and in order), so the client gets more events than the upstream sent and none pairs with its upstream event by position',
    stream: (r, status, headers) =>
      status === 200 && routeOfRequest(r.method, r.path, r.headers)?.protocol === 'messages' && headers.some(([k, v]) => k.toLowerCase() === 'content-type' && /event-stream/.test(v))
        ? { headers: headers.filter(([k]) => k.toLowerCase() !== 'content-length'), transform: splittingDeltas() }
        : null,
  },
  cutCleanEndAlternate(),
  {
    name: 'count-tokens-local',
    breaks: ['MSG-CT-1'],
    description: 'answers POST /v1/messages/count_tokens itself with a count of its own (about four characters a token), never asking the upstream',
    intercept: (r, res) => {
      const at = routeOfRequest(r.method, r.path, r.headers);
      if (at?.protocol !== 'messages' || at.route !== 'count') return false;
      const body = JSON.stringify({ input_tokens: estimate(r.body) });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
      res.end(body);
      return true;
    },
  },
];
