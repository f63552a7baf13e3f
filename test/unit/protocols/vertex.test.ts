// The vertex protocol's record (Anthropic models on Vertex AI rawPredict): its paths keep the
// model's `@` and the method's `:`, a request reads by meaning with the model from the path (the
// count's from its body), both error shapes read back, the run's project and region fill the
// paths, and the recording upstream answers a vertex request in vertex form when the check
// scripted its reply in the messages protocol.
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import type { RecordingUpstream } from '../../../mocks/upstream/server.js';
import { eachUpstream } from '../../helpers/each-upstream.js';
import { UpstreamHandle } from '../../../src/upstream/handle.js';
import { GatewayClient } from '../../../src/client/gateway.js';
import { PROTOCOLS, RECORDS, minimalRequest, routeOfRequest, pathFamily, type Protocol, translateReply } from '../../../src/protocols/index.js';
import { errorBody, messageBody, frames, messageStream } from '../../../src/protocols/messages/index.js';
import { vertexGatewayError, VERTEX_VERSION, vertexCountPath, vertexPath } from '../../../src/protocols/vertex/index.js';
import { withToken } from '../../../src/upstream/contract.js';
import { JSON_HEADERS, SSE_HEADERS } from '../../../src/upstream/scenario.js';

const V = RECORDS.vertex;
const BASE = '/v1/projects/gwc-project/locations/us-east5/publishers/anthropic/models';

describe('the vertex record', () => {
  it('writes the paths with the model, its @, and the method after an unencoded colon', () => {
    expect(V.paths.generate!('claude-sonnet-4-5@20250929')).toBe(`${BASE}/claude-sonnet-4-5@20250929:rawPredict`);
    expect(V.paths.stream!('claude-opus-4-1@20250805')).toBe(`${BASE}/claude-opus-4-1@20250805:streamRawPredict`);
    expect(V.paths.count!('any')).toBe(`${BASE}/count-tokens:rawPredict`);
    expect(V.paths.models).toBeNull();
  });

  it('recognises its routes under any project and region, an encoded colon too, and nothing else', () => {
    const route = (m: string, p: string) => V.routeOf(m, p, []);
    expect(route('POST', vertexPath('claude-sonnet-4-5@20250929'))).toBe('generate');
    expect(route('POST', vertexPath('claude-sonnet-4-5@20250929', true, { project: 'p-1', region: 'global' }))).toBe('stream');
    expect(route('POST', vertexCountPath())).toBe('count');
    expect(route('POST', `${BASE}/claude-sonnet-4-5%4020250929%3ArawPredict`)).toBe('generate');
    expect(route('POST', `${BASE}/count-tokens:streamRawPredict`)).toBeNull();
    expect(route('GET', vertexPath())).toBeNull();
    expect(route('POST', '/v1/messages')).toBeNull();
    expect(route('POST', '/v1/projects/p/locations/l/publishers/google/models/gemini-2.5-flash:generateContent')).toBeNull();
    expect(routeOfRequest('POST', vertexPath(), [])).toEqual({ protocol: 'vertex', route: 'generate' });
    expect(pathFamily(`/gw/vertex${vertexPath(undefined, true)}`)).toBe('vertex');
  });

  it('sends a messages body with anthropic_version and no model, with a bearer token', () => {
    const m = minimalRequest('vertex', { text: 'hi', stream: true });
    expect(m.auth).toBe('bearer');
    expect(m.path.endsWith(':streamRawPredict')).toBe(true);
    const body = JSON.parse(m.body);
    expect(body).toMatchObject({ anthropic_version: VERTEX_VERSION, stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect('model' in body).toBe(false);
  });

  it('reads a request with the model from the path, or from the body of a count', () => {
    const body = JSON.stringify({ anthropic_version: VERTEX_VERSION, max_tokens: 9, system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }] });
    expect(V.readRequest(vertexPath('claude-haiku-4-5@20251001', true), body)).toMatchObject({ model: 'claude-haiku-4-5@20251001', system: 'Be brief.', stream: true, params: { maxTokens: 9 } });
    const count = JSON.stringify({ anthropic_version: VERTEX_VERSION, model: 'claude-sonnet-4-5@20250929', messages: [{ role: 'user', content: 'hi' }] });
    expect(V.readRequest(vertexCountPath(), count)?.model).toBe('claude-sonnet-4-5@20250929');
    expect(V.readRequest(vertexPath(), '{"contents":[]}')).toBeNull();
  });

  it("reads back the model's error (Anthropic's body) and the front end's (Google's shape)", () => {
    expect(V.replies.readError(errorBody(529, 'Overloaded'), 529)).toEqual({ status: 529, message: 'Overloaded' });
    expect(V.replies.readError(vertexGatewayError(404, 'Publisher Model not found.'), 404)).toEqual({ status: 404, message: 'Publisher Model not found.' });
    expect(JSON.parse(vertexGatewayError(429)).error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
    expect(V.replies.readError('<html>502</html>', 502)).toBeNull();
  });

  it("fills the run's project and region into a path, leaving other paths alone", () => {
    const values = { project: 'my-proj', region: 'europe-west1' };
    expect(V.placeholders!.fill(vertexPath('claude-sonnet-4-5@20250929'), values)).toBe('/v1/projects/my-proj/locations/europe-west1/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict');
    expect(V.placeholders!.fill('/v1/messages', values)).toBe('/v1/messages');
  });

  it('the client sends to the filled path under the base path', () => {
    const plain = Object.fromEntries(PROTOCOLS.map((p) => [p, { basePath: '', headers: [] }])) as Record<Protocol, { basePath: string; headers: [] }>;
    const targeting = { ...plain, vertex: { basePath: '/vertex', headers: [], placeholders: { project: 'my-proj', region: 'global' } } };
    const c = new GatewayClient('http://127.0.0.1:9/gw', { token: 't', timeoutMs: 1000, targeting });
    expect(c.url(vertexCountPath())).toBe('http://127.0.0.1:9/gw/vertex/v1/projects/my-proj/locations/global/publishers/anthropic/models/count-tokens:rawPredict');
    expect(c.aimed(vertexPath())).toBe('/v1/projects/my-proj/locations/global/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict');
    expect(c.url('/v1/messages')).toBe('http://127.0.0.1:9/gw/v1/messages');
  });
});

describe('replies scripted in the messages protocol, rendered for a vertex arrival', () => {
  it('an answer, a stream, an error and a count keep their meaning in vertex form', () => {
    const json = translateReply({ kind: 'json', protocol: 'messages', status: 200, headers: JSON_HEADERS, body: messageBody({ text: 'tok' }) }, { protocol: 'vertex', route: 'generate', stream: false });
    expect(json).toMatchObject({ kind: 'json', protocol: 'vertex', status: 200 });
    expect(V.replies.readAnswer((json as { body: string }).body)?.text).toBe('tok');
    const sse = translateReply({ kind: 'sse', protocol: 'messages', status: 200, headers: SSE_HEADERS, frames: frames(messageStream({ full: false, textDeltas: 2 })) }, { protocol: 'vertex', route: 'stream', stream: true });
    expect(sse).toMatchObject({ kind: 'sse', protocol: 'vertex' });
    const data = (sse as { frames: Array<{ data: string }> }).frames.map((f) => f.data).join('');
    expect(data).toMatch(/^event: message_start\n/);
    expect(data).toContain('event: message_stop');
    const err = translateReply({ kind: 'json', protocol: 'messages', status: 529, headers: JSON_HEADERS, body: errorBody(529, 'Overloaded') }, { protocol: 'vertex', route: 'generate', stream: false });
    expect(JSON.parse((err as { body: string }).body)).toMatchObject({ type: 'error', error: { message: 'Overloaded' } });
    const count = translateReply({ kind: 'json', protocol: 'messages', status: 200, headers: JSON_HEADERS, body: '{"input_tokens":38}' }, { protocol: 'vertex', route: 'count', stream: false });
    expect(JSON.parse((count as { body: string }).body)).toEqual({ input_tokens: 38 });
  });

  it("a Google-shaped error scripted in vertex reaches a messages arrival as Anthropic's error", () => {
    const out = translateReply({ kind: 'json', protocol: 'vertex', status: 404, headers: JSON_HEADERS, body: vertexGatewayError(404, 'Publisher Model not found.') }, { protocol: 'messages', route: 'generate', stream: false });
    expect(JSON.parse((out as { body: string }).body)).toMatchObject({ type: 'error', error: { type: 'not_found_error', message: 'Publisher Model not found.' } });
  });
});

describe('the recording upstream on a vertex path', () => {
  let up: RecordingUpstream;
  eachUpstream((u) => (up = u));

  it('answers :streamRawPredict with a messages-protocol stream when the check scripted a messages stream', async () => {
    const e = new UpstreamHandle(up, 'messages').next().sse(frames(messageStream({ full: false, textDeltas: 2 })));
    const m = minimalRequest('vertex', { text: `${e.token} hi`, stream: true });
    const r = await request(`${up.url}${m.path}`, { method: 'POST', headers: Object.fromEntries(m.headers), body: withToken(m.body, e.token) });
    expect(String(r.headers['content-type'])).toMatch(/text\/event-stream/);
    const text = await r.body.text();
    expect(text).toContain('event: content_block_delta');
    expect(e.hits[0]).toMatchObject({ protocol: 'vertex', route: 'stream', answeredIn: 'vertex' });
  });
});
