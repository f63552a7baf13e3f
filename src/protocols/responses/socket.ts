// The Responses API's WebSocket route (the transport Codex uses by default): `GET /v1/responses`
// with Upgrade and the beta header `OpenAI-Beta: responses_websockets=2026-02-06`; the client sends
// `response.create` frames (a Responses request's fields beside the type), the upstream answers
// each with the SSE stream's events, one JSON frame each, sequence numbers from 0, and one socket
// carries several responses in turn.
import type { SocketRoute } from '../record.js';
import { RESPONSES_PATH, responsesStream } from './replies.js';

/** The beta header the Responses socket's clients send with the upgrade. */
export const RESPONSES_WS_BETA: [string, string] = ['openai-beta', 'responses_websockets=2026-02-06'];

/** The `data:` JSON of an SSE event frame. */
const dataOf = (frame: string) => /^data: ?(.*)$/m.exec(frame)?.[1] ?? '';

/** The `type` of a JSON frame, or what the frame is when it has none. */
export function frameType(frame: string): string {
  try {
    const v = JSON.parse(frame) as Record<string, unknown>;
    if (typeof v.type === 'string') return v.type;
    const keys = Object.keys(v);
    return keys.length ? keys[0] : '(empty object)';
  } catch {
    return '(not JSON)';
  }
}

export const RESPONSES_SOCKET: SocketRoute = {
  name: 'responses',
  title: 'Responses API over WebSocket (OpenAI)',
  path: () => RESPONSES_PATH,
  matches: (path) => path.split('?')[0] === RESPONSES_PATH,
  headers: [RESPONSES_WS_BETA],
  credential: 'bearer',
  model: 'gpt-4.1-mini',
  serverBinary: false,
  greeting: () => [],
  turn(text, extra = {}) {
    const input = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text }] }];
    return [JSON.stringify({ type: 'response.create', model: RESPONSES_SOCKET.model, instructions: 'Answer briefly.', input, store: false, ...extra })];
  },
  answer(frame, pieces) {
    return frameType(frame) === 'response.create' ? responsesStream({ pieces }).map(dataOf) : [];
  },
  asks: 'response.create',
  ends: 'response.completed',
  typeOf: frameType,
};
