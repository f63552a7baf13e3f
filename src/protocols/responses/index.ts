// The face of the responses protocol (OpenAI Responses API): its record, its realistic bodies (replies.ts) and those of its routes beyond inference (beyond.ts).
// Checks, mocks and the reference gateway import this file, never the ones beside it.
export * from './record.js';
export * from './replies.js';
export * from './beyond.js';
