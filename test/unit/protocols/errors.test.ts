// Error-area helpers and plumbing: response shapes, large bodies, retry headers, the
// upstream's suspend/resume and hit counting, and the fault hook that limits buffering.
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { RecordingUpstream } from '../../../mocks/upstream/server.js';
import { eachUpstream } from '../../helpers/each-upstream.js';
import { UpstreamHandle } from '../../../src/upstream/handle.js';
import { retryGuidanceHeaders, ERROR_MESSAGES, ERROR_TYPES } from '../../../src/protocols/messages/index.js';
import { ReferenceGateway } from '../../../reference/gateway.js';
import { faultByName } from '../../../reference/faults/index.js';
import { errorFields, isJsonError, looksHtml, shapeOf, withBound } from '../../../suites/shared/shape.js';
import { imageData, largeBody } from '../../../suites/errors/errors.body.large.js';
import { STATUSES } from '../../../suites/errors/errors.passthrough.status.js';
import { CASE_PLACEHOLDER } from '../../../src/upstream/contract.js';
import { fakeResponse } from '../../helpers/response.js';

describe('response shapes', () => {
  it('tells a JSON error from an HTML page, whatever the content-type claims', () => {
    const json = shapeOf(fakeResponse(502, [['content-type', 'application/json']], '{"type":"error","error":{"type":"api_error","message":"upstream unreachable"}}'));
    expect(isJsonError(json)).toBe(true);
    const nginx = shapeOf(fakeResponse(502, [['content-type', 'text/html']], '<html>\r\n<head><title>502 Bad Gateway</title></head>'));
    expect(nginx).toMatchObject({ json: false, html: true });
    // An HTML page served as text/plain is still a page.
    expect(looksHtml('text/plain', '  <!DOCTYPE html><html>')).toBe(true);
    // JSON served as text/html is not an API answer a client reads.
    expect(shapeOf(fakeResponse(500, [['content-type', 'text/html']], '{"error":{}}')).json).toBe(false);
    // A JSON body without an error object is no explicit error.
    expect(isJsonError(shapeOf(fakeResponse(500, [['content-type', 'application/json']], '{"ok":false}')))).toBe(false);
  });

  it('reads type, error.type and error.message', () => {
    expect(errorFields({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })).toEqual({ kind: 'error', type: 'overloaded_error', message: 'Overloaded' });
    expect(errorFields({ error: 'string' })).toBeNull();
    expect(errorFields(null)).toBeNull();
  });

  it('every status of the catalog has a type and a realistic message', () => {
    expect(STATUSES).toEqual([400, 401, 402, 403, 404, 409, 413, 429, 500, 504, 529]);
    for (const s of STATUSES) {
      expect(ERROR_TYPES[s], String(s)).toBeTypeOf('string');
      expect(ERROR_MESSAGES[s], String(s)).toBeTypeOf('string');
    }
  });
});

describe('large bodies', () => {
  it('are exactly the size asked for once the placeholder becomes a case token', () => {
    const data = imageData(2 * 1024 * 1024, 7);
    const token = 'gwc-0123456789abcdef';
    for (const bytes of [1024 * 1024, 1024 * 1024 + 3, 2 * 1024 * 1024]) {
      const { text, dataLength } = largeBody(bytes, data);
      const sent = text.split(CASE_PLACEHOLDER).join(token);
      expect(Buffer.byteLength(sent)).toBe(bytes);
      const parsed = JSON.parse(sent);
      expect(parsed.messages[0].content[1].source.data).toHaveLength(dataLength);
      expect(dataLength % 4).toBe(0);
    }
  });

  it('carry valid base64 of a PNG-looking image, the same for the same seed', () => {
    const a = imageData(4096, 1);
    expect(a).toMatch(/^iVBORw0KGgoAAAANSUhEU[A-Za-z0-9+/]+$/);
    expect(a).toHaveLength(4096);
    expect(Buffer.from(a, 'base64').subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(imageData(4096, 1)).toBe(a);
    expect(imageData(4096, 2)).not.toBe(a);
  });
});

describe('retry guidance headers', () => {
  it('has retry-after, retry-after-ms, x-should-retry, request-id and the four rate-limit families with RFC 3339 resets', () => {
    const h = retryGuidanceHeaders(429, Date.UTC(2025, 0, 1));
    const names = h.map(([k]) => k);
    for (const n of ['retry-after', 'retry-after-ms', 'x-should-retry', 'request-id']) expect(names).toContain(n);
    for (const kind of ['requests', 'tokens', 'input-tokens', 'output-tokens'])
      for (const part of ['limit', 'remaining', 'reset']) expect(names).toContain(`anthropic-ratelimit-${kind}-${part}`);
    expect(Object.fromEntries(h)['anthropic-ratelimit-requests-reset']).toBe('2025-01-01T00:00:17Z');
    expect(Object.fromEntries(h)['anthropic-ratelimit-requests-remaining']).toBe('0');
  });
});

describe('recording upstream: suspend, resume, hit counting', () => {
  let up: RecordingUpstream;
  eachUpstream((u) => (up = u));

  it('suspendUpstream refuses connections until resumeUpstream', async () => {
    const h = new UpstreamHandle(up);
    await h.suspendUpstream();
    await expect(request(`${up.url}/v1/messages`, { method: 'POST', body: '{}' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await h.resumeUpstream();
    const e = h.next().json('{"ok":true}');
    const r = await request(`${up.url}/v1/messages`, { method: 'POST', body: `{"t":"${e.token}"}` });
    expect(await r.body.text()).toBe('{"ok":true}');
  });

  it('release() brings back an upstream a check left suspended', async () => {
    const h = new UpstreamHandle(up);
    await h.suspendUpstream();
    h.release();
    const e = new UpstreamHandle(up).next().json('{"ok":true}');
    // resume() is under way; the next request waits for the listener, not a fixed time.
    for (let i = 0; i < 50; i++) {
      const ok = await request(`${up.url}/v1/messages`, { method: 'POST', body: `{"t":"${e.token}"}` }).then(
        (r) => r.body.text(),
        () => null,
      );
      if (ok) return expect(ok).toBe('{"ok":true}');
      await new Promise((r) => setImmediate(r));
    }
    expect.fail('the upstream did not come back');
  });

  it('waitForHits wakes on each arrival and is bounded when none comes', async () => {
    const e = new UpstreamHandle(up).next().json('{}');
    const send = () => request(`${up.url}/v1/messages`, { method: 'POST', body: `{"t":"${e.token}"}` }).then((r) => r.body.text());
    await send();
    expect(await e.waitForHits(1, 50)).toBe(1);
    const waiting = e.waitForHits(3, 5000);
    await send();
    await send();
    const t0 = Date.now();
    expect(await waiting).toBe(3);
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(await e.waitForHits(4, 50)).toBe(3);
  });
});

describe('reference gateway: responseWhen limits a fault\'s rewriting', () => {
  let up: RecordingUpstream;
  let gw: ReferenceGateway;
  afterEach(async () => {
    await gw?.stop();
    await up?.stop();
  });

  it('rewrites only the requests it targets; the others are forwarded as they came', async () => {
    up = new RecordingUpstream();
    await up.start();
    gw = new ReferenceGateway({
      upstream: up.url,
      fault: { name: 't', breaks: [], description: 't', responseWhen: (r) => r.path.startsWith('/v1/models'), response: () => ({ status: 418, headers: {}, body: Buffer.from('rewritten') }) },
    });
    const url = await gw.start();
    const h = new UpstreamHandle(up);
    const models = h.next().json('{"data":[]}');
    const r1 = await request(`${url}/v1/models?limit=1000`, { headers: { 'x-gwc-case': models.token } });
    expect([r1.statusCode, await r1.body.text()]).toEqual([418, 'rewritten']);
    const msg = h.next().json('{"ok":true}');
    const r2 = await request(`${url}/v1/messages`, { method: 'POST', body: `{"t":"${msg.token}"}` });
    expect([r2.statusCode, await r2.body.text()]).toEqual([200, '{"ok":true}']);
  });

  it('wrap-upstream-errors wraps a plain error but leaves a stream request\'s answer alone', async () => {
    up = new RecordingUpstream();
    await up.start();
    gw = new ReferenceGateway({ upstream: up.url, fault: faultByName('wrap-upstream-errors') });
    const url = await gw.start();
    const h = new UpstreamHandle(up);
    const plainErr = h.next().error(429);
    const r1 = await request(`${url}/v1/messages`, { method: 'POST', body: `{"t":"${plainErr.token}"}` });
    expect(r1.statusCode).toBe(502);
    expect(await r1.body.json()).toMatchObject({ error: { type: 'upstream_error' } });
    const streamErr = h.next().error(429);
    const r2 = await request(`${url}/v1/messages`, { method: 'POST', body: `{"t":"${streamErr.token}","stream":true}` });
    expect(r2.statusCode).toBe(429);
    expect(await r2.body.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  });
});

describe('withBound', () => {
  it('aborts at its bound with a TimeoutError, and leaves no listener behind', async () => {
    const parent = new AbortController();
    const t0 = Date.now();
    const err = await withBound(parent.signal, 50, (s) => new Promise((_, reject) => s.addEventListener('abort', () => reject(s.reason)))).catch((e) => e);
    expect((err as Error).name).toBe('TimeoutError');
    expect(Date.now() - t0).toBeLessThan(2000);
    // Many bounded calls on one check signal do not pile up listeners (MaxListenersExceededWarning).
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    for (let i = 0; i < 20; i++) await withBound(parent.signal, 1000, async () => i);
    await new Promise((r) => setImmediate(r));
    process.off('warning', onWarning);
    expect(warnings).toEqual([]);
  });

  it('follows the check\'s own signal', async () => {
    const parent = new AbortController();
    const run = withBound(parent.signal, 10_000, (s) => new Promise((_, reject) => s.addEventListener('abort', () => reject(s.reason))));
    parent.abort(new Error('check time limit'));
    await expect(run).rejects.toThrow('check time limit');
  });
});
