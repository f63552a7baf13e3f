// The Bedrock InvokeModel protocol: its record (paths with the model id in either form, the
// body without `model`), the AWS event-stream framing (round trip, re-chunking, a broken
// checksum, a truncated end, the hex dump of one message), and the recording upstream answering a Bedrock request in
// Bedrock form when the script was written in the messages protocol.
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import fc from 'fast-check';
import type { RecordingUpstream } from '../../../mocks/upstream/server.js';
import { eachUpstream } from '../../helpers/each-upstream.js';
import { UpstreamHandle } from '../../../src/upstream/handle.js';
import { RECORDS, minimalRequest, routeOfRequest, translateReply } from '../../../src/protocols/index.js';
import { decodeMessage, encodeFrame, exceptionText, FrameDecoder, isEventStreamType, messageHexDump } from '../../../src/core/framing.js';
import { collector } from '../../../src/client/collect.js';
import { errorBody, messageBody, frames, messageStream } from '../../../src/protocols/messages/index.js';
import { BEDROCK_MODEL, bedrockStream, awsSdkModel, bedrockModelOf, bedrockPath } from '../../../src/protocols/bedrock/index.js';
import { withToken } from '../../../src/upstream/contract.js';
import { JSON_HEADERS, SSE_HEADERS } from '../../../src/upstream/scenario.js';

const BR = RECORDS.bedrock;

describe('the bedrock record', () => {
  it('recognises its three routes with the model id literal or percent-encoded, and reads the id back whole', () => {
    for (const model of [BEDROCK_MODEL, awsSdkModel(BEDROCK_MODEL)]) {
      expect(routeOfRequest('POST', bedrockPath(model), [])).toEqual({ protocol: 'bedrock', route: 'generate' });
      expect(routeOfRequest('POST', bedrockPath(model, 'invoke-with-response-stream'), [])).toEqual({ protocol: 'bedrock', route: 'stream' });
      expect(routeOfRequest('POST', bedrockPath(model, 'count-tokens'), [])).toEqual({ protocol: 'bedrock', route: 'count' });
      expect(bedrockModelOf(bedrockPath(model))).toBe(BEDROCK_MODEL);
    }
    expect(awsSdkModel(BEDROCK_MODEL)).toBe('us.anthropic.claude-sonnet-4-5-20250929-v1%3A0');
    expect(routeOfRequest('GET', bedrockPath(), [])).toBeNull();
    expect(routeOfRequest('POST', '/model/x/converse', [])).toBeNull();
  });

  it('sends a messages body with anthropic_version and no model; reads the model from the path and the stream from the route', () => {
    const m = minimalRequest('bedrock', { text: 'hi', stream: true });
    const body = JSON.parse(m.body);
    expect(body.anthropic_version).toBe('bedrock-2023-05-31');
    expect(body.model).toBeUndefined();
    expect(m.path).toBe(`/model/${BEDROCK_MODEL}/invoke-with-response-stream`);
    expect(BR.readRequest(m.path, m.body)).toMatchObject({ model: BEDROCK_MODEL, stream: true, turns: [{ role: 'user', text: 'hi' }] });
    const count = JSON.stringify({ input: { invokeModel: { body: m.body } } });
    expect(BR.readRequest(bedrockPath(awsSdkModel(BEDROCK_MODEL), 'count-tokens'), count)).toMatchObject({ model: BEDROCK_MODEL, stream: false });
  });
});

describe('AWS event-stream framing', () => {
  it('a chunk and an exception survive encoding and decoding, with their headers', () => {
    const chunk = decodeMessage(encodeFrame('{"type":"ping"}'));
    expect(chunk).toMatchObject({ ok: true, messageType: 'event', eventType: 'chunk', contentType: 'application/json', text: '{"type":"ping"}' });
    const ex = decodeMessage(encodeFrame(exceptionText('throttlingException', 'Too many requests')));
    expect(ex).toMatchObject({ ok: true, messageType: 'exception', exceptionType: 'throttlingException', text: exceptionText('throttlingException', 'Too many requests') });
  });

  it('decodes a stream cut into chunks anywhere into the same messages, in order', () => {
    const texts = bedrockStream({ textDeltas: 3 });
    const wire = Buffer.concat(texts.map((t) => encodeFrame(t)));
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: wire.length - 1 }), { maxLength: 12 }), (cuts) => {
        const d = new FrameDecoder();
        const at = [0, ...cuts.sort((a, b) => a - b), wire.length];
        const got = at.slice(1).flatMap((end, i) => d.push(wire.subarray(at[i], end)));
        expect(got.map((f) => f.text)).toEqual(texts);
        expect(got.every((f) => f.ok)).toBe(true);
        expect(d.end()).toBeNull();
      }),
      { numRuns: 50, seed: 3 },
    );
  });

  it('names a broken checksum and a truncated end the way an SDK fails on them', () => {
    const m = Buffer.from(encodeFrame('{"type":"message_stop"}'));
    m[m.length - 6] ^= 0xff;
    const bad = decodeMessage(m);
    expect(bad.ok).toBe(false);
    expect(bad.problem).toMatch(/checksum/);
    const d = new FrameDecoder();
    d.push(Buffer.from(encodeFrame('{"type":"ping"}')).subarray(0, 20));
    expect(d.end()).toMatch(/^Truncated event message received/);
    expect(isEventStreamType('application/vnd.amazon.eventstream')).toBe(true);
  });

  it('dumps the bytes of one message of a body in hex, located by the lengths of the messages before it, its printable bytes as text', () => {
    const one = encodeFrame('{"type":"ping"}');
    const two = encodeFrame('{"type":"message_stop"}');
    const raw = Buffer.concat([one, two]);
    const frames = [decodeMessage(one), decodeMessage(two)];
    const dump = messageHexDump(raw, frames, 1);
    expect(dump).toHaveLength(Math.ceil(two.length / 16));
    expect(dump[0]).toMatch(new RegExp(`^${one.length.toString(16).padStart(8, '0')}  ${[...two.subarray(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join(' ')}  \\|`));
    expect(dump[2]).toContain('|.:content-type..|');
    // A longer message is cut at the bound, and says how much is left out.
    const cut = messageHexDump(raw, frames, 1, 32);
    expect(cut).toHaveLength(3);
    expect(cut[2]).toBe(`... ${two.length - 32} more bytes of this message`);
  });

  it('the client\'s collector stamps each decoded message as an event with its verdict', () => {
    const k = collector(0, 'aws-eventstream');
    const wire = Buffer.concat(['{"a":1}', '{"b":2}'].map((t) => encodeFrame(t)));
    k.feed(wire.subarray(0, 30), 5);
    k.feed(wire.subarray(30), 9);
    expect(k.events.map((e) => [e.event, e.data, e.arrivedAt, e.frame?.ok])).toEqual([['chunk', '{"a":1}', 9, true], ['chunk', '{"b":2}', 9, true]]);
    expect(k.framingEnd()).toBeNull();
  });
});

describe('a messages-protocol script answers a bedrock request in bedrock form', () => {
  it('translates a stream into event-stream frames carrying the messages events, and an error into x-amzn-errortype and {"message"}', () => {
    const scripted = { kind: 'sse' as const, protocol: 'messages' as const, status: 200, headers: SSE_HEADERS, frames: frames(messageStream({ full: false, textDeltas: 2 }), { gapMs: 30 }) };
    const out = translateReply(scripted, { protocol: 'bedrock', route: 'stream', stream: true });
    expect(out).toMatchObject({ kind: 'sse', framing: 'aws-eventstream', protocol: 'bedrock' });
    const texts = (out as { frames: Array<{ data: string }> }).frames.map((f) => JSON.parse(f.data).type);
    expect(texts[0]).toBe('message_start');
    expect(texts[texts.length - 1]).toBe('message_stop');
    const err = translateReply({ kind: 'json', protocol: 'messages', status: 429, headers: [...JSON_HEADERS, ['retry-after', '9']], body: errorBody(429, 'slow down') }, { protocol: 'bedrock', route: 'generate', stream: false }) as { headers: Array<[string, string]>; body: string };
    expect(JSON.parse(err.body)).toEqual({ message: 'slow down' });
    expect(err.headers).toContainEqual(['x-amzn-errortype', 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/']);
    expect(err.headers).toContainEqual(['retry-after', '9']);
  });

  let up: RecordingUpstream;
  eachUpstream((u) => (up = u));

  it('over the wire: a streamed messages script reaches /model/{id}/invoke-with-response-stream as valid event-stream messages', async () => {
    const e = new UpstreamHandle(up, 'messages').next().sse(frames(messageStream({ full: false, textDeltas: 2 })));
    const m = minimalRequest('bedrock', { text: `${e.token} hi`, stream: true });
    const r = await request(`${up.url}${bedrockPath(awsSdkModel(BEDROCK_MODEL), 'invoke-with-response-stream')}`, { method: 'POST', headers: Object.fromEntries(m.headers), body: withToken(m.body, e.token) });
    expect(String(r.headers['content-type'])).toBe('application/vnd.amazon.eventstream');
    const d = new FrameDecoder();
    const got = d.push(Buffer.from(await r.body.arrayBuffer()));
    expect(d.end()).toBeNull();
    expect(got.every((f) => f.ok && f.eventType === 'chunk')).toBe(true);
    expect(got.map((f) => JSON.parse(f.text).type)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    expect(e.hits[0]).toMatchObject({ protocol: 'bedrock', route: 'stream', answeredIn: 'bedrock' });
    const json = new UpstreamHandle(up, 'messages').next().json(messageBody({ text: 'plain' }));
    const r2 = await request(`${up.url}${bedrockPath()}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: withToken(minimalRequest('bedrock', { text: `${json.token} hi` }).body, json.token) });
    expect(BR.replies.readAnswer(await r2.body.text())?.text).toBe('plain');
  });
});
