// The second round of hostile cases (test/helpers/hostile-gateway.ts): the credential at every
// evidence cut, answers that stop or drip, informational floods, deep JSON, bombs and false
// encodings, bytes that are not HTTP, headers past every limit.
import { brotliCompressSync, constants } from 'node:zlib';
import { chunk, CRLF, huge, json, rawHead, upBody, upStatus, upType, type HostileCase } from './hostile-wire.js';

export const SECOND_CASES: HostileCase[] = [
  {
    name: 'echo-in-stream',
    what: 'an event stream whose text is the credential (plain and hex) over and over: wherever an evidence cut falls, it falls inside one',
    answer: (c) => {
      c.res.writeHead(200, { 'content-type': 'text/event-stream' });
      const text = `${c.credential} ${Buffer.from(c.credential).toString('hex')} `.repeat(60);
      for (let i = 0; i < 20; i++) c.res.write(`event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"${'p'.repeat(i)}${text}"}}\n\n`);
      c.res.end('event: message_stop\ndata: {"type":"message_stop"}\n\n');
    },
  },
  {
    name: 'half-body-silence',
    what: 'headers and half the body (of a content-length), then nothing, never (no reset, no close)',
    answer: (c) => {
      const body = upBody(c);
      c.socket.write(rawHead(`${upStatus(c)} OK`, [['content-type', upType(c)], ['content-length', String(body.length)]]));
      c.socket.write(body.subarray(0, body.length >> 1));
    },
  },
  {
    name: 'flood-1xx',
    what: 'informational answers (102 Processing) as fast as the client reads, never a final one',
    answer: (c) => {
      const piece = Buffer.from(`HTTP/1.1 102 Processing${CRLF}${CRLF}`.repeat(2000));
      c.flood(() => piece);
    },
  },
  {
    name: 'drip-headers',
    what: "the upstream's answer with its status line and headers one byte every 200 ms",
    answer: (c) => {
      const body = upBody(c);
      const all = Buffer.from(rawHead(`${upStatus(c)} OK`, [['content-type', upType(c)], ['content-length', String(body.length)], ['x-padding', 'p'.repeat(400)]]));
      let i = 0;
      c.every(200, () => {
        if (i < all.length) c.socket.write(all.subarray(i, ++i));
        else if (i++ === all.length) c.socket.write(body);
      });
    },
  },
  {
    name: 'deep-json',
    what: 'a JSON answer nested 2,000,000 arrays deep (and objects in error answers), status as the upstream said',
    answer: (c) => {
      const n = 2_000_000;
      const b = upStatus(c) >= 400 ? Buffer.from(`${'{"error":'.repeat(n)}1${'}'.repeat(n)}`) : Buffer.concat([Buffer.alloc(n, '['), Buffer.alloc(n, ']')]);
      c.res.writeHead(upStatus(c), { 'content-type': 'application/json', 'content-length': String(b.length) });
      c.res.end(b);
    },
  },
  {
    name: 'deep-json-stream',
    what: 'an event stream whose events carry JSON nested 100,000 objects deep',
    answer: (c) => {
      c.res.writeHead(200, { 'content-type': 'text/event-stream' });
      const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
      for (const t of ['message_start', 'content_block_delta', 'message_stop']) c.res.write(`event: ${t}\ndata: ${deep}\n\n`);
      c.res.end();
    },
  },
  {
    name: 'endless-whitespace',
    what: "the upstream's JSON, then whitespace forever (chunked): valid JSON that never ends",
    answer: (c) => {
      c.socket.write(rawHead(`${upStatus(c)} OK`, [['content-type', upType(c)], ['transfer-encoding', 'chunked']]));
      c.socket.write(chunk(upBody(c)));
      const piece = chunk(Buffer.alloc(64 * 1024, ' '));
      c.flood(() => piece);
    },
  },
  {
    name: 'brotli-bomb',
    what: 'a valid brotli body that inflates to 128 MiB of zeros',
    answer: (c) => {
      c.res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br', 'content-length': String(BR_BOMB().length) });
      c.res.end(BR_BOMB());
    },
  },
  {
    name: 'false-deflate-stream',
    what: 'an event stream claiming content-encoding: deflate, sent uncompressed',
    answer: (c) => {
      c.res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'deflate' });
      c.res.end(`event: message_start\ndata: {"type":"message_start"}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n`);
    },
  },
  {
    name: 'random-bytes',
    what: 'one MiB of random bytes instead of an HTTP answer, then the connection closed',
    answer: (c) => c.socket.end(RANDOM),
  },
  {
    name: 'random-after-headers',
    what: 'a valid status line and headers, then random bytes as fast as the client reads, never ending (no length: the body runs to a close that never comes)',
    answer: (c) => {
      c.socket.write(rawHead('200 OK', [['content-type', upType(c)], ['connection', 'close']]));
      c.flood(() => RANDOM);
    },
  },
  {
    name: 'header-100mib-value',
    what: 'one header value of 100 MiB with no line break, the status line first',
    answer: (c) => {
      c.socket.write(`HTTP/1.1 200 OK${CRLF}x-long: `);
      let left = 100 * 1024 * 1024;
      const piece = huge(256 * 1024, 'v');
      c.flood(() => ((left -= piece.length) > 0 ? piece : Buffer.alloc(0)));
    },
  },
  {
    name: 'endless-stream-mixed',
    what: "an event stream that never ends (an event every 2 ms) where the upstream's answer is a stream, and a JSON 500 at once to every other request: hangs alternate with ordinary failures",
    answer: (c) => {
      if (!/event-stream/i.test(upType(c))) return json(c, 500, { type: 'error', error: { type: 'api_error', message: 'gateway failure' } });
      c.res.writeHead(200, { 'content-type': 'text/event-stream' });
      let i = 0;
      c.every(2, () => c.res.write(`event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"${i++} "}}\n\n`));
    },
  },
  {
    name: 'ten-thousand-lines',
    what: '10,000 distinct header lines of 1 KiB each (10 MiB of headers)',
    answer: (c) => {
      const body = upBody(c);
      const v = 'h'.repeat(1000);
      const head = `HTTP/1.1 ${upStatus(c)} OK${CRLF}${Array.from({ length: 10_000 }, (_, i) => `x-h${i}: ${v}`).join(CRLF)}${CRLF}content-length: ${body.length}${CRLF}${CRLF}`;
      c.socket.end(Buffer.concat([Buffer.from(head), body]));
    },
  },
];

/** One MiB of random bytes (a fixed seed: the same bytes every run). */
const RANDOM = (() => {
  const b = Buffer.alloc(1024 * 1024);
  let x = 0x9e3779b9;
  for (let i = 0; i < b.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    b[i] = x & 0xff;
  }
  return b;
})();

/** 128 MiB of zeros, brotli-compressed (a few hundred bytes), made when first asked for. */
let brBomb: Buffer | undefined;
const BR_BOMB = () => (brBomb ??= brotliCompressSync(Buffer.alloc(128 * 1024 * 1024), { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }));
