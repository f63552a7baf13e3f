// Gemini Live, the native protocol's WebSocket route (`BidiGenerateContent`): the key often in the
// query string (`?key=`), the client's JSON in text frames, the upstream's in binary frames. The
// client opens with `setup` (answered `setupComplete`), then sends `clientContent` turns, answered
// with `serverContent` model turns and a last `serverContent` with `turnComplete`.
import type { SocketRoute } from '../record.js';

export const LIVE_PATH = '/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent';
const MODEL = 'gemini-2.0-flash-live-001';

/** A Live frame's kind: its one top-level key (`setup`, `serverContent`...), `turnComplete` for the turn's end. */
function typeOf(frame: string): string {
  try {
    const v = JSON.parse(frame) as Record<string, { turnComplete?: boolean } | undefined>;
    const key = Object.keys(v)[0] ?? '(empty object)';
    return key === 'serverContent' && v.serverContent?.turnComplete ? 'turnComplete' : key;
  } catch {
    return '(not JSON)';
  }
}

export const LIVE_SOCKET: SocketRoute = {
  name: 'live',
  title: 'Gemini Live (WebSocket)',
  path: () => LIVE_PATH,
  // @google/genai's Live client joins a base URL without a path (its default among them) and this
  // path with a slash of its own: `//ws/...`, which the API takes as this route.
  matches: (path) => path.split('?')[0].replace(/^\/{2,}/, '/') === LIVE_PATH,
  headers: [],
  credential: 'key-query',
  model: MODEL,
  serverBinary: true,
  greeting: () => [],
  turn(text, extra = {}) {
    return [
      JSON.stringify({ setup: { model: `models/${MODEL}`, generationConfig: { responseModalities: ['TEXT'] } } }),
      JSON.stringify({ clientContent: { turns: [{ role: 'user', parts: [{ text }] }], turnComplete: true, ...extra } }),
    ];
  },
  answer(frame, pieces) {
    const type = typeOf(frame);
    if (type === 'setup') return [JSON.stringify({ setupComplete: {} })];
    if (type !== 'clientContent') return [];
    return [...pieces.map((text) => JSON.stringify({ serverContent: { modelTurn: { parts: [{ text }] } } })), JSON.stringify({ serverContent: { turnComplete: true }, usageMetadata: { promptTokenCount: 9, responseTokenCount: pieces.length, totalTokenCount: 9 + pieces.length } })];
  },
  asks: 'clientContent',
  ends: 'turnComplete',
  typeOf,
};
