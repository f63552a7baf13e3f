// The explicit list of checks, one list per area (each area's index.ts names its checks).
import type { CheckDef } from '../src/check/check.js';
import { MESSAGES_CHECKS } from './messages/index.js';
import { STREAMING_CHECKS } from './streaming/index.js';
import { DISCOVERY_CHECKS } from './discovery/index.js';
import { ERRORS_CHECKS } from './errors/index.js';
import { NATIVE_CHECKS } from './native/index.js';
import { CHAT_CHECKS } from './chat/index.js';
import { SERVICE_CHECKS } from './service/index.js';
import { APPS_CHECKS } from './apps/index.js';
import { CLIENT_CHECKS } from './client/index.js';
import { CAPABILITIES_CHECKS } from './capabilities/index.js';
import { LOAD_CHECKS } from './load/index.js';
import { TRANSLATE_CHECKS } from './translate/index.js';
import { RESPONSES_CHECKS } from './responses/index.js';
import { VERTEX_CHECKS } from './vertex/index.js';
import { BEDROCK_CHECKS } from './bedrock/index.js';
import { MCP_CHECKS } from './mcp/index.js';
import { SOCKETS_CHECKS } from './sockets/index.js';
import { A2A_CHECKS } from './a2a/index.js';

export const CHECKS: CheckDef[] = [...MESSAGES_CHECKS, ...STREAMING_CHECKS, ...DISCOVERY_CHECKS, ...ERRORS_CHECKS, ...NATIVE_CHECKS, ...CHAT_CHECKS, ...TRANSLATE_CHECKS, ...SERVICE_CHECKS, ...APPS_CHECKS, ...CLIENT_CHECKS, ...CAPABILITIES_CHECKS, ...LOAD_CHECKS, ...RESPONSES_CHECKS, ...VERTEX_CHECKS, ...BEDROCK_CHECKS, ...MCP_CHECKS, ...SOCKETS_CHECKS, ...A2A_CHECKS];
