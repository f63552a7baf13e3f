// The face of the realtime route (OpenAI Realtime over WebSocket): its socket route, which the
// Responses record carries. Code outside this folder imports this file, never the one beside it.
export * from './socket.js';
