// The face of the mcp protocol (MCP over Streamable HTTP): its record and its wire (replies.ts).
// Checks, mocks and the reference gateway import this file, never the ones beside it.
export * from './record.js';
export * from './replies.js';
