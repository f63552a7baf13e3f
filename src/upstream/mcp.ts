// What the recording upstream keeps of an MCP exchange (an McpReply case, mocks/upstream/mcp.ts):
// the JSON-RPC messages the request carried, and the answer as the server wrote it (status,
// headers, each message with the time it was written and its event id), so that checks compare
// what the client got with what the server sent, message by message. Plain data: the checks read
// it, src/ never imports the server.
import type { HeaderList } from './scenario.js';

/** One JSON-RPC message the server wrote: when (performance.now()), its SSE event id if any, its text. */
export interface McpSent {
  at: number;
  eventId?: string;
  /** The message as written (the `data:` of its event, or the JSON body). */
  text: string;
}

export interface McpTraffic {
  /** The JSON-RPC messages of the request body (a batch spread), as parsed; empty for GET and DELETE. */
  received: unknown[];
  /** The session the request named (Mcp-Session-Id), or the one the answer opened (initialize). */
  session?: string;
  /** The status and headers the server answered with (null until it did). */
  status: number | null;
  headers: HeaderList;
  /** `json`: one JSON body; `sse`: an event stream; `empty`: no body (202, a DELETE). */
  body: 'json' | 'sse' | 'empty' | null;
  /** Every message written, in order. */
  sent: McpSent[];
  /** The body's text as written (its first MCP_BODY_KEEP characters). */
  text: string;
  /** The server wrote its last byte (the answer ended on its side). */
  ended: boolean;
  /** Bytes of the body written, and their SHA-256 (hex, once ended): a body larger than `text` keeps is compared by these. */
  bytes: number;
  sha256?: string;
}

/** The most of an MCP answer's text kept for the checks. */
export const MCP_BODY_KEEP = 2 * 1024 * 1024;

/** The case token travels in an MCP session id: `mcp-<token>-<random>` (contract.ts's token inside). */
export const MCP_SESSION_RE = /^mcp-(gwc-[0-9a-f]{16})-[0-9a-f]{16}$/;
