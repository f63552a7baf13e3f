// The face of the vertex protocol (Anthropic models on Vertex AI's rawPredict): its record and its realistic bodies (replies.ts).
// Checks, mocks and the reference gateway import this file, never the ones beside it.
export * from './record.js';
export * from './replies.js';
