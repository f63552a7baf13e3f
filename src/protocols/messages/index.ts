// The face of the messages protocol (Anthropic, POST /v1/messages): its record, its realistic bodies (replies.ts), streams (streams.ts), capability answers (features.ts), error headers (errors.ts), model list and token count (discovery.ts).
// Checks, mocks and the reference gateway import this file, never the ones beside it.
export * from './record.js';
export * from './replies.js';
export * from './streams.js';
export * from './features.js';
export * from './errors.js';
export * from './discovery.js';
