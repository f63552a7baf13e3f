// The names of the protocols a gateway carries (messages: Anthropic; native: Gemini; chat:
// OpenAI chat completions; responses: OpenAI Responses API; vertex: Anthropic models on Vertex AI's rawPredict; bedrock: Bedrock InvokeModel;
// mcp: the Model Context Protocol over Streamable HTTP; a2a: the Agent2Agent protocol's JSON-RPC binding), of the credential styles and of the routes a protocol has. At the bottom of the
// source tree: it imports nothing, so every layer can name a protocol. What each protocol is
// (paths, credentials, requests, replies) is its record in the protocol module (src/protocols/).

export const PROTOCOLS = ['messages', 'native', 'chat', 'responses', 'vertex', 'bedrock', 'mcp', 'a2a'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/** The agent protocols: traffic between agents and their tools or peers, no model API. */
export const AGENT_PROTOCOLS: readonly Protocol[] = ['mcp', 'a2a'];

/**
 * The protocols a run declares when it is told none (`--protocols` unset): the model APIs. The
 * agent protocols are left out: an LLM gateway that proxies no MCP server or agent must not fail a
 * default run for it, so a gateway that carries them says so (`--protocols ...,mcp,a2a`, docs/mcp.md).
 */
export const DEFAULT_PROTOCOLS: readonly Protocol[] = PROTOCOLS.filter((p) => !AGENT_PROTOCOLS.includes(p));

/**
 * How the run's credential is attached: a header (`bearer`, `x-api-key`, the native protocol's
 * `x-goog-api-key`), the native `?key=` query (`key-query`), or not at all.
 */
export const CREDENTIAL_STYLES = ['bearer', 'x-api-key', 'x-goog-api-key', 'key-query', 'none'] as const;
export type AuthStyle = (typeof CREDENTIAL_STYLES)[number];

/** The header names a credential style carries the credential in (lower case): credentialHeader's. */
export const CREDENTIAL_HEADER_NAMES: ReadonlySet<string> = new Set(['authorization', 'x-api-key', 'x-goog-api-key']);

/** The header that carries `credential` in `style` (`authorization: Bearer`, `x-api-key`, `x-goog-api-key`); null for `key-query` and `none`. */
export function credentialHeader(style: AuthStyle, credential: string): [string, string] | null {
  if (style === 'bearer') return ['authorization', `Bearer ${credential}`];
  if (style === 'x-api-key' || style === 'x-goog-api-key') return [style, credential];
  return null;
}

/**
 * The WebSocket routes a gateway may carry (a transport is a kind of route on a protocol's record,
 * src/protocols/socket.ts): the Responses API's socket (`GET /v1/responses` with Upgrade), OpenAI
 * Realtime (`/v1/realtime`) and Gemini Live (`BidiGenerateContent`). `--websockets` names them.
 */
export const SOCKET_ROUTES = ['responses', 'realtime', 'live'] as const;
export type SocketRouteName = (typeof SOCKET_ROUTES)[number];

/** What a request path is in its protocol: an answer, a streamed answer, a token count, the model list, or a JSON-RPC endpoint and its discovery (MCP). */
export type RouteKind = 'generate' | 'stream' | 'count' | 'models' | 'rpc';

/** The routes beyond inference a protocol may have (its record's apiRoutes): Codex's compaction, a stored response and its cancel, a file upload, a batch, Codex's model catalog. */
export type ApiRouteName = 'compact' | 'stored-response' | 'cancel-response' | 'files' | 'batch' | 'client-catalog';
