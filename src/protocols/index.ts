// The protocol module: one folder per protocol (src/protocols/<name>/: its record, its wire
// bodies, its index), listed in registry.ts, and what every layer asks of them: the protocol a
// request belongs to, its minimal request, its default credential and model, the features it
// offers, the record type and the readers the records share. Code outside this folder imports
// this file or a protocol's own index.ts, never the files beside them.
import { PROTOCOLS, type AuthStyle, type Protocol } from '../core/protocols.js';
import type { Capability } from '../core/capabilities.js';
import type { HeaderList } from '../upstream/scenario.js';
import type { ApiRouteName, MinimalRequest, MinimalRequestOptions, ProtocolRecord, RouteKind } from './record.js';
import { RECORDS } from './registry.js';

export type { Answer, ApiRoute, ApiRouteName, ErrorMeaning, ListedModel, MinimalRequest, MinimalRequestOptions, ProtocolRecord, ReplyCodec, RequestMeaning, RouteKind, StopReason, StreamStep, ToolCall, Usage } from './record.js';
export { framesOf, isCommentFrame, jsonReply, mergedTurns, setParams } from './record.js';
export { arr, decodedPath, num, obj, parseJson, str, type Json } from './read.js';
export { streamedAnswer, translateReply, type Arrival } from './translate.js';
export { RECORDS } from './registry.js';
export { ANTHROPIC_VERSION, MESSAGES_PATH, messagesHeaders } from './messages/index.js';
export { CHAT_PATH } from './chat/index.js';
export { nativeGenerateOf, nativePath } from './native/index.js';
export { RESPONSES_PATH, RESPONSES_COUNT_PATH } from './responses/index.js';
export { PROTOCOLS, CREDENTIAL_STYLES, type AuthStyle, type Protocol } from '../core/protocols.js';

const each = <T>(f: (r: ProtocolRecord) => T) => Object.fromEntries(PROTOCOLS.map((p) => [p, f(RECORDS[p])])) as Record<Protocol, T>;

/** The credential style each protocol's own clients use (Claude Code and OpenAI SDKs a bearer token, Gemini SDKs `x-goog-api-key`). */
export const DEFAULT_CREDENTIAL: Record<Protocol, AuthStyle> = each((r) => r.defaultCredential);
/** The model each protocol's minimal request names (any model the recording upstream answers). */
export const DEFAULT_MODEL: Record<Protocol, string> = each((r) => r.defaultModel);
/** The capability-matrix features each protocol offers (the capability checks probe these). */
export const FEATURES_OF: Record<Protocol, readonly Capability[]> = each((r) => r.features);

/** The smallest request of a protocol: one user message, the protocol's default credential style. */
export function minimalRequest(p: Protocol, o: MinimalRequestOptions): MinimalRequest {
  return RECORDS[p].minimalRequest(o);
}

/** A request's protocol and route, as the upstream sees it (prefix removed); null when no protocol has that path. */
export function routeOfRequest(method: string, url: string, headers: HeaderList): { protocol: Protocol; route: RouteKind } | null {
  for (const protocol of PROTOCOLS) {
    const route = RECORDS[protocol].routeOf(method, url, headers);
    if (route) return { protocol, route };
  }
  return null;
}

/**
 * A request's route beyond inference (the records' apiRoutes: compaction, stored responses,
 * files, batches, Codex's catalog), in the order of PROTOCOLS; null when it is none. With
 * `headers` null the header a route needs is not asked for (a path the client is about to send).
 */
export function apiRouteOf(method: string, url: string, headers: HeaderList | null): { protocol: Protocol; route: ApiRouteName } | null {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? null : new URLSearchParams(url.slice(q + 1));
  for (const protocol of PROTOCOLS) {
    for (const r of RECORDS[protocol].apiRoutes ?? []) {
      if (r.method !== method || !r.path.test(path)) continue;
      if (r.query && !query?.has(r.query)) continue;
      if (r.header && headers && !headers.some(([k]) => k.toLowerCase() === r.header)) continue;
      return { protocol, route: r.name };
    }
  }
  return null;
}

/** A path of protocol `p`'s route beyond inference `name` (naming `id` where it names one); throws when the protocol has no such route (a harness bug). */
export function apiPath(p: Protocol, name: ApiRouteName, id = ''): string {
  const r = RECORDS[p].apiRoutes?.find((x) => x.name === name);
  if (!r) throw new Error(`harness bug: the ${p} protocol has no ${name} route`);
  return r.example(id);
}

/**
 * The protocol a request path the client sends belongs to, for its targeting (base path,
 * headers, credential). Paths of no protocol's route (the root, a probe) and the model list
 * (whose path chat shares) are the messages protocol's, as the client sends discovery with it.
 */
export function protocolOfPath(path: string): Protocol {
  const found = routeOfRequest('POST', path, []);
  if (found && found.route !== 'models') return found.protocol;
  const api = apiRouteOf('POST', path, null) ?? apiRouteOf('GET', path, null);
  return api ? api.protocol : path.startsWith('/v1beta/') ? 'native' : 'messages';
}

/** The protocol whose generate or stream route a forwarded URL is, after any prefix the gateway put before it, or 'other'. */
export function pathFamily(url: string): Protocol | 'other' {
  const path = url.split('?')[0];
  for (let at = 0; at >= 0 && at < path.length; at = path.indexOf('/', at + 1)) {
    const found = routeOfRequest('POST', path.slice(at), []);
    if (found && (found.route === 'generate' || found.route === 'stream')) return found.protocol;
  }
  return 'other';
}
