// Faults of the reference gateway: each breaks one requirement on purpose, so every check is
// proven to catch what it claims to (test/detection/<area>.json names the checks each fault
// of that area fails). One file per area; add an area's list here.
import type { Fault } from './types.js';
import { MESSAGES_FAULTS } from './messages.js';
import { STREAMING_FAULTS } from './streaming.js';
import { PROTOCOL_FAULTS } from './protocols.js';
import { ERRORS_FAULTS } from './errors.js';
import { FLAKY_FAULTS } from './flaky.js';
import { CAPABILITY_FAULTS } from './capabilities.js';
import { FIELD_FAULTS } from './field.js';
import { LOAD_FAULTS } from './load.js';
import { CLIENT_FAULTS } from './client.js';
import { TRANSLATE_FAULTS } from './translate.js';
import { RESPONSES_FAULTS } from './responses.js';
import { NATIVE_FAULTS } from './native.js';
import { VERTEX_FAULTS } from './vertex.js';
import { BEDROCK_FAULTS } from './bedrock.js';
import { FIELD_2_FAULTS } from './field-2.js';
import { CACHE_FAULTS } from './cache.js';
import { UPSTREAMS_FAULTS } from './upstreams.js';
import { CONTRACT_FAULTS } from './contract.js';
import { WIRE_FAULTS } from './wire.js';
import { H2_FAULTS } from './h2.js';
import { FIELD_3_FAULTS } from './field-3.js';
import { BLIND_SPOT_FAULTS } from './blind-spots.js';
import { API_ROUTE_FAULTS } from './api-routes.js';
import { MCP_FAULTS } from './mcp.js';
import { A2A_FAULTS } from './a2a.js';
import { SOCKETS_FAULTS } from './sockets.js';
import { FIELD_HTTP_FAULTS } from './field-http.js';

export type { Fault, RequestParts, SocketFault, SocketSend } from './types.js';

export const FAULTS: Fault[] = [...MESSAGES_FAULTS, ...STREAMING_FAULTS, ...PROTOCOL_FAULTS, ...ERRORS_FAULTS, ...FLAKY_FAULTS, ...CAPABILITY_FAULTS, ...FIELD_FAULTS, ...CLIENT_FAULTS, ...TRANSLATE_FAULTS, ...RESPONSES_FAULTS, ...NATIVE_FAULTS, ...VERTEX_FAULTS, ...BEDROCK_FAULTS, ...FIELD_2_FAULTS, ...CACHE_FAULTS, ...UPSTREAMS_FAULTS, ...CONTRACT_FAULTS, ...WIRE_FAULTS, ...H2_FAULTS, ...FIELD_3_FAULTS, ...BLIND_SPOT_FAULTS, ...API_ROUTE_FAULTS, ...MCP_FAULTS, ...A2A_FAULTS, ...SOCKETS_FAULTS, ...FIELD_HTTP_FAULTS];

/** The load profile's faults: proven by test/load/load-detection.test.ts, not the default detection matrix. */
export { LOAD_FAULTS };

export function faultByName(name: string): Fault | undefined {
  return [...FAULTS, ...LOAD_FAULTS].find((f) => f.name === name);
}
