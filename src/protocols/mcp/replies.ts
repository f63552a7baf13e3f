// The MCP protocol's wire (Model Context Protocol over Streamable HTTP): the endpoint and its
// headers, the OAuth discovery routes, JSON-RPC messages as text, and an SSE frame carrying one.
// Written from the MCP specification's meaning (transports, authorization), in our own words.
import type { HeaderList } from '../../upstream/scenario.js';

/** The one endpoint MCP's Streamable HTTP serves: POST (messages), GET (the server's stream), DELETE (end the session). */
export const MCP_PATH = '/mcp';
/** The session the server names in its answer to initialize; the client sends it back on every later request. */
export const MCP_SESSION_HEADER = 'mcp-session-id';
/** The protocol revision the client negotiated, on every request after initialize. */
export const MCP_VERSION_HEADER = 'mcp-protocol-version';
/** The last event a client saw on a broken stream: the server replays what came after it. */
export const LAST_EVENT_ID_HEADER = 'last-event-id';
/** The revision the harness's client asks for (one the official SDK serves). */
export const MCP_PROTOCOL_VERSION = '2025-06-18';
/** What an MCP client accepts on a POST: a JSON answer or an event stream. */
export const MCP_ACCEPT = 'application/json, text/event-stream';
/** The OAuth protected-resource metadata route (RFC 9728) of the endpoint, and the authorization server's (RFC 8414). */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';
export const AUTH_SERVER_PATH = '/.well-known/oauth-authorization-server';

export const MCP_JSON_HEADERS: HeaderList = [['content-type', 'application/json']];
export const MCP_SSE_HEADERS: HeaderList = [
  ['content-type', 'text/event-stream'],
  ['cache-control', 'no-cache'],
];

/** The headers a client sends on a POST after initialize (the session's and the version's when given). */
export function mcpHeaders(o: { session?: string; version?: string | null } = {}): Array<[string, string]> {
  const h: Array<[string, string]> = [
    ['content-type', 'application/json'],
    ['accept', MCP_ACCEPT],
  ];
  if (o.session) h.push([MCP_SESSION_HEADER, o.session]);
  if (o.version !== null) h.push([MCP_VERSION_HEADER, o.version ?? MCP_PROTOCOL_VERSION]);
  return h;
}

/** A JSON-RPC request (`id` given) or notification (`id` undefined) as text. */
export function rpc(method: string, params: Record<string, unknown> | undefined, id?: number | string): string {
  return JSON.stringify({ jsonrpc: '2.0', ...(id !== undefined ? { id } : {}), method, ...(params ? { params } : {}) });
}

/** An initialize request; `text` goes in the request's `_meta` (where the case token travels). */
export function initializeBody(text: string, id: number | string = 1): string {
  return rpc('initialize', { protocolVersion: MCP_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'gw-conformance', version: '0.1.0' }, _meta: { 'gw-conformance/case': text } }, id);
}

/** A JSON-RPC result as text. */
export const rpcResult = (id: number | string | null, result: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result });
/** A JSON-RPC error as text. */
export const rpcError = (id: number | string | null, code: number, message: string) => JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });

/** One SSE frame carrying one JSON-RPC message (the `message` event, an id when given). */
export const messageFrame = (json: string, id?: string) => `${id !== undefined ? `id: ${id}\n` : ''}event: message\ndata: ${json}\n\n`;

/** The scripted server's error code for its failing tool (a server-defined JSON-RPC code). */
export const MCP_FAIL_CODE = -32050;
/** The scripted server's resource and prompt. */
export const MCP_RESOURCE_URI = 'gwc://note';
export const MCP_PROMPT = 'greet';

/** The large tool's text: `bytes` characters of a numbered pattern, so a cut or a changed piece shows where. */
export function largeText(bytes: number): string {
  const line = (i: number) => `line ${String(i).padStart(8, '0')} of the large result\n`;
  const size = line(0).length;
  const parts: string[] = [];
  for (let i = 0; i * size < bytes; i++) parts.push(line(i));
  return parts.join('').slice(0, bytes);
}
