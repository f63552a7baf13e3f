// The face of the a2a protocol (Agent2Agent's JSON-RPC binding): its record and its wire (wire.ts).
// Checks, mocks and the reference gateway import this file, never the ones beside it.
export * from './record.js';
export * from './wire.js';
