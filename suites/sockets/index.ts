// WebSocket routes through the gateway (the Responses API's socket, OpenAI Realtime, Gemini Live).
import type { CheckDef } from '../../src/check/check.js';
import carried from './sockets.upgrade.carried.js';
import refusal from './sockets.upgrade.refusal.js';
import unchanged from './sockets.frames.unchanged.js';
import incremental from './sockets.frames.incremental.js';
import close from './sockets.close.passed.js';
import ping from './sockets.ping.answered.js';
import idle from './sockets.idle.kept.js';
import size from './sockets.size.large.js';
import binary from './sockets.binary.kept.js';
import deflate from './sockets.deflate.consistent.js';

export const SOCKETS_CHECKS: CheckDef[] = [carried, refusal, unchanged, incremental, close, ping, idle, size, binary, deflate];
