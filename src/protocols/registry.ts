// The registry of the protocol module: one line per protocol folder (src/protocols/<name>/),
// gathered in one exhaustive map. A new protocol is a new folder and one line here; the compiler
// then names every other site that must hold it (CONTRIBUTING, "How to add a protocol").
import type { Protocol } from '../core/protocols.js';
import { A2A } from './a2a/index.js';
import { BEDROCK } from './bedrock/index.js';
import { CHAT } from './chat/index.js';
import { MCP } from './mcp/index.js';
import { MESSAGES } from './messages/index.js';
import { NATIVE } from './native/index.js';
import type { ProtocolRecord } from './record.js';
import { RESPONSES } from './responses/index.js';
import { VERTEX } from './vertex/index.js';

/** Every protocol's record. */
export const RECORDS: Record<Protocol, ProtocolRecord> = { messages: MESSAGES, native: NATIVE, chat: CHAT, responses: RESPONSES, vertex: VERTEX, bedrock: BEDROCK, mcp: MCP, a2a: A2A };
