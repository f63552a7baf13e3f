// Correlation of forwarded requests to checks, recording fidelity and loopback binding.
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import net from 'node:net';
import { Readable } from 'node:stream';
import { createHash } from 'node:crypto';
import { longStringDigest } from '../../../src/client/bounded.js';
import { RECORD_KEEP } from '../../../src/upstream/record.js';
import { RecordingUpstream } from '../../../mocks/upstream/server.js';
import { eachUpstream } from '../../helpers/each-upstream.js';
import { UpstreamHandle } from '../../../src/upstream/handle.js';
import fc from 'fast-check';
import { newCaseToken, tokensIn, tokensInBytes } from '../../../src/upstream/contract.js';

let up: RecordingUpstream;
eachUpstream((u) => (up = u));

/** Sends raw bytes so header case, order and duplicates are under the test's control. */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => s.write(text));
    let out = '';
    s.on('data', (d) => {
      out += d.toString();
      if (/\r\n\r\n[\s\S]*\}$/.test(out)) s.end();
    });
    s.on('end', () => resolve(out));
    s.on('error', reject);
  });
}

describe('recording upstream', () => {
  it('binds to loopback by default', () => {
    expect(up.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('ties a request to its case by the token in the body when the hint header was stripped', async () => {
    const h = new UpstreamHandle(up);
    const e = h.next().json('{"ok":true}');
    const res = await request(`${up.url}/v1/messages`, { method: 'POST', body: `{"text":"${e.token} hi"}` });
    expect(await res.body.text()).toBe('{"ok":true}');
    const seen = await e.received();
    expect(seen?.matchedBy).toBe('body');
  });

  it("answers a case's later requests with its later replies, the last one repeated", async () => {
    const h = new UpstreamHandle(up);
    const json = (body: string) => ({ kind: 'json' as const, status: 200, headers: [['content-type', 'application/json']] as Array<[string, string]>, body });
    const e = h.register({ ...json('{"n":1}'), later: [json('{"n":2}'), { kind: 'sse', status: 200, headers: [['content-type', 'text/event-stream']], frames: [{ gapMs: 0, data: 'data: 3\n\n' }] }] });
    const got: string[] = [];
    for (let i = 0; i < 4; i++) got.push(await (await request(`${up.url}/v1/messages`, { method: 'POST', body: `{"text":"${e.token}"}` })).body.text());
    expect(got).toEqual(['{"n":1}', '{"n":2}', 'data: 3\n\n', 'data: 3\n\n']);
    expect(e.hits).toHaveLength(4);
  });

  it('uses the header hint when the body lost the token', async () => {
    const e = new UpstreamHandle(up).next().json('{}');
    await (await request(`${up.url}/v1/messages`, { method: 'POST', body: '{}', headers: { 'x-gwc-case': e.token } })).body.text();
    expect((await e.received())?.matchedBy).toBe('header');
  });

  it('records raw bytes, headers in order with case and duplicates, and the query', async () => {
    const e = new UpstreamHandle(up).next().json('{}');
    const body = `{"a":1.0,"t":"${e.token}"}`;
    const port = Number(new URL(up.url).port);
    await rawRequest(port, `POST /v1/messages?beta=true HTTP/1.1\r\nHost: x\r\nX-Dup: 1\r\nanthropic-beta: a\r\nx-dup: 2\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
    const seen = await e.received();
    expect(seen?.url).toBe('/v1/messages?beta=true');
    expect(seen?.body.toString()).toBe(body);
    expect(seen?.rawHeaders.map(([k]) => k)).toEqual(['Host', 'X-Dup', 'anthropic-beta', 'x-dup', 'Content-Length', 'Connection']);
  });

  it('reports unmatched and late requests and answers them with a JSON error, never the scripted reply', async () => {
    const h = new UpstreamHandle(up);
    const e = h.next().json('{"secret":"scripted"}');
    const r1 = await request(`${up.url}/v1/messages`, { method: 'POST', body: '{"no":"token"}' });
    expect(r1.statusCode).toBe(404);
    expect(await r1.body.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    h.release();
    const r2 = await request(`${up.url}/v1/messages`, { method: 'POST', body: `{"t":"${e.token}"}` });
    expect(await r2.body.text()).not.toContain('scripted');
    expect(up.unmatched.map((u) => u.reason)).toEqual([expect.stringMatching(/no case token/), expect.stringMatching(/already ended/)]);
    expect(e.hits).toHaveLength(0);
  });

  it('received() resolves null within its grace when nothing arrives', async () => {
    const e = new UpstreamHandle(up).next().json('{}');
    expect(await e.received(50)).toBeNull();
  });

  it('answers 400 like the real API when a beta body field comes without its beta value', async () => {
    const e = new UpstreamHandle(up).next().json('{}', { betaForField: { context_management: 'context-management-2025-06-27' } });
    const body = `{"t":"${e.token}","context_management":{}}`;
    const r = await request(`${up.url}/v1/messages`, { method: 'POST', body });
    expect(r.statusCode).toBe(400);
    expect(await r.body.text()).toContain('Extra inputs are not permitted');
    const ok = new UpstreamHandle(up).next().json('{}', { betaForField: { context_management: 'context-management-2025-06-27' } });
    const r2 = await request(`${up.url}/v1/messages`, { method: 'POST', body: body.replace(e.token, ok.token), headers: { 'anthropic-beta': 'x,context-management-2025-06-27' } });
    expect(r2.statusCode).toBe(200);
    await r2.body.dump();
  });

  it('a beta field inside an array (tools[].defer_loading) needs its beta value too', async () => {
    const pair = { 'tools[].defer_loading': 'advanced-tool-use-2025-11-20' };
    const without = new UpstreamHandle(up).next().json('{}', { betaForField: pair });
    const r = await request(`${up.url}/v1/messages`, { method: 'POST', body: `{"t":"${without.token}","tools":[{"name":"a"},{"name":"b","defer_loading":true}]}` });
    expect(r.statusCode).toBe(400);
    expect(await r.body.text()).toContain('tools[].defer_loading: Extra inputs are not permitted');
    const plain = new UpstreamHandle(up).next().json('{}', { betaForField: pair });
    const r2 = await request(`${up.url}/v1/messages`, { method: 'POST', body: `{"t":"${plain.token}","tools":[{"name":"a"}]}` });
    expect(r2.statusCode).toBe(200);
    await r2.body.dump();
    const paired = new UpstreamHandle(up).next().json('{}', { betaForField: pair });
    const r3 = await request(`${up.url}/v1/messages`, { method: 'POST', body: `{"t":"${paired.token}","tools":[{"name":"b","defer_loading":true}]}`, headers: { 'anthropic-beta': 'advanced-tool-use-2025-11-20' } });
    expect(r3.statusCode).toBe(200);
    await r3.body.dump();
  });

  it('records the long strings, length and SHA-256 of a body, whole or kept in part, as the bytes that came', async () => {
    const h = new UpstreamHandle(up);
    // A long string that starts before 64 KiB (where the scan begins) and one past RECORD_KEEP.
    for (const [first, second] of [[70_000, 66_000], [200_000, 4_500_000]]) {
      const e = h.next().json('{}');
      const a = 'A'.repeat(first);
      const b = 'b'.repeat(second);
      const body = Buffer.from(`{"text":"${e.token} hi","short":"${'s'.repeat(100)}","a":"${a}","b":"${b}"}`);
      const pieces = Array.from({ length: Math.ceil(body.length / 16_384) }, (_, i) => body.subarray(i * 16_384, (i + 1) * 16_384));
      await (await request(`${up.url}/v1/messages`, { method: 'POST', body: Readable.from(pieces) })).body.text();
      const seen = await e.received();
      expect(seen?.longStrings).toEqual([longStringDigest([Buffer.from(a)]), longStringDigest([Buffer.from(b)])]);
      expect([seen?.bodyBytes, seen?.bodySha256, seen?.bodyTruncated]).toEqual([body.length, createHash('sha256').update(body).digest('hex'), body.length > RECORD_KEEP]);
      expect(seen?.body.equals(body.subarray(0, RECORD_KEEP))).toBe(true);
    }
  });

  it('reports a taken port as a harness error', async () => {
    const other = new RecordingUpstream();
    await expect(other.start('127.0.0.1', Number(new URL(up.url).port))).rejects.toMatchObject({ code: 'PORT_IN_USE' });
  });
});

describe('case tokens in a body', () => {
  // Pieces that make or nearly make a token: whole tokens, cut ones, upper-case hex, the prefix
  // twice, bytes above 0x7f (latin1), so matches overlap, abut and fail at every position.
  const piece = fc.oneof(
    fc.constant(newCaseToken()),
    fc.nat(19).map((n) => newCaseToken().slice(0, n)),
    fc.constant('gwc-gwc-0123456789abcdef'),
    fc.constant('gwc-0123456789ABCDEF'),
    fc.uint8Array({ maxLength: 6 }).map((b) => Buffer.from(b).toString('latin1')),
    fc.constantFrom('g', 'gw', 'gwc', '-', 'f', '0'),
  );
  it('finds in the bytes exactly the tokens tokensIn finds in the body read as latin1', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const body = Buffer.from(pieces.join(''), 'latin1');
        expect(tokensInBytes(body)).toEqual(tokensIn(body.toString('latin1')));
      }),
      { numRuns: 2000, seed: 21 },
    );
  });
});
