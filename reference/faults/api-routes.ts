// Faults on the routes beyond inference (the records' apiRoutes), as the field reports of issue 45
// found them: a route table that knows only POST /v1/responses (compaction and stored responses
// answered 404), a stream filter that drops output items of a type it does not know, OpenAI's
// files route catching the messages protocol's upload, batch lookups that turn the upstream's 404
// into a 500, Codex's catalog rewritten into OpenAI's list, a passthrough that forwards only the
// headers it knows, and a key pool that sends a conversation's continuation under another account.
import type http from 'node:http';
import { apiRouteOf, type ApiRouteName, type Protocol } from '../../src/protocols/index.js';
import type { Fault, Json, Replacement, RequestParts } from './types.js';
import { isOn } from './routes.js';
import { FrameData } from './protocols.js';
import { isEventStream } from './streaming.js';

/** Whether `r` is on protocol `p`'s route beyond inference `name`. */
const onRoute = (r: RequestParts, p: Protocol, name: ApiRouteName) => {
  const at = apiRouteOf(r.method, r.path, r.headers);
  return at !== null && at.protocol === p && at.route === name;
};

/** The gateway's own JSON answer, in OpenAI's error shape (these gateways front OpenAI). */
function own(res: http.ServerResponse, status: number, message: string, type = 'invalid_request_error'): true {
  const body = JSON.stringify({ error: { message, type, param: null, code: null } });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
  return true;
}

const json = (body: Json, status: number): Replacement => ({ status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) });

/** A batch route whose upstream 404 the gateway answers as a 500 of its own. */
function batch404As500(name: string, p: Protocol, id: string, what: string): Fault {
  return {
    name,
    breaks: [id],
    description: `answers the upstream's 404 for an unknown ${what} as a 500 of its own (it looks the batch up in its store and fails on the miss)`,
    responseWhen: (r, status) => onRoute(r, p, 'batch') && status === 404,
    response: () => json({ error: { message: 'Internal server error', type: 'api_error', param: null, code: null } }, 500),
  };
}

/** An item of a type this filter does not know (the compaction item). */
const unknownItem = (data: string) => {
  try {
    const v = JSON.parse(data) as { type?: string; item?: { type?: string } };
    return /^response\.output_item\.(added|done)$/.test(v.type ?? '') && !['message', 'function_call', 'reasoning'].includes(v.item?.type ?? '');
  } catch {
    return false;
  }
};

/** Codex's catalog ({"models": [...]}) as OpenAI's model list. */
function asOpenAiList(body: Buffer): Buffer | null {
  try {
    const v = JSON.parse(body.toString('utf8')) as { models?: Array<{ slug?: string }> };
    if (!Array.isArray(v.models)) return null;
    return Buffer.from(JSON.stringify({ object: 'list', data: v.models.map((m) => ({ id: m.slug, object: 'model', created: 1730000000, owned_by: 'openai' })) }));
  } catch {
    return null;
  }
}

/** The headers a passthrough with a fixed list forwards: not Codex's own. */
const CLIENT_HEADER = /^(session[_-]id|thread-id|originator|x-client-request-id|x-codex-.*)$/i;

/** Whether a Responses request continues an earlier response (names its previous_response_id). */
const continues = (r: RequestParts) => /"previous_response_id"\s*:\s*"/.test(r.body.toString('utf8'));

/**
 * A pool of two upstream keys assigned by the request alone, with no affinity: a request that
 * starts a conversation gets the first key, one that continues an earlier response the second
 * (the same pair every time, whatever else is in flight).
 */
const KEY_POOL_ROTATES: Fault = {
  name: 'resp-key-pool-rotates',
  breaks: ['RESP-STATE-2'],
  description: 'sends /v1/responses requests under a pool of two upstream keys assigned per request with no affinity (a new conversation under the first, a continuation naming its previous_response_id under the second): the continuation, and the reasoning item it sends back, reach the upstream under an account that did not seal them',
  request: (r) => {
    if (!isOn(r, 'responses', 'generate')) return;
    r.headers = r.headers.filter(([k]) => !/^(authorization|x-api-key)$/i.test(k));
    r.headers.push(['authorization', `Bearer sk-gateway-pool-key-${continues(r) ? 2 : 1}-0000000000000000`]);
  },
};

export const API_ROUTE_FAULTS: Fault[] = [
  {
    name: 'resp-compact-404',
    breaks: ['RESP-COMPACT-1'],
    description: 'answers POST /v1/responses/compact 404 itself (a route table that knows only POST /v1/responses): Codex reports "high demand" and stops compacting',
    intercept: (r, res) => onRoute(r, 'responses', 'compact') && own(res, 404, `Invalid URL (POST ${r.path.split('?')[0]})`),
  },
  {
    name: 'resp-drop-compaction-item',
    breaks: ['RESP-COMPACT-2'],
    description: 'drops response.output_item.added and .done events whose item is of a type it does not know (message, function_call and reasoning only): a streamed compaction item is lost, while response.completed (its output empty) passes',
    stream: (r, _s, h) => (isOn(r, 'responses', 'generate') && isEventStream(h) ? { headers: h, transform: new FrameData((d) => (unknownItem(d) ? null : d)) } : null),
  },
  {
    name: 'resp-stored-routes-404',
    breaks: ['RESP-STATE-1'],
    description: 'answers GET /v1/responses/{id} and POST /v1/responses/{id}/cancel 404 itself (its routes stop at POST /v1/responses)',
    intercept: (r, res) => (onRoute(r, 'responses', 'stored-response') || onRoute(r, 'responses', 'cancel-response')) && own(res, 404, `Invalid URL (${r.method} ${r.path.split('?')[0]})`),
  },
  {
    name: 'files-caught-by-openai-route',
    breaks: ['FILES-1'],
    description: "takes every POST /v1/files for OpenAI's files upload and refuses the messages protocol's, which has no `purpose` field: 400 \"Missing required parameter: 'purpose'\"",
    intercept: (r, res) => onRoute(r, 'messages', 'files') && own(res, 400, "Missing required parameter: 'purpose'."),
  },
  batch404As500('messages-batch-404-as-500', 'messages', 'BATCH-1', 'message batch (GET /v1/messages/batches/{id})'),
  batch404As500('openai-batch-404-as-500', 'chat', 'BATCH-2', 'OpenAI batch (GET /v1/batches/{id})'),
  {
    name: 'codex-catalog-as-openai-list',
    breaks: ['DISC-CODEX-1'],
    description: "rewrites the upstream's answer to Codex's catalog request (GET /v1/models?client_version=...) into OpenAI's model list ({\"object\": \"list\", \"data\": [...]}): Codex finds no `models` and its picker stays empty",
    responseWhen: (r, status) => onRoute(r, 'responses', 'client-catalog') && status === 200,
    response: (status, _h, body) => {
      const list = asOpenAiList(body);
      return list ? { status, headers: { 'content-type': 'application/json' }, body: list } : null;
    },
  },
  {
    name: 'resp-drop-client-headers',
    breaks: ['RESP-HDR-1'],
    description: 'forwards /v1/responses without the client-identifying headers (session_id, session-id, thread-id, originator, x-client-request-id, x-codex-*): a passthrough with a fixed list of headers it knows',
    request: (r) => {
      if (isOn(r, 'responses', 'generate')) r.headers = r.headers.filter(([k]) => !CLIENT_HEADER.test(k));
    },
  },
  KEY_POOL_ROTATES,
];
