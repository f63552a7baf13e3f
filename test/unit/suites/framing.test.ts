// FRAME-1's judge and the raw reader it reads with: an answer framed by a Content-Length equal to
// its body, by complete chunks without any Content-Length, or by the connection's close passes;
// a length left from another body (longer or shorter), both headers, broken or unfinished chunks
// fail, each named. The raw reader is run against a local server writing such answers byte for
// byte, where undici would cut the long body without a word. RETRY-POST-1's count of sends too.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../../src/client/gateway.js';
import { rawExchange, type RawAnswer } from '../../../src/client/raw.js';
import type { RecordedRequest } from '../../../src/upstream/record.js';
import { framingProblem, readChunked } from '../../../suites/messages/framing.js';
import { resendProblem } from '../../../suites/shared/resend.js';

const answer = (headers: Array<[string, string]>, body: string, ended: RawAnswer['ended'] = 'closed'): RawAnswer => ({ status: 200, headers, body: Buffer.from(body, 'latin1'), ended });

describe('framingProblem', () => {
  it('passes a length that is the body, complete chunks without a length, and a body ended by the close', () => {
    expect(framingProblem(answer([['Content-Length', '5']], 'hello'), 1000).problem).toBeNull();
    expect(framingProblem(answer([['transfer-encoding', 'chunked']], '5\r\nhello\r\n0\r\n\r\n'), 1000)).toEqual({ problem: null, how: 'chunked (5 bytes)' });
    expect(framingProblem(answer([], 'hello'), 1000).problem).toBeNull();
    expect(framingProblem(answer([['content-length', '0']], ''), 1000).problem).toBeNull();
  });
  it('names a length left from another body, both headers, and broken or unfinished chunks', () => {
    expect(framingProblem(answer([['content-length', '2']], 'hello'), 1000).problem).toMatch(/Content-Length: 2 but 5 bytes of body followed/);
    expect(framingProblem(answer([['content-length', '9']], 'hello'), 1000).problem).toMatch(/Content-Length: 9 but only 5 bytes of body came and the gateway closed/);
    expect(framingProblem(answer([['content-length', '9']], 'hello', 'bound'), 1000).problem).toMatch(/nothing more came in 1000 ms/);
    expect(framingProblem(answer([['content-length', '16'], ['transfer-encoding', 'chunked']], '5\r\nhello\r\n0\r\n\r\n'), 1000).problem).toMatch(/both Content-Length: 16 and Transfer-Encoding: chunked/);
    expect(framingProblem(answer([['content-length', '5'], ['content-length', '6']], 'hello'), 1000).problem).toMatch(/2 different Content-Lengths/);
    expect(framingProblem(answer([['transfer-encoding', 'chunked']], '5\r\nhello\r\n'), 1000).problem).toMatch(/never came to its last chunk \(5 bytes of payload came and the gateway closed/);
    expect(framingProblem(answer([['transfer-encoding', 'chunked']], 'zz\r\nhello\r\n0\r\n\r\n'), 1000).problem).toMatch(/not chunk-framed/);
    expect(framingProblem(answer([['transfer-encoding', 'chunked']], '5\r\nhello\r\n0\r\n\r\nHTTP/1.1'), 1000).problem).toMatch(/8 bytes came after/);
    expect(framingProblem(answer([], 'hello', 'error'), 1000).problem).toMatch(/neither Content-Length nor chunked framing, and the connection failed/);
  });
  it('leaves unjudged an answer still coming whose framing promises no length (chunked, or up to the close), never a length that lies', () => {
    expect(framingProblem(answer([['transfer-encoding', 'chunked']], '5\r\nhello\r\n', 'bound'), 1000)).toEqual({ problem: null, how: 'chunked, not ended', unjudged: expect.stringMatching(/had not come to its last chunk after 1000 ms/) });
    expect(framingProblem(answer([], 'hello', 'bound'), 1000).unjudged).toMatch(/had not ended after 1000 ms/);
    expect(framingProblem(answer([['content-length', '9']], 'hello', 'bound'), 1000).unjudged).toBeUndefined();
  });
  it('reads chunks with extensions and trailers', () => {
    expect(readChunked(Buffer.from('3;x=1\r\nabc\r\n2\r\nde\r\n0\r\nx-trailer: 1\r\n\r\n'))).toEqual({ complete: true, size: 5, after: 0 });
  });
});

const servers: net.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** A server that answers every request with `wire` as it is, then closes. */
async function serving(wire: string): Promise<string> {
  const s = net.createServer((c) => {
    let head = '';
    c.on('data', (d) => {
      head += d.toString('latin1');
      if (head.includes('\r\n\r\n')) c.end(wire, 'latin1');
    });
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(s.address() as net.AddressInfo).port}`;
}

describe('rawExchange', () => {
  it('keeps every byte after the head, where a body outgrows its Content-Length, and passes an interim 100 over', async () => {
    const target = await serving('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhello');
    const client = new GatewayClient(target, { token: 'k', timeoutMs: 5000 });
    const a = await rawExchange(client, { method: 'POST', path: '/v1/messages', body: '{}' }, 5000);
    expect([a.status, a.headers, a.body.toString(), a.ended]).toEqual([200, [['Content-Length', '2']], 'hello', 'closed']);
    expect(framingProblem(a, 5000).problem).toMatch(/Content-Length: 2 but 5 bytes/);
    await client.close();
  });
});

const hit = (headers: Array<[string, string]>): RecordedRequest => ({ seq: 1, method: 'POST', url: '/v1/messages', rawHeaders: headers, body: Buffer.from('{}'), bodyBytes: 2, bodySha256: '', bodyTruncated: false, receivedAt: 0, receivedWall: '', sentAt: [] });

describe('resendProblem', () => {
  it('one send passes; sends with one Idempotency-Key pass; sends without, or with keys that differ, fail', () => {
    expect(resendProblem('after 502', [hit([])]).problem).toBeNull();
    expect(resendProblem('after 502', [hit([['Idempotency-Key', 'a']]), hit([['idempotency-key', 'a']])])).toEqual({ problem: null, how: expect.stringMatching(/2 times, every send with the same Idempotency-Key/) });
    expect(resendProblem('after 502', [hit([]), hit([])]).problem).toMatch(/sent upstream 2 times, none of them with an Idempotency-Key/);
    expect(resendProblem('after 502', [hit([]), hit([['idempotency-key', 'b']])]).problem).toMatch(/not the same on every send \(none \/ b\)/);
    expect(resendProblem('after 502', [hit([['idempotency-key', 'a']]), hit([['idempotency-key', 'b']])]).problem).toMatch(/not the same/);
  });
});
