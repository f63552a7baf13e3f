// The recording upstream answers in the protocol it is addressed in: a reply scripted in one
// protocol reaches a request on another protocol's path written in that protocol, with the same
// text (case token included), tool calls, stop reason, usage, error status and message, and a
// stream's frames keeping their timing; what cannot be read into meaning is played as scripted.
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import fc from 'fast-check';
import type { RecordingUpstream } from '../../../mocks/upstream/server.js';
import { eachUpstream } from '../../helpers/each-upstream.js';
import { UpstreamHandle } from '../../../src/upstream/handle.js';
import { RECORDS, minimalRequest, type Answer, type Protocol, type StreamStep, translateReply } from '../../../src/protocols/index.js';
import { DEFAULT_PROTOCOLS } from '../../../src/core/protocols.js';
import { messageBody, errorBody, frames, messageStream, modelListBody } from '../../../src/protocols/messages/index.js';
import { chatCompletion, chatJsonReply } from '../../../src/protocols/chat/index.js';
import { withToken } from '../../../src/upstream/contract.js';
import { JSON_HEADERS, SSE_HEADERS } from '../../../src/upstream/scenario.js';

/** An answer as every protocol can carry it: what a round trip through any other protocol keeps. */
function carried(a: Answer): Answer {
  const input = a.usage.input + (a.usage.cacheWrite ?? 0);
  return { model: a.model, text: a.text, toolCalls: a.toolCalls.map((c) => ({ name: c.name, args: JSON.stringify(JSON.parse(c.args)), id: '' })), stop: a.stop === 'stop_sequence' ? 'end' : a.stop, usage: { input, output: a.usage.output, cacheRead: a.usage.cacheRead ?? 0 } };
}

const answerArb = fc.record({
  model: fc.constantFrom('claude-sonnet-4-5-20250929', 'gpt-4o-mini', 'gemini-2.5-flash'),
  text: fc.string({ minLength: 1, maxLength: 40 }),
  toolCalls: fc.array(fc.record({ id: fc.constant('call_1'), name: fc.constantFrom('Bash', 'get_weather'), args: fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }).map((o) => JSON.stringify(o)) }), { maxLength: 2 }),
  stop: fc.constantFrom('end' as const, 'max_tokens' as const),
  usage: fc.record({ input: fc.nat(5000), output: fc.nat(5000), cacheRead: fc.nat(100) }),
}).map((a): Answer => ({ ...a, stop: a.toolCalls.length ? 'tool_use' : a.stop }));

/** The model APIs: MCP (JSON-RPC to a tool server) carries no model answer a gateway could translate. */
const MODEL_APIS = DEFAULT_PROTOCOLS;

describe('protocol records: answers by meaning', () => {
  it('an answer written in one protocol and read in another keeps its text, tool calls, stop reason and usage (every pair)', () => {
    fc.assert(
      fc.property(answerArb, fc.constantFrom(...MODEL_APIS), fc.constantFrom(...MODEL_APIS), (a, from, to) => {
        const read = RECORDS[from].replies.readAnswer(RECORDS[from].replies.answer(a));
        expect(read).not.toBeNull();
        const back = RECORDS[to].replies.readAnswer(RECORDS[to].replies.answer(read!));
        expect(carried(back!)).toEqual(carried(a));
      }),
      { numRuns: 60, seed: 7 },
    );
  });

  it('a stream written in one protocol and read in another adds up to the same answer', () => {
    fc.assert(
      fc.property(answerArb, fc.constantFrom(...MODEL_APIS), fc.constantFrom(...MODEL_APIS), (a, from, to) => {
        const steps: StreamStep[] = [{ t: 'start', model: a.model }, { t: 'text', text: a.text }, ...a.toolCalls.flatMap((c): StreamStep[] => [{ t: 'tool', id: c.id, name: c.name }, { t: 'args', json: c.args }]), { t: 'stop', stop: a.stop, usage: a.usage }, { t: 'end' }];
        const w = RECORDS[from].replies.streamWriter();
        const scripted = { kind: 'sse' as const, protocol: from, status: 200, headers: SSE_HEADERS, frames: steps.flatMap((s) => w.write(s)).map((data) => ({ gapMs: 0, data })) };
        const json = translateReply(scripted, { protocol: to, route: 'generate', stream: false });
        if (from === to) {
          expect(json).toBeNull();
          return;
        }
        const answer = RECORDS[to].replies.readAnswer((json as { body: string }).body);
        expect(carried(answer!)).toEqual(carried(a));
      }),
      { numRuns: 60, seed: 11 },
    );
  });
});

describe('translateReply', () => {
  it('keeps each scripted frame\'s gap before the first frame it became', () => {
    const scripted = { kind: 'sse' as const, protocol: 'messages' as const, status: 200, headers: SSE_HEADERS, frames: frames(messageStream({ full: false, textDeltas: 3 }), { gapMs: 40, firstGapMs: 5 }) };
    const out = translateReply(scripted, { protocol: 'chat', route: 'generate', stream: true });
    expect(out?.kind).toBe('sse');
    const f = (out as { frames: Array<{ gapMs: number; data: string }> }).frames;
    expect(f[0]).toMatchObject({ gapMs: 5 });
    expect(f.map((x) => x.data.match(/"content":"([^"]*)"/)?.[1]).filter(Boolean)).toEqual(['chunk 0 é😀 ', 'chunk 1 é😀 ', 'chunk 2 é😀 ']);
    // message_start, content_block_start and the deltas were 40 ms apart; the first delta's chunk waits 40 (start) + 40 (block start) + 40.
    const gaps = f.map((x) => x.gapMs);
    expect(gaps.reduce((s, g) => s + g, 0)).toBe(5 + 40 * (scripted.frames.length - 1));
    expect(f[f.length - 1].data).toBe('data: [DONE]\n\n');
  });

  it('maps an error to the arrival protocol\'s shape with its status, message and retry headers', () => {
    const out = translateReply({ kind: 'json', protocol: 'messages', status: 429, headers: [...JSON_HEADERS, ['retry-after', '17']], body: errorBody(429, 'slow down gwc-0123456789abcdef') }, { protocol: 'chat', route: 'generate', stream: false });
    expect(out).toMatchObject({ status: 429, protocol: 'chat' });
    const body = JSON.parse((out as { body: string }).body);
    expect(body.error).toMatchObject({ message: 'slow down gwc-0123456789abcdef', code: 'rate_limit_exceeded' });
    expect((out as { headers: Array<[string, string]> }).headers).toContainEqual(['retry-after', '17']);
  });

  it('maps the model list, and a count where the arrival protocol has one', () => {
    const list = translateReply({ kind: 'json', protocol: 'messages', status: 200, headers: JSON_HEADERS, body: modelListBody() }, { protocol: 'native', route: 'models', stream: false });
    expect(JSON.parse((list as { body: string }).body).models[0].name).toBe('models/claude-opus-5-5');
    const count = translateReply({ kind: 'json', protocol: 'messages', status: 200, headers: JSON_HEADERS, body: '{"input_tokens":38}' }, { protocol: 'native', route: 'count', stream: false });
    expect(JSON.parse((count as { body: string }).body).totalTokens).toBe(38);
    expect(translateReply({ kind: 'json', protocol: 'messages', status: 200, headers: JSON_HEADERS, body: '{"input_tokens":38}' }, { protocol: 'chat', route: 'generate', stream: false })).toBeNull();
  });

  it('leaves alone what needs no rendering or cannot be read: same protocol, no protocol, hang, malformed frames', () => {
    const at = { protocol: 'chat' as const, route: 'generate' as const, stream: true };
    expect(translateReply({ kind: 'json', protocol: 'chat', status: 200, headers: JSON_HEADERS, body: chatCompletion() }, at)).toBeNull();
    expect(translateReply({ kind: 'json', status: 200, headers: JSON_HEADERS, body: messageBody() }, at)).toBeNull();
    expect(translateReply({ kind: 'hang' }, at)).toBeNull();
    expect(translateReply({ kind: 'sse', protocol: 'messages', status: 200, headers: SSE_HEADERS, frames: [{ gapMs: 0, data: 'data: {not json\n\n' }] }, at)).toBeNull();
  });

  it('passes SSE comment frames (keep-alives) through verbatim, with their gap', () => {
    const scripted = frames(messageStream({ full: false, textDeltas: 1 }));
    scripted.splice(2, 0, { gapMs: 700, data: ': keep-alive\n\n' });
    const out = translateReply({ kind: 'sse', protocol: 'messages', status: 200, headers: SSE_HEADERS, frames: scripted }, { protocol: 'chat', route: 'generate', stream: true }) as { frames: Array<{ gapMs: number; data: string }>; from: number[] };
    const at = out.frames.findIndex((f) => f.data === ': keep-alive\n\n');
    expect(out.frames[at].gapMs).toBe(700);
    expect(out.from[at]).toBe(2);
  });
});

describe('the recording upstream answers in the protocol it is addressed in', () => {
  let up: RecordingUpstream;
  eachUpstream((u) => (up = u));

  const send = async (p: Protocol, token: string, stream = false) => {
    const m = minimalRequest(p, { text: `${token} hello`, stream, maxTokens: 16 });
    const r = await request(`${up.url}${m.path}`, { method: 'POST', headers: Object.fromEntries(m.headers), body: withToken(m.body, token) });
    return { status: r.statusCode, type: String(r.headers['content-type']), text: await r.body.text() };
  };

  it.each(MODEL_APIS)('a messages reply reaches a %s request in that protocol, with the case token, and the arrival is recorded', async (p) => {
    const e = new UpstreamHandle(up, 'messages').next().json(messageBody({ text: 'tok: __T__' }));
    const got = await send(p, e.token);
    expect(got.status).toBe(200);
    expect(RECORDS[p].replies.readAnswer(got.text)?.text).toBe('tok: __T__');
    expect(e.hits[0]).toMatchObject({ protocol: p, route: 'generate', answeredIn: p });
  });

  it('a chat reply scripted by a native check reaches the chat path as scripted (its own protocol)', async () => {
    const body = chatCompletion({ content: 'as scripted' });
    const e = new UpstreamHandle(up, 'native').register(chatJsonReply(body));
    const got = await send('chat', e.token);
    expect(got.text).toBe(body);
    expect(e.hits[0]).toMatchObject({ protocol: 'chat', answeredIn: 'chat' });
  });

  it('a streamed messages reply reaches a streamed chat request as a chat stream ending in [DONE]', async () => {
    const e = new UpstreamHandle(up, 'messages').next().sse(frames(messageStream({ full: true, textDeltas: 2 })));
    const got = await send('chat', e.token, true);
    expect(got.type).toMatch(/text\/event-stream/);
    expect(got.text).toContain('"tool_calls"');
    expect(got.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });
});
