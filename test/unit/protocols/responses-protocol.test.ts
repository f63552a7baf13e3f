// The Responses API record (src/protocols/responses/record.ts): its routes, and the recording upstream
// answering a request on /v1/responses in that protocol when the check scripted another one:
// a response object, a stream of named events with increasing sequence_number and every
// lifecycle event, a mid-stream error as response.failed, an error in OpenAI's shape, a count.
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import type { RecordingUpstream } from '../../../mocks/upstream/server.js';
import { eachUpstream } from '../../helpers/each-upstream.js';
import { UpstreamHandle } from '../../../src/upstream/handle.js';
import { RECORDS, minimalRequest, routeOfRequest, translateReply } from '../../../src/protocols/index.js';
import { errorBody, messageBody, frames, messageStream } from '../../../src/protocols/messages/index.js';
import { chatCompletion, chatFrames, chatJsonReply, chatSseReply, chatStream } from '../../../src/protocols/chat/index.js';
import { eventType, responsesStream } from '../../../src/protocols/responses/index.js';
import { withToken } from '../../../src/upstream/contract.js';
import { JSON_HEADERS } from '../../../src/upstream/scenario.js';

const LIFECYCLE = ['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added', 'response.output_text.delta', 'response.output_text.done', 'response.content_part.done', 'response.output_item.done'];

/** Each frame's event name, its data's type and sequence_number. */
function events(text: string) {
  return text
    .split(/\n\n/)
    .filter((f) => f.trim())
    .map((f) => {
      const data = JSON.parse(/^data: (.*)$/m.exec(f)![1]) as { type: string; sequence_number: number; [k: string]: unknown };
      return { event: /^event: (.*)$/m.exec(f)?.[1], data };
    });
}

describe('the responses record', () => {
  it('routes POST /v1/responses (answers and streams) and its input-token count, nothing else', () => {
    expect(routeOfRequest('POST', '/v1/responses', [])).toEqual({ protocol: 'responses', route: 'generate' });
    expect(routeOfRequest('POST', '/v1/responses?x=1', [])).toEqual({ protocol: 'responses', route: 'generate' });
    expect(routeOfRequest('POST', '/v1/responses/input_tokens', [])).toEqual({ protocol: 'responses', route: 'count' });
    expect(routeOfRequest('GET', '/v1/responses/resp_1', [])).toBeNull();
  });

  it('reads its own scripted stream (with a function call) back into the answer it carries', () => {
    const scripted = { kind: 'sse' as const, protocol: 'responses' as const, status: 200, headers: JSON_HEADERS, frames: responsesStream({ pieces: ['a', 'b'], toolArgs: ['{"city":', '"Paris"}'] }).map((data) => ({ gapMs: 0, data })) };
    const out = translateReply(scripted, { protocol: 'messages', route: 'generate', stream: false }) as { body: string };
    const a = RECORDS.messages.replies.readAnswer(out.body)!;
    expect(a).toMatchObject({ text: 'ab', stop: 'tool_use', toolCalls: [{ name: 'get_weather', args: '{"city":"Paris"}' }], usage: { input: 398, cacheRead: 1920, output: 412 } });
  });

  it('a messages stream becomes named events, sequence_number 0, 1, 2, ... with every lifecycle event, ending response.completed', () => {
    const scripted = { kind: 'sse' as const, protocol: 'messages' as const, status: 200, headers: JSON_HEADERS, frames: frames(messageStream({ full: true, textDeltas: 2 })) };
    const out = translateReply(scripted, { protocol: 'responses', route: 'generate', stream: true }) as { frames: Array<{ data: string }> };
    const ev = events(out.frames.map((f) => f.data).join(''));
    expect(ev.map((e) => e.data.sequence_number)).toEqual(ev.map((_, i) => i));
    for (const e of ev) expect(e.event).toBe(e.data.type);
    const types = ev.map((e) => e.data.type);
    for (const t of [...LIFECYCLE, 'response.function_call_arguments.delta', 'response.function_call_arguments.done', 'response.completed']) expect(types).toContain(t);
    expect(types[types.length - 1]).toBe('response.completed');
    const done = ev[ev.length - 1].data.response as { usage: { input_tokens_details: { cached_tokens: number } }; output: Array<{ type: string }> };
    expect(done.output.map((o) => o.type)).toEqual(['message', 'function_call']);
    expect(done.usage.input_tokens_details.cached_tokens).toBeGreaterThan(0);
  });

  it('a mid-stream error of another protocol becomes response.failed carrying its message', () => {
    const scripted = { kind: 'sse' as const, protocol: 'messages' as const, status: 200, headers: JSON_HEADERS, frames: frames(messageStream({ full: false, textDeltas: 3, errorAfter: 1 })) };
    const out = translateReply(scripted, { protocol: 'responses', route: 'generate', stream: true }) as { frames: Array<{ data: string }> };
    const last = events(out.frames.map((f) => f.data).join('')).pop()!;
    expect(last.data.type).toBe('response.failed');
    expect(last.data.response).toMatchObject({ status: 'failed', error: { message: 'Overloaded' } });
  });

  it('maps an error to OpenAI\'s shape and a count to response.input_tokens', () => {
    const err = translateReply({ kind: 'json', protocol: 'messages', status: 429, headers: JSON_HEADERS, body: errorBody(429, 'slow down') }, { protocol: 'responses', route: 'generate', stream: false }) as { status: number; body: string };
    expect(err.status).toBe(429);
    expect(JSON.parse(err.body).error).toMatchObject({ message: 'slow down', type: 'requests', param: null, code: 'rate_limit_exceeded' });
    const count = translateReply({ kind: 'json', protocol: 'messages', status: 200, headers: JSON_HEADERS, body: '{"input_tokens":38}' }, { protocol: 'responses', route: 'count', stream: false }) as { body: string };
    expect(JSON.parse(count.body)).toEqual({ object: 'response.input_tokens', input_tokens: 38 });
  });
});

describe('the recording upstream answers a responses request in its protocol', () => {
  let up: RecordingUpstream;
  eachUpstream((u) => (up = u));

  const send = async (token: string, stream: boolean) => {
    const m = minimalRequest('responses', { text: `${token} hello`, stream });
    const r = await request(`${up.url}${m.path}`, { method: 'POST', headers: Object.fromEntries(m.headers), body: withToken(m.body, token) });
    return { status: r.statusCode, type: String(r.headers['content-type']), text: await r.body.text() };
  };

  it('a chat completion scripted by a chat check arrives as a response object', async () => {
    const e = new UpstreamHandle(up, 'chat').register(chatJsonReply(chatCompletion({ content: 'tok: __T__' })));
    const got = await send(e.token, false);
    expect(JSON.parse(got.text)).toMatchObject({ object: 'response', status: 'completed', output: [{ type: 'message', content: [{ type: 'output_text', text: 'tok: __T__' }] }] });
    expect(e.hits[0]).toMatchObject({ protocol: 'responses', route: 'generate', answeredIn: 'responses' });
  });

  it('a chat stream reaches a streamed responses request (body stream: true) as named events', async () => {
    const e = new UpstreamHandle(up, 'chat').register(chatSseReply(chatFrames(chatStream({ pieces: ['x', 'y'] }))));
    const got = await send(e.token, true);
    expect(got.type).toMatch(/text\/event-stream/);
    const types = events(got.text).map((x) => x.data.type);
    expect(types[0]).toBe('response.created');
    expect(types[types.length - 1]).toBe('response.completed');
    expect(events(got.text).filter((x) => x.data.type === 'response.output_text.delta').map((x) => x.data.delta)).toEqual(['x', 'y']);
  });

  it('a messages answer reaches it as a response object with the case token', async () => {
    const e = new UpstreamHandle(up, 'messages').next().json(messageBody({ text: 'tok: __T__' }));
    const got = await send(e.token, false);
    expect(RECORDS.responses.replies.readAnswer(got.text)?.text).toBe('tok: __T__');
    expect(eventType('event: x\ndata: {"type":"response.created"}\n\n')).toBe('response.created');
  });
});
