// OpenAI Realtime (`/v1/realtime?model=...`), a WebSocket-only API: the upstream greets with
// `session.created`, answers `session.update` with `session.updated`, and answers
// `response.create` (after the client's `conversation.item.create`) with `response.created`,
// `response.output_text.delta` events and `response.done`. It rides on the Responses record
// (OpenAI's API, its base URL, credential and targeting): src/protocols/responses/record.ts.
import type { SocketRoute } from '../record.js';

export const REALTIME_PATH = '/v1/realtime';
const MODEL = 'gpt-realtime';

let n = 0;
const id = (prefix: string) => `${prefix}_gwc${(++n).toString(36).padStart(6, '0')}`;

const typeOf = (frame: string): string => {
  try {
    const v = JSON.parse(frame) as { type?: unknown };
    return typeof v.type === 'string' ? v.type : '(data without type)';
  } catch {
    return '(not JSON)';
  }
};

const session = (sid: string) => ({ id: sid, object: 'realtime.session', type: 'realtime', model: MODEL, output_modalities: ['text'], instructions: '' });

export const REALTIME_SOCKET: SocketRoute = {
  name: 'realtime',
  title: 'OpenAI Realtime (WebSocket)',
  path: (model) => `${REALTIME_PATH}?model=${encodeURIComponent(model)}`,
  matches: (path) => path.split('?')[0] === REALTIME_PATH,
  headers: [],
  credential: 'bearer',
  model: MODEL,
  serverBinary: false,
  greeting: () => [JSON.stringify({ type: 'session.created', event_id: id('event'), session: session(id('sess')) })],
  turn(text, extra = {}) {
    const item = { type: 'message', role: 'user', content: [{ type: 'input_text', text }] };
    return [
      JSON.stringify({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], instructions: 'Answer briefly.' } }),
      JSON.stringify({ type: 'conversation.item.create', item }),
      JSON.stringify({ type: 'response.create', response: { output_modalities: ['text'] }, ...extra }),
    ];
  },
  answer(frame, pieces) {
    const type = typeOf(frame);
    if (type === 'session.update') return [JSON.stringify({ type: 'session.updated', event_id: id('event'), session: session(id('sess')) })];
    if (type === 'conversation.item.create') return [JSON.stringify({ type: 'conversation.item.added', event_id: id('event'), item: { id: id('item'), ...((JSON.parse(frame) as { item?: object }).item ?? {}) } })];
    if (type !== 'response.create') return [];
    const rid = id('resp');
    const item = id('item');
    const response = (status: string, output: unknown[]) => ({ id: rid, object: 'realtime.response', status, output });
    const text = pieces.join('');
    return [
      JSON.stringify({ type: 'response.created', event_id: id('event'), response: response('in_progress', []) }),
      ...pieces.map((delta) => JSON.stringify({ type: 'response.output_text.delta', event_id: id('event'), response_id: rid, item_id: item, output_index: 0, content_index: 0, delta })),
      JSON.stringify({ type: 'response.output_text.done', event_id: id('event'), response_id: rid, item_id: item, output_index: 0, content_index: 0, text }),
      JSON.stringify({ type: 'response.done', event_id: id('event'), response: response('completed', [{ id: item, type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }]) }),
    ];
  },
  asks: 'response.create',
  ends: 'response.done',
  typeOf,
};
