// The face of the native protocol (Gemini generateContent): its record and its realistic bodies (replies.ts).
// Checks, mocks and the reference gateway import this file, never the ones beside it.
export * from './record.js';
export * from './replies.js';
export * from './socket.js';
