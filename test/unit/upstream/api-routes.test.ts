// The routes beyond inference (the records' apiRoutes: compaction, stored responses and their
// cancel, files, batches, Codex's catalog): which protocol a request on one is, the recording
// upstream answering an error in the protocol the route is addressed in, and the reference
// gateway forwarding them while a path of no protocol stays a 404 of its own.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { apiPath, apiRouteOf, protocolOfPath, routeOfRequest } from '../../../src/protocols/index.js';
import { RecordingUpstream } from '../../../mocks/upstream/server.js';
import { ReferenceGateway } from '../../../reference/gateway.js';
import { UpstreamHandle } from '../../../src/upstream/handle.js';
import { eachUpstream } from '../../helpers/each-upstream.js';

const V: Array<[string, string]> = [['anthropic-version', '2023-06-01']];

describe('apiRouteOf', () => {
  it('finds each route in the protocol that has it', () => {
    expect(apiRouteOf('POST', '/v1/responses/compact', [])).toEqual({ protocol: 'responses', route: 'compact' });
    expect(apiRouteOf('GET', '/v1/responses/resp_1', [])).toEqual({ protocol: 'responses', route: 'stored-response' });
    expect(apiRouteOf('POST', '/v1/responses/resp_1/cancel', [])).toEqual({ protocol: 'responses', route: 'cancel-response' });
    expect(apiRouteOf('GET', '/v1/models?client_version=0.171.0', [])).toEqual({ protocol: 'responses', route: 'client-catalog' });
    expect(apiRouteOf('GET', '/v1/messages/batches/msgbatch_1', V)).toEqual({ protocol: 'messages', route: 'batch' });
    expect(apiRouteOf('GET', '/v1/batches/batch_1', [])).toEqual({ protocol: 'chat', route: 'batch' });
  });

  it("tells the messages protocol's files upload from OpenAI's by its version header", () => {
    expect(apiRouteOf('POST', '/v1/files', V)).toEqual({ protocol: 'messages', route: 'files' });
    expect(apiRouteOf('POST', '/v1/files', [])).toEqual({ protocol: 'chat', route: 'files' });
  });

  it('leaves the inference routes and a plain model list to routeOfRequest', () => {
    expect(apiRouteOf('POST', '/v1/responses', [])).toBeNull();
    expect(apiRouteOf('POST', '/v1/responses/input_tokens', [])).toBeNull();
    expect(routeOfRequest('POST', '/v1/responses/input_tokens', [])?.route).toBe('count');
    expect(apiRouteOf('GET', '/v1/models?limit=1000', [])).toBeNull();
    expect(apiRouteOf('DELETE', '/v1/responses/resp_1', [])).toBeNull();
  });

  it("gives the client's targeting the route's protocol", () => {
    expect(protocolOfPath(apiPath('responses', 'stored-response', 'resp_1'))).toBe('responses');
    expect(protocolOfPath(apiPath('responses', 'client-catalog', '0.171.0'))).toBe('responses');
    expect(protocolOfPath(apiPath('chat', 'batch', 'batch_1'))).toBe('chat');
    expect(protocolOfPath(apiPath('messages', 'files'))).toBe('messages');
    expect(protocolOfPath('/v1/models?limit=1000')).toBe('messages');
  });
});

describe('the recording upstream on routes beyond inference', () => {
  let up: RecordingUpstream;
  eachUpstream((u) => (up = u));

  it("answers an error scripted in one protocol in the route's, and records the route", async () => {
    const e = new UpstreamHandle(up).register({ kind: 'json', protocol: 'messages', status: 404, headers: [['content-type', 'application/json']], body: JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'no such batch' } }) });
    const res = await request(`${up.url}/v1/batches/batch_${e.token}`);
    expect(res.statusCode).toBe(404);
    const body = (await res.body.json()) as { error?: { message?: string; type?: string } };
    expect(body.error?.message).toBe('no such batch');
    expect(body).not.toHaveProperty('type');
    const seen = await e.received();
    expect([seen?.protocol, seen?.apiRoute, seen?.answeredIn, seen?.matchedBy]).toEqual(['chat', 'batch', 'chat', 'url']);
  });

  it("plays a route's own body as scripted", async () => {
    const catalog = JSON.stringify({ models: [{ slug: 'gpt-5.5' }] });
    const e = new UpstreamHandle(up).register({ kind: 'json', protocol: 'responses', status: 200, headers: [['content-type', 'application/json']], body: catalog });
    const res = await request(`${up.url}/v1/models?client_version=0.171.0`, { headers: { 'x-gwc-case': e.token } });
    expect(await res.body.text()).toBe(catalog);
    expect((await e.received())?.apiRoute).toBe('client-catalog');
  });
});

describe('the reference gateway on routes beyond inference', () => {
  let up: RecordingUpstream;
  let gw: ReferenceGateway;
  let target: string;
  beforeEach(async () => {
    up = new RecordingUpstream();
    await up.start();
    gw = new ReferenceGateway({ upstream: up.url });
    target = await gw.start('127.0.0.1', 0);
  });
  afterEach(async () => {
    await gw.stop();
    await up.stop();
  });

  it('forwards a stored response read back, and answers a path of no protocol itself', async () => {
    const e = new UpstreamHandle(up).register({ kind: 'json', protocol: 'responses', status: 200, headers: [['content-type', 'application/json']], body: '{"object":"response"}' });
    const res = await request(`${target}/v1/responses/resp_${e.token}`);
    expect(await res.body.text()).toBe('{"object":"response"}');
    expect((await e.received())?.url).toBe(`/v1/responses/resp_${e.token}`);
    const none = await request(`${target}/v1/nowhere`);
    expect(none.statusCode).toBe(404);
    expect(await none.body.text()).toMatch(/no route for GET \/v1\/nowhere/);
  });
});
