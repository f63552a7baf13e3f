// MSG-STOP-1: the newer stop reasons (refusal, pause_turn, model_context_window_exceeded) reach
// the client word for word, in a JSON answer and in a stream's message_delta. A gateway that
// validates stop_reason against the list it knew, or normalises the ones it does not know to
// end_turn, makes an agent take a paused turn for a finished one or a refusal for an answer.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { blocksBody, blocksStream, frames, NEWER_STOP_REASONS } from '../../src/protocols/messages/index.js';
import { JSON_HEADERS, SSE_HEADERS } from '../../src/upstream/scenario.js';
import { exchange, streamThrough } from '../shared/exchange.js';
import { jsonStop, streamStop } from '../shared/stop.js';
import { messagesBody, MESSAGES_PATH } from '../shared/protocols.js';

/** A short answer that stopped for `stop`. */
const answer = (stop: string) => ({ blocks: [{ type: 'text', text: `Stopped: ${stop}.` }], stop });

export default defineCheck({
  id: 'messages.stop.reasons',
  title: 'The stop reasons refusal, pause_turn and model_context_window_exceeded reach the client unchanged, JSON and streamed',
  requirements: ['MSG-STOP-1'],
  level: 'MUST',
  protocol: 'messages',
  untranslatable: "the upstream's stop_reason word for word",
  requirement: "An answer whose stop_reason is refusal, pause_turn or model_context_window_exceeded reaches the client with that stop_reason, in the JSON body and in the stream's message_delta.",
  fix: "Pass `stop_reason` through as the upstream wrote it, in the JSON answer and in the stream's `message_delta`: treat it as an open list (new values appear), never validate it against the values you knew or replace one you do not know with `end_turn`.",
  async run(ctx) {
    const rows: Array<{ stop: string; mode: 'json' | 'stream'; got: string; status: number }> = [];
    for (const stop of NEWER_STOP_REASONS) {
      const x = await exchange(ctx, messagesBody({}), { reply: (c) => c.upstream.register({ kind: 'json', status: 200, headers: JSON_HEADERS, body: blocksBody(answer(stop)) }) });
      rows.push({ stop, mode: 'json', status: x.res.status, got: x.res.status === 200 ? jsonStop(x.res.text()) : `(status ${x.res.status})` });
      const s = await streamThrough(ctx, { kind: 'sse', status: 200, headers: SSE_HEADERS, frames: frames(blocksStream(answer(stop))) }, { path: MESSAGES_PATH, body: messagesBody({ stream: true }), headers: [['anthropic-version', '2023-06-01']] });
      rows.push({ stop, mode: 'stream', status: s.res.status, got: s.res.status === 200 ? streamStop(s.res.events) : `(status ${s.res.status})` });
    }
    const bad = rows.filter((r) => r.got !== r.stop);
    const evidence = { stopReasons: rows.map((r) => `${r.mode} ${r.stop}: the client got ${r.got}`) };
    if (bad.length)
      return fail(`${bad.length} of ${rows.length} answers reached the client with another stop reason: ${bad.map((r) => `${r.stop} (${r.mode}) as ${r.got}`).join('; ')}`, {
        expected: bad.map((r) => `${r.mode}: ${r.stop}`).join('\n'),
        actual: bad.map((r) => `${r.mode}: ${r.got}`).join('\n'),
        evidence,
      });
    return pass(`${NEWER_STOP_REASONS.join(', ')} reached the client unchanged, JSON and streamed`, evidence);
  },
});
