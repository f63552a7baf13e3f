// The reference gateway's translated route to Bedrock (reference/translate/bedrock*.ts), on its
// own against a scripted upstream: the request as InvokeModel (model in the path, the body without
// `model` and `stream`), an event stream cut anywhere decoded into the same messages events, an
// exception as an error event, and a stream broken off mid-message broken off for the client too.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { ReferenceGateway } from '../../../reference/gateway.js';
import { faultByName } from '../../../reference/faults/index.js';
import { EVENTSTREAM_CONTENT_TYPE, encodeFrame, exceptionText } from '../../../src/core/framing.js';

type Handler = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void;

const EVENTS = [
  { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], model: 'claude-x', stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'é😀 hello' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } },
  { type: 'message_stop' },
];
/** What Bedrock sends: each event one message, message_stop with its invocation metrics. */
const WIRE = Buffer.concat(EVENTS.map((e) => encodeFrame(JSON.stringify(e.type === 'message_stop' ? { ...e, 'amazon-bedrock-invocationMetrics': { inputTokenCount: 5, outputTokenCount: 3 } } : e))));
const SSE = EVENTS.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');

describe("the reference gateway's route to Bedrock", () => {
  let handler: Handler;
  let upstream: http.Server;
  let gw: ReferenceGateway;
  let target: string;
  beforeEach(async () => {
    upstream = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => handler(req, Buffer.concat(chunks).toString('utf8'), res));
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    gw = new ReferenceGateway({ upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, fault: faultByName('translate-bedrock-clean') });
    target = await gw.start('127.0.0.1', 0);
  });
  afterEach(async () => {
    await gw.stop();
    upstream.closeAllConnections();
    await new Promise((r) => upstream.close(r));
  });

  const post = (body: object) => request(`${target}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-test', 'anthropic-version': '2023-06-01', 'anthropic-beta': 'a-1, b-2' }, body: JSON.stringify(body) });
  /** Answers a stream request with `bytes`, written in pieces of `size` bytes; `cut`: the connection is then destroyed. */
  const streaming = (bytes: Buffer, size: number, cut = false): Handler => (_req, _body, res) => {
    res.writeHead(200, { 'content-type': EVENTSTREAM_CONTENT_TYPE });
    for (let at = 0; at < bytes.length; at += size) res.write(bytes.subarray(at, at + size));
    // Broken off once what was written has left: the gateway has the answer's head and part of its body.
    if (cut) res.write('', () => res.socket?.destroy());
    else res.end();
  };

  it('sends a messages request as InvokeModel: the model in the path, the body without model and stream, the key as a bearer token, the betas in the body', async () => {
    const seen: Array<{ url?: string; headers: http.IncomingHttpHeaders; body: string }> = [];
    handler = (req, body, res) => {
      seen.push({ url: req.url, headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"type":"message","content":[]}');
    };
    for (const stream of [false, true]) await (await post({ model: 'us.anthropic.claude-x-v1:0', max_tokens: 9, stream, messages: [{ role: 'user', content: 'hi' }] })).body.dump();
    expect(seen.map((s) => s.url)).toEqual(['/model/us.anthropic.claude-x-v1%3A0/invoke', '/model/us.anthropic.claude-x-v1%3A0/invoke-with-response-stream']);
    expect(JSON.parse(seen[0].body)).toEqual({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 9, messages: [{ role: 'user', content: 'hi' }], anthropic_beta: ['a-1', 'b-2'] });
    expect([seen[0].headers.authorization, seen[0].headers['x-api-key'], seen[0].headers['anthropic-version']]).toEqual(['Bearer sk-test', undefined, undefined]);
    expect([seen[0].headers.accept, seen[1].headers.accept]).toEqual(['application/json', EVENTSTREAM_CONTENT_TYPE]);
  });

  it("decodes the event stream into the messages protocol's events, however its bytes are cut, without Bedrock's metrics", async () => {
    for (const size of [1, 7, 64, WIRE.length]) {
      handler = streaming(WIRE, size);
      const r = await post({ model: 'm', max_tokens: 9, stream: true, messages: [] });
      expect([r.statusCode, r.headers['content-type']]).toEqual([200, 'text/event-stream; charset=utf-8']);
      expect(await r.body.text(), `pieces of ${size} bytes`).toBe(SSE);
    }
  });

  it("writes a stream exception as the messages protocol's error event, with the exception's message", async () => {
    handler = streaming(Buffer.concat([WIRE.subarray(0, encodeFrame(JSON.stringify(EVENTS[0])).length), encodeFrame(exceptionText('throttlingException', 'slow down'))]), 16);
    const text = await (await post({ model: 'm', max_tokens: 9, stream: true, messages: [] })).body.text();
    expect(text.split('\n\n').filter(Boolean).at(-1)).toBe(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } })}`);
  });

  it('breaks the client\'s stream off when the upstream\'s ends mid-message or breaks off', async () => {
    for (const cut of [false, true]) {
      handler = streaming(WIRE.subarray(0, WIRE.length - 5), 32, cut);
      const r = await post({ model: 'm', max_tokens: 9, stream: true, messages: [] });
      await expect(r.body.text(), cut ? 'connection destroyed' : 'ended mid-message').rejects.toThrow();
    }
  });
});
