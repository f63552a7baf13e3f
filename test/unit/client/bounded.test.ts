// What the client keeps of an answer is bounded whatever the gateway sends: a
// prefix, the length and a SHA-256; decoding as a client would, bounded; a body that is not
// what its content-encoding claims is unreadable. Large request bodies are made piece by piece.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { BoundedBody, decodeBody, LongStrings, longStringDigest } from '../../../src/client/bounded.js';
import { GatewayClient, GatewayTimeoutError, GatewayTransportError } from '../../../src/client/gateway.js';
import { ANSWER_MAX } from '../../../src/client/answer.js';
import { imageData, imageDataChunks, largeBody, largeBodyParts } from '../../../suites/errors/errors.body.large.js';
import { CASE_PLACEHOLDER } from '../../../src/upstream/contract.js';
import { BODY_KEEP } from '../../../src/client/bounded.js';

describe('BoundedBody', () => {
  it('keeps the first bytes only, and counts and hashes all of them', () => {
    const b = new BoundedBody(10);
    const all = Buffer.from('0123456789abcdefghij');
    b.push(all.subarray(0, 7));
    b.push(all.subarray(7, 15));
    b.push(all.subarray(15));
    expect(b.head().toString()).toBe('0123456789');
    expect(b.length).toBe(20);
    expect(b.truncated).toBe(true);
    expect(b.sha256()).toBe(createHash('sha256').update(all).digest('hex'));
  });

  it('hashes a body kept whole, and one cut at a chunk boundary, as the bytes that came', () => {
    const all = Buffer.from('0123456789abcdefghij');
    const whole = new BoundedBody(20);
    for (const at of [0, 3, 10]) whole.push(all.subarray(at, at === 0 ? 3 : at === 3 ? 10 : 20));
    expect([whole.truncated, whole.head().toString(), whole.sha256(), whole.sha256()]).toEqual([false, all.toString(), createHash('sha256').update(all).digest('hex'), createHash('sha256').update(all).digest('hex')]);
    const cut = new BoundedBody(10);
    cut.push(all.subarray(0, 10));
    cut.push(all.subarray(10));
    expect([cut.truncated, cut.head().toString(), cut.length]).toEqual([true, '0123456789', 20]);
    expect(cut.sha256()).toBe(createHash('sha256').update(all).digest('hex'));
  });

  it('is not truncated when the body fits', () => {
    const b = new BoundedBody(10);
    b.push(Buffer.from('short'));
    expect([b.truncated, b.head().toString(), b.length]).toEqual([false, 'short', 5]);
  });
});

describe('LongStrings', () => {
  it('finds a long JSON string by its digest, across chunk boundaries and escapes, and only long ones', () => {
    const long = 'A'.repeat(70_000) + 'B';
    const body = Buffer.from(JSON.stringify({ short: 'x\\"y', data: long, tail: 'z' }));
    const s = new LongStrings();
    for (let i = 0; i < body.length; i += 1000) s.push(body.subarray(i, i + 1000));
    expect(s.found).toEqual([longStringDigest([Buffer.from(long)])]);
    expect(longStringDigest([Buffer.from(long.slice(0, 5)), Buffer.from(long.slice(5))])).toEqual(s.found[0]);
    expect(longStringDigest([Buffer.from(`${long.slice(0, -1)}C`)]).digest).not.toBe(s.found[0].digest);
  });

  it('finds what a byte-by-byte reading finds, however the body is cut (quotes, escapes and backslashes at every boundary)', () => {
    /** The reading by hand: every string's raw bytes between its quotes, a backslash escaping the next byte. */
    const byHand = (body: Buffer, min: number) => {
      const out: Array<{ length: number; digest: string }> = [];
      let start = -1;
      for (let i = 0; i < body.length; i++) {
        if (start < 0) {
          if (body[i] === 0x22) start = i + 1;
        } else if (body[i] === 0x5c) i++;
        else if (body[i] === 0x22) {
          if (i - start >= min) out.push(longStringDigest([body.subarray(start, i)]));
          start = -1;
        }
      }
      return out;
    };
    const bytes = fc.array(fc.constantFrom(0x22, 0x5c, 0x41, 0x7b, 0x3a, 0x20), { maxLength: 400 }).map((b) => Buffer.from(b));
    fc.assert(
      fc.property(bytes, fc.array(fc.nat(400)), fc.integer({ min: 0, max: 12 }), (body, cuts, min) => {
        const s = new LongStrings(min);
        const at = [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b);
        let from = 0;
        for (const c of [...at, body.length]) {
          s.push(body.subarray(from, c));
          from = c;
        }
        expect(s.found).toEqual(byHand(body, min));
      }),
      { numRuns: 2000, seed: 7 },
    );
  });
});

describe('decodeBody', () => {
  it('decodes gzip as a client would', () => {
    expect(decodeBody(gzipSync('{"a":1}'), 'gzip', false)).toEqual({ body: Buffer.from('{"a":1}'), truncated: false });
  });
  it('says when the body is not what its content-encoding claims', () => {
    const d = decodeBody(Buffer.from('{"a":1}'), 'gzip', false);
    expect(d.error).toMatch(/not gzip as its content-encoding claims/);
  });
  it('keeps at most the bound of a compression bomb', () => {
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024));
    const d = decodeBody(bomb, 'gzip', false, 1024 * 1024);
    expect(d.error).toBeUndefined();
    expect(d.truncated).toBe(true);
    expect(d.body.length).toBeLessThanOrEqual(1024 * 1024);
  });
  it('names an encoding no client decodes', () => {
    expect(decodeBody(Buffer.from('x'), 'zstd-nope', false).error).toMatch(/not one a client can decode/);
  });
  it('leaves identity alone', () => {
    expect(decodeBody(Buffer.from('x'), undefined, false)).toEqual({ body: Buffer.from('x'), truncated: false });
  });
});

describe('large request bodies made piece by piece', () => {
  it('imageDataChunks yields the bytes of imageData, across piece boundaries', () => {
    for (const n of [4096, 256 * 1024 + 3, 700 * 1024]) expect(Buffer.concat([...imageDataChunks(n, 11)]).toString('latin1')).toBe(imageData(n, 11));
  });
  it('largeBodyParts is largeBody with the token in place, and its SHA-256 is of those bytes', () => {
    const bytes = 1024 * 1024 + 5;
    const token = 'gwc-0123456789abcdef';
    const p = largeBodyParts(bytes, 3, token);
    const whole = Buffer.concat([...p.body.chunks()]);
    expect(whole.length).toBe(bytes);
    expect(whole.toString('latin1')).toBe(largeBody(bytes, imageData(bytes, 3)).text.split(CASE_PLACEHOLDER).join(token));
    expect(p.sha256()).toBe(createHash('sha256').update(whole).digest('hex'));
  });
  it("largeBodyParts' SHA-256 is of the whole body also when no pass of it went to the end", () => {
    const bytes = 512 * 1024 + 7;
    const token = 'gwc-0123456789abcdef';
    const p = largeBodyParts(bytes, 5, token);
    const whole = Buffer.concat([...largeBodyParts(bytes, 5, token).body.chunks()]);
    // A gateway that stops reading: the pass ends after its first two pieces.
    const it = p.body.chunks()[Symbol.iterator]();
    it.next();
    it.next();
    it.return?.(undefined);
    expect(p.sha256()).toBe(createHash('sha256').update(whole).digest('hex'));
  });
});

describe('the client against endless and large answers', () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });
  async function serve(handler: http.RequestListener): Promise<string> {
    const s = http.createServer(handler);
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(s.address() as net.AddressInfo).port}`;
  }
  /** A server answering `count` copies of `piece`, as fast as the client reads them; `written()`: how many it has handed over. */
  async function servePieces(piece: Buffer, count: number, headers: http.OutgoingHttpHeaders): Promise<{ url: string; written: () => number }> {
    let written = 0;
    const url = await serve((_req, res) => {
      res.writeHead(200, headers);
      const pump = () => {
        while (written < count) {
          written++;
          if (!res.write(piece)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    return { url, written: () => written };
  }

  it('keeps BODY_KEEP (1 MiB) of a 12 MiB answer (under ANSWER_MAX), with its length and SHA-256', async () => {
    const piece = Buffer.alloc(1024 * 1024, 'q');
    const { url } = await servePieces(piece, 12, { 'content-type': 'application/json' });
    const gw = new GatewayClient(url, { token: 't', timeoutMs: 10_000 });
    const r = await gw.send({ path: '/' });
    await gw.close();
    const h = createHash('sha256');
    for (let i = 0; i < 12; i++) h.update(piece);
    expect([r.wireBytes, r.truncated, r.body.length, r.wireSha256]).toEqual([12 * 1024 * 1024, true, BODY_KEEP, h.digest('hex')]);
  });

  it('stops reading an answer past ANSWER_MAX (16 MiB) and names it, without waiting for the rest', async () => {
    const piece = Buffer.alloc(1024 * 1024, 'z');
    const { url, written } = await servePieces(piece, 500, { 'content-type': 'application/json', 'content-length': String(500 * piece.length) });
    const gw = new GatewayClient(url, { token: 't', timeoutMs: 60_000 });
    const e = await gw.send({ path: '/v1/messages', method: 'POST', body: '{}' }).catch((x: unknown) => x);
    await gw.close();
    expect(e).toBeInstanceOf(GatewayTransportError);
    expect((e as GatewayTransportError).code).toBe('ANSWER_TOO_LARGE');
    expect((e as Error).message).toMatch(/^POST \/v1\/messages: the answer went on past 16 MiB, .*status 200 after \d+ ms, then \d+ body bytes/);
    const bytes = Number(/then (\d+) body bytes/.exec((e as Error).message)![1]);
    expect(bytes).toBeGreaterThan(ANSWER_MAX);
    expect(bytes).toBeLessThan(ANSWER_MAX + 2 * 1024 * 1024);
    // The server was held back by the client's flow control: it never wrote the 500 MiB.
    expect(written()).toBeLessThan(200);
  });

  it('an endless body cut at the time limit says what arrived, how much and for how long', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"a":[');
      // The test gateway's own pacing: a piece every 20 ms, forever.
      const t = setInterval(() => res.write('1,'), 20);
      res.on('close', () => clearInterval(t));
    });
    const gw = new GatewayClient(url, { token: 't', timeoutMs: 10_000 });
    const ac = new AbortController();
    const p = gw.send({ path: '/', signal: ac.signal });
    // Abort once some bytes have arrived (seen through the progress hook, not a timer).
    await new Promise<void>((resolve) => {
      gw.onProgress = (a) => {
        if (a.bytes > 20) resolve();
      };
    });
    ac.abort();
    const e = await p.catch((x: unknown) => x);
    await gw.close();
    expect(e).toBeInstanceOf(GatewayTimeoutError);
    const a = (e as GatewayTimeoutError).arrived!;
    expect(a.status).toBe(200);
    expect(a.bytes).toBeGreaterThan(20);
    expect(a.head.startsWith('{"a":[1,')).toBe(true);
    expect((e as Error).message).toMatch(/status 200 after \d+ ms, then \d+ body bytes in \d+ chunks over \d+ ms/);
  });
});
