// The a2a protocol's record and wire: its routes (the endpoint by POST, both agent card paths),
// its minimal request, the answer and stream codecs read back what they write, and a scripted
// task's events (submitted, working, the chunks with the last marked, the final status last).
import { describe, expect, it } from 'vitest';
import { RECORDS, routeOfRequest } from '../../../src/protocols/index.js';
import { A2A_PATH, AGENT_CARD_OLD_PATH, AGENT_CARD_PATH, taskEvents } from '../../../src/protocols/a2a/index.js';

const A2A = RECORDS.a2a;

describe('the a2a protocol', () => {
  it('routes POST to the endpoint and GET to either agent card path, and nothing else', () => {
    expect(routeOfRequest('POST', A2A_PATH, [])).toEqual({ protocol: 'a2a', route: 'rpc' });
    expect(routeOfRequest('GET', `${AGENT_CARD_PATH}?x=1`, [])).toEqual({ protocol: 'a2a', route: 'rpc' });
    expect(routeOfRequest('GET', AGENT_CARD_OLD_PATH, [])).toEqual({ protocol: 'a2a', route: 'rpc' });
    expect(A2A.routeOf('GET', A2A_PATH, [])).toBeNull();
    expect(A2A.routeOf('POST', '/a2a/extra', [])).toBeNull();
  });

  it('sends a message/send with the text as its minimal request, with a bearer credential', () => {
    const r = A2A.minimalRequest({ text: 'hello', maxTokens: 8 });
    expect({ method: r.method, path: r.path, auth: r.auth }).toEqual({ method: 'POST', path: A2A_PATH, auth: 'bearer' });
    const body = JSON.parse(r.body) as { method: string; params: { message: { role: string; parts: Array<{ text: string }> } } };
    expect(body.method).toBe('message/send');
    expect(body.params.message.role).toBe('user');
    expect(body.params.message.parts[0].text).toBe('hello');
  });

  it('reads back the answer and the stream it writes', () => {
    const a = { model: '', text: 'ok é', toolCalls: [], stop: 'end' as const, usage: { input: 0, output: 0 } };
    expect(A2A.replies.readAnswer(A2A.replies.answer(a))?.text).toBe('ok é');
    const w = A2A.replies.streamWriter();
    const frames = [...w.write({ t: 'start', model: '' }), ...w.write({ t: 'text', text: 'He' }), ...w.write({ t: 'text', text: 'llo' }), ...w.write({ t: 'end' })];
    const r = A2A.replies.streamReader();
    expect(frames.flatMap((f) => r.read(f) ?? [])).toEqual([{ t: 'text', text: 'He' }, { t: 'text', text: 'llo' }, { t: 'end' }]);
    expect(A2A.replies.readError(A2A.replies.error({ status: 500, message: 'down' }), 500)).toEqual({ status: 500, message: 'down' });
  });

  it("scripts a task's events: submitted, working, the chunks (the last marked), the final status last", () => {
    const ev = taskEvents(['a', 'b']).map((t) => (JSON.parse(t) as { result: Record<string, unknown> }).result);
    expect(ev.map((e) => e.kind)).toEqual(['task', 'status-update', 'artifact-update', 'artifact-update', 'status-update']);
    expect(ev.map((e) => e.lastChunk ?? null)).toEqual([null, null, false, true, null]);
    expect(ev.map((e) => e.final ?? null)).toEqual([null, false, null, null, true]);
  });
});
