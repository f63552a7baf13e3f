// The recording upstream's capture mode (`mock --capture FILE`): token-less requests answered
// as the real API would, every request written as one JSON line with credentials masked, a
// check's case still answered by its script, slow answers that a client gives up on.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RecordingUpstream } from '../../../mocks/upstream/server.js';
import { Capture, CAPTURE_MODELS, CAPTURE_REPLY_TEXT, parseDelays, type CapturedRequest } from '../../../mocks/upstream/capture.js';
import { messageBody } from '../../../src/protocols/messages/index.js';
import { cliInProcess } from '../../helpers/in-process.js';

const SECRET = 'gwc-capture-secret-7f3a9c';

let upstream: RecordingUpstream;
let file: string;
/** Resolves with the capture lines once `n` responses have closed (each line is written on close). */
let closedCount = 0;
let waiters: Array<() => void> = [];

function install(capture: Capture) {
  upstream.capture = {
    record(rec, res) {
      capture.record(rec, res);
      // Registered after the capture's own listener: the line is on disk when this runs.
      res.on('close', () => {
        closedCount++;
        for (const w of waiters.splice(0)) w();
      });
    },
    answer: (rec, res) => capture.answer(rec, res),
  };
}

async function linesAfter(n: number, boundMs = 5000): Promise<CapturedRequest[]> {
  const deadline = Date.now() + boundMs;
  while (closedCount < n && Date.now() < deadline) {
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, Math.max(0, deadline - Date.now()));
      waiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as CapturedRequest);
}

beforeEach(async () => {
  file = path.join(mkdtempSync(path.join(os.tmpdir(), 'gwc-capture-')), 'capture.jsonl');
  closedCount = 0;
  waiters = [];
  upstream = new RecordingUpstream();
  install(Capture.open({ file }));
  await upstream.start('127.0.0.1', 0);
});

afterEach(async () => {
  await upstream.stop();
});

const post = (p: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${upstream.url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${SECRET}`, 'x-api-key': SECRET, ...headers }, body: JSON.stringify(body) });

describe('capture mode answers token-less requests as the real API would', () => {
  it('a streamed messages request gets a complete SSE message with the capture text and no tool call', async () => {
    const res = await post('/v1/messages?beta=true', { model: 'claude-opus-5-5', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (e) => events.push(e) });
    parser.feed(await res.text());
    expect(events.map((e) => e.event)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    expect(JSON.parse(events[0].data).message.model).toBe('claude-opus-5-5');
    expect(JSON.parse(events[2].data).delta).toEqual({ type: 'text_delta', text: CAPTURE_REPLY_TEXT });
    expect(JSON.parse(events[4].data).delta.stop_reason).toBe('end_turn');
  });

  it('a messages request without stream gets a JSON message; count_tokens a count; the model list; HEAD an empty 200; anything else a JSON 404', async () => {
    const msg = await post('/v1/messages', { model: 'claude-haiku-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    expect(msg.status).toBe(200);
    expect(await msg.json()).toMatchObject({ type: 'message', model: 'claude-haiku-4-5', content: [{ type: 'text', text: CAPTURE_REPLY_TEXT }], stop_reason: 'end_turn' });
    const count = await post('/v1/messages/count_tokens', { model: 'claude-haiku-4-5', messages: [] });
    expect(((await count.json()) as { input_tokens: number }).input_tokens).toBeGreaterThan(0);
    const models = await fetch(`${upstream.url}/v1/models?limit=1000`);
    expect(((await models.json()) as { data: Array<{ id: string }> }).data.map((m) => m.id)).toEqual(CAPTURE_MODELS.map((m) => m.id));
    const head = await fetch(`${upstream.url}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const other = await fetch(`${upstream.url}/v1/files`);
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
  });
});

describe('capture file', () => {
  it('one JSON line per request: method, url, raw headers in order with credentials masked, body parsed, how it ended', async () => {
    await (await post('/v1/messages?beta=true', { model: 'm', max_tokens: 1, messages: [] }, { 'anthropic-beta': 'a-2025-01-01,b-2026-01-01' })).text();
    await (await fetch(`${upstream.url}/v1/models?limit=1000`, { headers: { 'x-api-key': SECRET } })).text();
    const lines = await linesAfter(2);
    expect(lines).toHaveLength(2);
    const [m, d] = lines;
    expect(m).toMatchObject({ method: 'POST', url: '/v1/messages?beta=true', json: { model: 'm', max_tokens: 1, messages: [] }, status: 200, ended: 'answered' });
    expect(m.headers).toContainEqual(['authorization', 'Bearer ***']);
    expect(m.headers).toContainEqual(['x-api-key', '***']);
    expect(m.headers).toContainEqual(['anthropic-beta', 'a-2025-01-01,b-2026-01-01']);
    const names = m.headers.map(([k]) => k);
    expect(names.indexOf('content-type')).toBeLessThan(names.indexOf('anthropic-beta'));
    expect(d).toMatchObject({ method: 'GET', url: '/v1/models?limit=1000', bodyBytes: 0, status: 200 });
    expect(d.json).toBeUndefined();
    expect(readFileSync(file, 'utf8')).not.toContain(SECRET);
  });

  it("a check's case is answered by its script, not by the capture, and still written", async () => {
    const e = upstream.expect({ kind: 'json', status: 201, headers: [['content-type', 'application/json']], body: messageBody({ text: 'scripted' }) });
    const res = await post('/v1/messages', { model: 'm', max_tokens: 1, messages: [{ role: 'user', content: `${e.token} hi` }] });
    expect(res.status).toBe(201);
    expect(await res.text()).toContain('scripted');
    const [line] = await linesAfter(1);
    expect(line).toMatchObject({ ended: 'check-case', status: null });
    expect(upstream.unmatched).toHaveLength(0);
  });

  it("the native protocol's ?key= credential is masked in the written URL", async () => {
    await (await fetch(`${upstream.url}/v1beta/models?alt=json&key=${SECRET}`)).text();
    const [line] = await linesAfter(1);
    expect(line.url).toBe('/v1beta/models?alt=json&key=***');
    expect(readFileSync(file, 'utf8')).not.toContain(SECRET);
  });

  it('a slow answer the client gives up on is written as client-closed, with no status', async () => {
    await upstream.stop();
    upstream = new RecordingUpstream();
    install(Capture.open({ file, delays: parseDelays(['/v1/models=600000']) }));
    await upstream.start('127.0.0.1', 0);
    const ac = new AbortController();
    // The client gives up as soon as the upstream has the request (an event, not a timer).
    upstream.onUnmatched = () => ac.abort();
    await expect(fetch(`${upstream.url}/v1/models?limit=1000`, { signal: ac.signal })).rejects.toThrow();
    const [line] = await linesAfter(1);
    expect(line).toMatchObject({ method: 'GET', url: '/v1/models?limit=1000', status: null, ended: 'client-closed' });
  });

  it('a body that is not JSON is kept as text', async () => {
    await (await fetch(`${upstream.url}/v1/messages`, { method: 'POST', body: 'not json {' })).text();
    const [line] = await linesAfter(1);
    expect(line).toMatchObject({ text: 'not json {', bodyBytes: 10 });
    expect(line.json).toBeUndefined();
  });
});

describe('mock --capture flags', () => {
  it('parseDelays takes PATH=MS and refuses anything else', () => {
    expect(parseDelays(['/v1/models=3000', '/v1/messages=0'])).toEqual({ '/v1/models': 3000, '/v1/messages': 0 });
    for (const bad of ['v1/models=1', '/v1/models=', '/v1/models=1.5', '/v1/models?limit=1=1']) expect(() => parseDelays([bad])).toThrow(/--capture-delay/);
  });

  it('bad capture flags: one line on stderr, exit 2, no stack trace', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['mock', '--listen', '127.0.0.1:0', '--capture-delay', '/v1/models=5'], /--capture-delay needs --capture/],
      [['mock', '--listen', '127.0.0.1:0', '--capture', path.join(os.tmpdir(), 'gwc-no-such-dir', 'x', 'c.jsonl')], /--capture: cannot write .*ENOENT/],
      [['mock', '--listen', '127.0.0.1:0', '--capture', file, '--capture-delay', 'soon'], /--capture-delay: expected PATH=MS/],
    ];
    for (const [args, msg] of cases) {
      const r = await cliInProcess(args, { timeoutMs: 20_000 });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(msg);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
