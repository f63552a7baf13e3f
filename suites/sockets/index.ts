// WebSocket routes through the gateway (the Responses API's socket, OpenAI Realtime, Gemini Live).
import type { CheckDef } from '../../src/check/check.js';
import carried from './sockets.upgrade.carried.js';
import refusal from './sockets.upgrade.refusal.js';
import unchanged from './sockets.frames.unchanged.js';

export const SOCKETS_CHECKS: CheckDef[] = [carried, refusal, unchanged];
