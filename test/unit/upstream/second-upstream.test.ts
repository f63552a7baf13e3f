// The second upstream the recording upstream stands for (src/core/second-upstream.ts): a request
// under its prefix is recorded as the second upstream's, with the first's path, and answered what
// the case scripted for it; and the reference gateway's declared fallback (reference/fallback.ts)
// goes there with its own credential, for its one model only.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { RecordingUpstream } from '../../../mocks/upstream/server.js';
import { ReferenceGateway } from '../../../reference/gateway.js';
import { SECOND_UPSTREAM_KEY } from '../../../reference/fallback.js';
import { FALLBACK_MODEL, SECOND_UPSTREAM_PREFIX, underSecondUpstream } from '../../../src/core/second-upstream.js';
import { headerValues } from '../../../src/upstream/record.js';
import { JSON_HEADERS, type JsonReply } from '../../../src/upstream/scenario.js';
import { errorBody, messageBody } from '../../../src/protocols/messages/index.js';

const firstError: Omit<JsonReply, 'second'> = { kind: 'json', protocol: 'messages', status: 529, headers: [...JSON_HEADERS, ['x-first', 'yes']], body: errorBody(529, 'first is overloaded') };
const secondAnswer: JsonReply = { kind: 'json', protocol: 'messages', status: 200, headers: JSON_HEADERS, body: messageBody({ text: 'from the second' }) };
const bodyFor = (token: string, model: string) => JSON.stringify({ model, max_tokens: 16, messages: [{ role: 'user', content: `${token} hi` }] });

describe('the prefix of the second upstream', () => {
  it('is taken off a path under it, and only there', () => {
    expect(underSecondUpstream(`${SECOND_UPSTREAM_PREFIX}/v1/messages?beta=true`)).toBe('/v1/messages?beta=true');
    expect(underSecondUpstream(SECOND_UPSTREAM_PREFIX)).toBe('/');
    expect(underSecondUpstream('/v1/messages')).toBeNull();
    expect(underSecondUpstream(`${SECOND_UPSTREAM_PREFIX}x/v1/messages`)).toBeNull();
  });
});

describe('the recording upstream as two upstreams', () => {
  let up: RecordingUpstream;
  beforeEach(async () => {
    up = new RecordingUpstream();
    await up.start('127.0.0.1', 0);
  });
  afterEach(() => up.stop());

  it("records a request under the prefix as the second upstream's and answers it what the case scripted for it", async () => {
    const e = up.expect({ ...firstError, second: secondAnswer });
    const post = (path: string) => request(`${up.url}${path}`, { method: 'POST', body: bodyFor(e.token, 'm'), headers: { 'content-type': 'application/json' } });
    const a = await post('/v1/messages');
    const b = await post(`${SECOND_UPSTREAM_PREFIX}/v1/messages`);
    expect([a.statusCode, b.statusCode]).toEqual([529, 200]);
    expect(await b.body.text()).toContain('from the second');
    await a.body.dump();
    expect(e.hits.map((h) => [h.upstream ?? 'first', h.url, h.protocol])).toEqual([
      ['first', '/v1/messages', 'messages'],
      ['second', '/v1/messages', 'messages'],
    ]);
  });

  it('sees the second upstream under a prefix the gateway forwards under too', async () => {
    up.forwardsUnder(['/anthropic']);
    const e = up.expect({ ...firstError, second: secondAnswer });
    const b = await request(`${up.url}/anthropic${SECOND_UPSTREAM_PREFIX}/v1/messages`, { method: 'POST', body: bodyFor(e.token, 'm'), headers: { 'content-type': 'application/json' } });
    expect(b.statusCode).toBe(200);
    await b.body.dump();
    expect([e.hits[0]?.upstream, e.hits[0]?.url]).toEqual(['second', '/v1/messages']);
  });

  it('answers the second upstream as the first when the case scripted nothing for it', async () => {
    const e = up.expect(firstError);
    const b = await request(`${up.url}${SECOND_UPSTREAM_PREFIX}/v1/messages`, { method: 'POST', body: bodyFor(e.token, 'm'), headers: { 'content-type': 'application/json' } });
    expect(b.statusCode).toBe(529);
    await b.body.dump();
    expect(e.hits[0]?.upstream).toBe('second');
  });
});

describe("the reference gateway's declared fallback", () => {
  let up: RecordingUpstream;
  let gw: ReferenceGateway;
  beforeEach(async () => {
    up = new RecordingUpstream();
    await up.start('127.0.0.1', 0);
    gw = new ReferenceGateway({ upstream: up.url });
    await gw.start('127.0.0.1', 0);
  });
  afterEach(async () => {
    await gw.stop();
    await up.stop();
  });
  const send = (token: string, model: string) => request(`${gw.url}/v1/messages`, { method: 'POST', body: bodyFor(token, model), headers: { 'content-type': 'application/json', 'x-api-key': 'sk-client-key-0001', 'anthropic-version': '2023-06-01' } });

  it("falls back on a 5xx for its model, with the second upstream's own credential, and answers from it alone", async () => {
    const e = up.expect({ ...firstError, second: secondAnswer });
    const r = await send(e.token, FALLBACK_MODEL);
    expect(r.statusCode).toBe(200);
    expect(r.headers['x-first']).toBeUndefined();
    expect(await r.body.text()).toContain('from the second');
    expect(e.hits.map((h) => [h.upstream ?? 'first', headerValues(h, 'x-api-key')])).toEqual([
      ['first', ['sk-client-key-0001']],
      ['second', [SECOND_UPSTREAM_KEY]],
    ]);
  });

  it("puts the second upstream's own key in place of a `key` in the query", async () => {
    const e = up.expect({ ...firstError, second: secondAnswer });
    const r = await request(`${gw.url}/v1/messages?key=sk-client-query-key`, { method: 'POST', body: bodyFor(e.token, FALLBACK_MODEL), headers: { 'content-type': 'application/json' } });
    expect(r.statusCode).toBe(200);
    await r.body.dump();
    expect(e.hits.map((h) => new URLSearchParams(h.url.split('?')[1]).get('key'))).toEqual(['sk-client-query-key', SECOND_UPSTREAM_KEY]);
  });

  it('passes the 5xx of any other model on as it came, without a fallback', async () => {
    const e = up.expect({ ...firstError, second: secondAnswer });
    const r = await send(e.token, 'claude-sonnet-4-5');
    expect(r.statusCode).toBe(529);
    await r.body.dump();
    expect(e.hits.map((h) => h.upstream ?? 'first')).toEqual(['first']);
  });
});
