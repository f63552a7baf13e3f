// MCP over Streamable HTTP through a gateway: the endpoint, sessions, headers, answers as JSON
// and as event streams, the GET stream, DELETE, an expired session, JSON-RPC bodies and the OAuth
// discovery routes (docs/mcp.md).
import type { CheckDef } from '../../src/check/check.js';
import path from './mcp.path.forwarded.js';
import roundtrip from './mcp.session.roundtrip.js';
import isolated from './mcp.session.isolated.js';
import headers from './mcp.headers.forwarded.js';
import answer from './mcp.answer.unchanged.js';
import incremental from './mcp.stream.incremental.js';
import notification from './mcp.notification.accepted.js';
import resume from './mcp.get.resume.js';
import del from './mcp.session.delete.js';
import expired from './mcp.session.expired.js';
import jsonrpc from './mcp.jsonrpc.unchanged.js';
import large from './mcp.result.large.js';
import challenge from './mcp.auth.challenge.js';
import metadata from './mcp.auth.metadata.js';

export const MCP_CHECKS: CheckDef[] = [path, roundtrip, isolated, headers, answer, incremental, notification, resume, del, expired, jsonrpc, large, challenge, metadata];
