// The recording upstream's reply in the protocol and route a request arrived on: a request on
// another protocol's path than its script's is answered in that protocol (a translating gateway),
// a route beyond inference plays its own bodies, and a stream the API sends without SSE framing
// loses its framing. What the request was, and what it was answered in, is recorded for the checks.
import type { RecordedRequest } from '../../src/upstream/record.js';
import type { Reply } from '../../src/upstream/scenario.js';
import { apiRouteOf, RECORDS, routeOfRequest, translateReply } from '../../src/protocols/index.js';

/**
 * The reply in the protocol the request arrived in (translate.ts): the request's protocol and
 * route, and the protocol answered in, are recorded for the checks and the report's routes.
 */
export function answerIn(reply: Reply, rec: RecordedRequest, headers: Array<[string, string]>): Reply {
  const api = apiRouteOf(rec.method, rec.url, headers);
  if (api) return answerBeyond(reply, rec, api);
  const at = routeOfRequest(rec.method, rec.url, headers);
  if (at) {
    rec.protocol = at.protocol;
    rec.route = at.route;
  }
  const scripted = reply.kind === 'json' || reply.kind === 'sse' ? reply.protocol : undefined;
  // Only a request on another protocol's path than the script's is looked into, its body parsed
  // once (and not at all when only its first part was kept). A body that is not that path's
  // protocol's request (a native body sent to the chat path) is a request sent to the wrong place,
  // not a translation.
  const other = at && scripted && scripted !== at.protocol;
  const meaning = other && at.route !== 'models' && !rec.bodyTruncated ? RECORDS[at.protocol].readRequest(rec.url, rec.body.toString('utf8')) : undefined;
  const crossed = other && (at.route === 'models' || rec.bodyTruncated || meaning !== null);
  rec.routedAs = crossed ? at.protocol : scripted;
  const rendered = crossed ? translateReply(reply, { ...at, stream: at.route === 'stream' || meaning?.stream === true }) : null;
  rec.answeredIn = rendered && at ? at.protocol : scripted;
  if (rendered?.kind === 'sse' && rendered.from) rec.framesFrom = rendered.from;
  return unframed(rendered ?? reply, rec, at);
}

/**
 * A route beyond inference (compaction, a stored response, files, a batch, Codex's catalog): its
 * bodies are the route's own and are played as scripted; an error scripted in another protocol
 * is written in the route's, as the API the request is addressed to writes its errors.
 */
function answerBeyond(reply: Reply, rec: RecordedRequest, api: NonNullable<ReturnType<typeof apiRouteOf>>): Reply {
  rec.protocol = api.protocol;
  rec.apiRoute = api.route;
  const scripted = reply.kind === 'json' || reply.kind === 'sse' ? reply.protocol : undefined;
  const error = reply.kind === 'json' && reply.status >= 400 ? translateReply(reply, { protocol: api.protocol, route: 'generate', stream: false }) : null;
  rec.routedAs = api.protocol;
  rec.answeredIn = error ? api.protocol : scripted;
  return error ?? reply;
}

/** A stream the API answers without SSE framing where the request asked so (RECORDS' unframedStream): the frames' timing kept, their texts replaced. */
function unframed(reply: Reply, rec: RecordedRequest, at: ReturnType<typeof routeOfRequest>): Reply {
  if (reply.kind !== 'sse' || !at || at.route !== 'stream' || reply.protocol !== at.protocol || reply.status !== 200) return reply;
  const plain = RECORDS[at.protocol].unframedStream?.(rec.url, reply.frames.map((f) => f.data));
  if (!plain) return reply;
  const frames = plain.texts.map((data, i) => ({ gapMs: reply.frames[i]?.gapMs ?? 0, data }));
  const own = new Set(plain.headers.map(([k]) => k.toLowerCase()));
  return { ...reply, headers: [...plain.headers, ...reply.headers.filter(([k]) => !own.has(k.toLowerCase()))], frames };
}
