// The wire between gateway and upstream (ENC-1, CONN-IDLE-1): the recording upstream's gzip
// answers and its idle close of a case's connection, the reference gateway's second try on a
// kept-alive connection the upstream closed (and the fault's pool that makes none), and how
// messages.encoding.gzip judges each way an encoded body can come through (the request body's
// fate, gzip and zstd, as suites/shared/encoded-request.ts judges it for ENC-1 and RESP-BODY-2).
import http from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { RecordingUpstream } from '../../../mocks/upstream/server.js';
import { ReferenceGateway } from '../../../reference/gateway.js';
import { faultByName } from '../../../reference/faults/index.js';
import { decodeBody } from '../../../src/client/bounded.js';
import type { GwResponse } from '../../../src/client/gateway.js';
import { acceptsGzip, acceptsZstd, type RecordedRequest } from '../../../src/upstream/record.js';
import { JSON_HEADERS } from '../../../src/upstream/scenario.js';
import { messageBody } from '../../../src/protocols/messages/index.js';
import { answerHow, answerProblem, ZSTD } from '../../../suites/messages/encoding.js';
import { encodedRequestFate, REQUEST_CODINGS } from '../../../suites/shared/encoded-request.js';
import { zstdDecompress, zstdFrame } from '../../../src/core/zstd.js';
import type { Exchange } from '../../../suites/shared/exchange.js';

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const s of stops.splice(0).reverse()) await s();
});

async function upstream(): Promise<RecordingUpstream> {
  const up = new RecordingUpstream();
  await up.start();
  stops.push(() => up.stop());
  return up;
}

/** One request on `agent`: status, headers and the raw body bytes. */
function send(url: string, headers: Record<string, string>, agent: http.Agent | false = false, body = '{}'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer; socket: import('node:net').Socket }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), socket: req.socket! }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the recording upstream on the wire', () => {
  // Each scripted encoding, with the accept-encoding values that take it and those that do not.
  const ENCODINGS = [
    { name: 'gzip', also: '', script: { gzip: true }, decode: (b: Buffer) => gunzipSync(b), accepts: acceptsGzip, cases: [['gzip', true], ['br, gzip;q=0.5', true], ['*', true], ['gzip;q=0', false], ['identity', false], ['', false]] },
    { name: 'zstd', also: ', as frames any decoder reads', script: { zstd: true }, decode: (b: Buffer) => zstdDecompress(b, 1 << 20, false), accepts: acceptsZstd, cases: [['zstd', true], ['gzip, deflate, br, zstd', true], ['*', true], ['zstd;q=0', false], ['gzip', false], ['', false]] },
  ] as const;
  for (const enc of ENCODINGS)
    it(`compresses a ${enc.name}-scripted answer only when the request accepts ${enc.name}${enc.also}`, async () => {
      const up = await upstream();
      const body = messageBody();
      for (const [accept, yes] of enc.cases) {
        const e = up.expect({ kind: 'json', status: 200, headers: JSON_HEADERS, body, ...enc.script });
        const r = await send(`${up.url}/v1/messages`, { 'x-gwc-case': e.token, ...(accept ? { 'accept-encoding': accept } : {}) });
        expect(r.headers['content-encoding'], accept).toBe(yes ? enc.name : undefined);
        expect((yes ? enc.decode(r.body) : r.body).toString(), accept).toBe(body);
        expect(enc.accepts(e.hits[0]), accept).toBe(yes);
      }
    });

  it('closes the idle kept-alive connection of a case, and says how its idle spell ended', async () => {
    const up = await upstream();
    const agents = [new http.Agent({ keepAlive: true }), new http.Agent({ keepAlive: true })];
    stops.push(async () => agents.forEach((a) => a.destroy()));
    const reply = (closeIdleMs?: number) => up.expect({ kind: 'json', status: 200, headers: JSON_HEADERS, body: messageBody(), ...(closeIdleMs ? { closeIdleMs } : {}) });
    // Another case's connection, idle longer than the closed one: left open, the close is this case's alone.
    const other = await send(`${up.url}/v1/messages`, { 'x-gwc-case': reply().token }, agents[0]);
    const e = reply(200);
    const r = await send(`${up.url}/v1/messages`, { 'x-gwc-case': e.token }, agents[1]);
    const ended = new Promise<void>((resolve) => r.socket.once('close', () => resolve()));
    const idle = await e.idleClosed(5000);
    expect(idle?.by).toBe('upstream');
    expect(idle!.at).toBeGreaterThan(e.hits[0].receivedAt);
    await ended;
    expect(other.socket.destroyed).toBe(false);
    // Reused at once by the client: the spell ends so, and the connection stays up.
    const reused = reply(60_000);
    await send(`${up.url}/v1/messages`, { 'x-gwc-case': reused.token }, agents[0]);
    await send(`${up.url}/v1/messages`, { 'x-gwc-case': reply().token }, agents[0]);
    expect((await reused.idleClosed(5000))?.by).toBe('reused');
    expect(other.socket.destroyed).toBe(false);
    // Closed by the client first (no keep-alive): the spell ends so.
    const closed = reply(60_000);
    await send(`${up.url}/v1/messages`, { 'x-gwc-case': closed.token });
    expect((await closed.idleClosed(5000))?.by).toBe('gateway');
  });
});

/**
 * An upstream that answers the first request on each connection and drops the connection under
 * the second: closed (FIN), as one that closed it while idle just before the request came; or
 * reset after reading it (`reset`), which is no idle close.
 */
async function closingUpstream(reset = false): Promise<{ url: string; requests: () => number }> {
  let n = 0;
  const perSocket = new WeakMap<object, number>();
  const server = http.createServer((req, res) => {
    n++;
    const k = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, k);
    if (k > 1) return reset ? req.socket.resetAndDestroy() : req.socket.destroy();
    req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(messageBody()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stops.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, requests: () => n };
}

describe('the reference gateway and a kept-alive upstream connection the upstream closed', () => {
  for (const [fault, second] of [[undefined, 200], ['reuse-closed-upstream-connection', 502]] as const) {
    it(`${fault ?? 'clean'}: the request after it is answered ${second}`, async () => {
      const up = await closingUpstream();
      const gw = new ReferenceGateway({ upstream: up.url, fault: fault ? faultByName(fault) : undefined });
      const target = await gw.start('127.0.0.1', 0);
      stops.push(() => gw.stop());
      expect((await send(`${target}/v1/messages`, {})).status).toBe(200);
      expect((await send(`${target}/v1/messages`, {})).status).toBe(second);
      // The clean gateway's second try reached the upstream on a fresh connection; the faulty one made none.
      expect(up.requests()).toBe(second === 200 ? 3 : 2);
    });
  }

  it('clean: a reset after the upstream read the request is answered 502 and not sent again', async () => {
    const up = await closingUpstream(true);
    const gw = new ReferenceGateway({ upstream: up.url });
    const target = await gw.start('127.0.0.1', 0);
    stops.push(() => gw.stop());
    expect((await send(`${target}/v1/messages`, {})).status).toBe(200);
    expect((await send(`${target}/v1/messages`, {})).status).toBe(502);
    expect(up.requests()).toBe(2);
  });
});

/** What the client read of an answer with these headers and wire bytes, as the gateway client reads it. */
function response(status: number, headers: Array<[string, string]>, wire: Buffer): GwResponse {
  const d = decodeBody(wire, headers.find(([k]) => k === 'content-encoding')?.[1], false);
  return { status, rawHeaders: headers, body: d.body, wireBytes: wire.length, wireSha256: '', truncated: false, ...(d.error ? { decodeError: d.error } : {}), startedAt: 0, headersAt: 0, endedAt: 0, header: (n) => headers.find(([k]) => k === n)?.[1], text: () => d.body.toString('utf8') };
}
const seen = (headers: Array<[string, string]>, body: Buffer): RecordedRequest => ({ seq: 1, method: 'POST', url: '/v1/messages', rawHeaders: headers, body, bodyBytes: body.length, bodySha256: '', bodyTruncated: false, receivedAt: 0, receivedWall: '', sentAt: [] });

describe('messages.encoding.gzip judges', () => {
  const body = messageBody();
  const x = (res: GwResponse): Exchange => ({ sent: '', res, seen: seen([['accept-encoding', 'gzip']], Buffer.from('{}')), expectation: { reply: { kind: 'json', status: 200, headers: JSON_HEADERS, body, gzip: true } } as Exchange['expectation'] });
  const GZ: [string, string] = ['content-encoding', 'gzip'];

  it('an answer still encoded with its header, or decoded without it: nothing wrong', () => {
    expect(answerProblem(x(response(200, [GZ], gzipSync(body))), 'answer')).toBeNull();
    expect(answerProblem(x(response(200, [], Buffer.from(body))), 'answer')).toBeNull();
  });
  it('decoded with the header kept, encoded without it, or damaged: each named', () => {
    expect(answerProblem(x(response(200, [GZ], Buffer.from(body))), 'answer')).toMatch(/decoded but still labelled/);
    expect(answerProblem(x(response(200, [], gzipSync(body))), 'answer')).toMatch(/gzip-encoded without `Content-Encoding`/);
    expect(answerProblem(x(response(200, [GZ], gzipSync(body).subarray(0, 20))), 'answer')).toMatch(/is not gzip \(.*corrupted/);
    expect(answerProblem(x(response(200, [GZ], gzipSync(gzipSync(body)))), 'answer')).toMatch(/gzip-encoded twice/);
    // What a gateway does to the content itself (an HTML error page in place of the JSON) is not the encoding's: other checks judge it.
    expect(answerProblem(x(response(400, [['content-type', 'text/html']], Buffer.from('<html>bad gateway</html>'))), 'answer')).toBeNull();
  });
  it('a compressed request body (gzip, zstd): as sent, decoded whole with consistent headers, or a JSON 415 is right; every other fate is named', () => {
    const plain = Buffer.from('{"model":"m","messages":[{"role":"user","content":"hello there"}]}');
    const ok = response(200, [], Buffer.from(body));
    for (const c of REQUEST_CODINGS) {
      const sent = c.compress(plain);
      const CE: [string, string] = ['content-encoding', c.name];
      const length = (n: number): [string, string] => ['content-length', String(n)];
      const fate = (s: RecordedRequest | null, res = ok) => encodedRequestFate({ res, seen: s }, c, plain, sent);
      expect(fate(seen([CE, length(sent.length)], sent)).problem).toBeNull();
      expect(fate(null, response(415, [['content-type', 'application/json']], Buffer.from('{"type":"error","error":{"type":"invalid_request_error","message":"no"}}'))).problem).toBeNull();
      // The decoding gateway: plain JSON, no Content-Encoding, the decoded length (or chunked).
      expect(fate(seen([length(plain.length)], plain))).toEqual({ problem: null, how: expect.stringMatching(/^decoded and forwarded as plain JSON/) });
      expect(fate(seen([['transfer-encoding', 'chunked']], plain)).problem).toBeNull();
      expect(fate(seen([['content-encoding', 'identity'], length(plain.length)], plain)).problem).toBeNull();
      // Decoded, but the headers disagree with the body.
      expect(fate(seen([length(sent.length)], plain)).problem).toMatch(/body is \d+ bytes but was forwarded with `Content-Length: \d+`/);
      expect(fate(seen([length(plain.length), ['transfer-encoding', 'chunked']], plain)).problem).toMatch(/both Content-Length and Transfer-Encoding/);
      expect(fate(seen([length(plain.length - 16)], plain.subarray(0, plain.length - 16))).problem).toMatch(/cut short: \d+ of its \d+ bytes/);
      expect(fate(seen([], sent)).problem).toMatch(new RegExp(`without its \`Content-Encoding: ${c.name}\``));
      expect(fate(seen([CE], plain)).problem).toMatch(/still labelled/);
      expect(fate(null, response(400, [['content-type', 'application/json']], Buffer.from('{"type":"error","error":{"type":"invalid_request_error","message":"bad json"}}'))).problem).toMatch(/read the compressed bytes as JSON/);
      expect(fate(null, response(502, [['content-type', 'application/json']], Buffer.from('{"error":{}}'))).problem).toMatch(/neither forwarded nor refused with a JSON 415/);
      expect(fate(seen([CE], Buffer.from(sent.toString('utf8')))).problem).toMatch(/reached the upstream changed/);
    }
  });
});

describe('messages.encoding.zstd judges', () => {
  const body = messageBody();
  const x = (res: GwResponse): Exchange => ({ sent: '', res, seen: seen([['accept-encoding', 'zstd']], Buffer.from('{}')), expectation: { reply: { kind: 'json', status: 200, headers: JSON_HEADERS, body, zstd: true } } as Exchange['expectation'] });
  const ZS: [string, string] = ['content-encoding', 'zstd'];
  const frame = (s: string | Buffer) => zstdFrame(Buffer.from(s));

  it('an answer still encoded with its header, or decoded without it: nothing wrong', () => {
    expect(answerProblem(x(response(200, [ZS], frame(body))), 'answer', ZSTD)).toBeNull();
    expect(answerProblem(x(response(200, [], Buffer.from(body))), 'answer', ZSTD)).toBeNull();
    expect(answerHow(x(response(200, [ZS], frame(body))), ZSTD)).toBe('still zstd-encoded, with its header');
  });
  it('decoded with the header kept, encoded without it, twice encoded, or damaged: each named', () => {
    expect(answerProblem(x(response(200, [ZS], Buffer.from(body))), 'answer', ZSTD)).toMatch(/decoded but still labelled `Content-Encoding: zstd`: every client's zstd decoder fails/);
    expect(answerProblem(x(response(200, [], frame(body))), 'answer', ZSTD)).toMatch(/zstd-encoded without `Content-Encoding`/);
    expect(answerProblem(x(response(200, [ZS], frame(frame(body)))), 'answer', ZSTD)).toMatch(/zstd-encoded twice/);
    expect(answerProblem(x(response(200, [ZS], frame(body).subarray(0, 40))), 'answer', ZSTD)).toMatch(/is not zstd \(.*corrupted/);
  });
  it('a gateway that does not pass zstd on gets an uncompressed answer, and says so', () => {
    const plainX: Exchange = { ...x(response(200, [], Buffer.from(body))), seen: seen([['accept-encoding', 'gzip']], Buffer.from('{}')) };
    expect(answerProblem(plainX, 'answer', ZSTD)).toBeNull();
    expect(answerHow(plainX, ZSTD)).toMatch(/did not accept zstd/);
  });
});
