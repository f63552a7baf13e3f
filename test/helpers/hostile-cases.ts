// The first hostile cases (test/helpers/hostile-gateway.ts): hangs, endless and huge answers,
// invalid HTTP, markup and terminal escapes, the credential echoed in every encoding, a bomb, a
// connection closed without saying so.
import { gzipSync } from 'node:zlib';
import { ANSI, chunk, CRLF, echoes, huge, json, MARKUP, rawHead, upBody, upStatus, upType, type HostileCase } from './hostile-wire.js';

export const FIRST_CASES: HostileCase[] = [
  {
    name: 'hang-after-headers',
    what: 'status 200 and headers, then nothing, never',
    answer: (c) => {
      c.res.writeHead(200, { 'content-type': upType(c) });
      c.res.flushHeaders();
    },
  },
  {
    name: 'endless-stream',
    what: 'an event stream that never ends (an event every 2 ms)',
    answer: (c) => {
      c.res.writeHead(200, { 'content-type': 'text/event-stream' });
      let i = 0;
      c.every(2, () => c.res.write(`event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"${i++} "}}\n\n`));
    },
  },
  {
    name: 'endless-json',
    what: 'a chunked JSON body that never ends, as fast as the client reads',
    answer: (c) => {
      c.socket.write(rawHead('200 OK', [['content-type', 'application/json'], ['transfer-encoding', 'chunked']]));
      c.socket.write(chunk(Buffer.from('{"type":"message","content":[')));
      const item = chunk(Buffer.from(`{"type":"text","text":"${'x'.repeat(8000)}"},`));
      c.flood(() => item);
    },
  },
  {
    name: 'huge-header',
    what: 'a response header 100 MB long (written until the client hangs up)',
    answer: (c) => {
      c.socket.write(`HTTP/1.1 200 OK${CRLF}content-type: application/json${CRLF}x-huge: `);
      let left = 100 * 1024 * 1024;
      const piece = huge(64 * 1024);
      c.flood(() => {
        left -= piece.length;
        if (left <= 0) c.socket.end(`${CRLF}${CRLF}{}`);
        return piece;
      });
    },
  },
  {
    name: 'invalid-utf8',
    what: "the upstream's JSON with invalid UTF-8 bytes inside its strings",
    answer: (c) => {
      const body = Buffer.from(upBody(c).toString('latin1').replace(/"(msg_|text|claude)/g, '"\xff\xfe\xc3\x28$1'), 'latin1');
      c.res.writeHead(upStatus(c), { 'content-type': upType(c), 'content-length': String(body.length) });
      c.res.end(body);
    },
  },
  {
    name: 'html-200',
    what: 'an HTML page with status 200, carrying <script>, ]]> and </testcase>',
    answer: (c) => {
      const b = Buffer.from(`<!doctype html><html><head><title>Sign in ${MARKUP}</title></head><body>${MARKUP}<a href="javascript:alert(1)">go</a></body></html>`);
      c.res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(b.length) });
      c.res.end(b);
    },
  },
  {
    name: 'ansi-in-errors',
    what: 'JSON errors whose messages, and header values, carry terminal escapes and markup',
    answer: (c) => {
      const status = upStatus(c) < 400 ? 400 : upStatus(c);
      json(c, status, { type: 'error', error: { type: 'invalid_request_error', message: `bad ${ANSI} ${MARKUP}` } }, { 'x-gateway-note': `note ${MARKUP} \x80\x9b` });
    },
  },
  {
    name: 'ctl-in-header',
    what: 'a header value with control characters (ESC, BEL): invalid HTTP',
    answer: (c) => {
      const body = upBody(c);
      c.socket.write(rawHead('200 OK', [['content-type', upType(c)], ['x-title', '\x1b]0;owned\x07\x1b[2J'], ['content-length', String(body.length)]]));
      c.socket.end(body);
    },
  },
  {
    name: 'echo-credential',
    what: 'the credential echoed back in bodies, headers and error messages: plain, base64, URL-encoded, \\u-escaped, hex, HTML references',
    answer: (c) => {
      const e = echoes(c.credential);
      const all = Object.values(e).join(' | ');
      const status = upStatus(c);
      let parsed: Record<string, unknown> | null = null;
      try {
        parsed = JSON.parse(upBody(c).toString('utf8')) as Record<string, unknown>;
      } catch {
        parsed = null;
      }
      const body =
        status >= 400 || !parsed
          ? { type: 'error', error: { type: status === 401 ? 'authentication_error' : 'api_error', message: `invalid x-api-key ${all}` } }
          : { ...parsed, gateway_debug: { seen: e, note: `forwarded with ${all}` } };
      // The \u form must stay escaped in the JSON text, not decoded: written by hand.
      const text = JSON.stringify(body).replace(JSON.stringify(e.jsonU).slice(1, -1), e.jsonU);
      const b = Buffer.from(text);
      c.res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(b.length), 'x-echo-auth': e.plain, 'x-echo-b64': e.base64Bearer, 'x-echo-hex': e.hex, 'www-authenticate': `Bearer error="invalid_token" token="${e.url}"`, location: `https://sso.example.invalid/?key=${e.url}` });
      c.res.end(b);
    },
  },
  {
    name: 'drip',
    what: "the upstream's answer one byte every 200 ms",
    answer: (c) => {
      const body = upBody(c);
      const all = Buffer.concat([Buffer.from(rawHead(`${upStatus(c)} OK`, [['content-type', upType(c)], ['content-length', String(body.length)]])), body]);
      let i = 0;
      c.every(200, () => {
        if (i < all.length) c.socket.write(all.subarray(i, ++i));
      });
    },
  },
  {
    name: 'reset-mid-body',
    what: 'headers and half the body, then a TCP reset',
    answer: (c) => {
      const body = upBody(c);
      c.socket.write(rawHead(`${upStatus(c)} OK`, [['content-type', upType(c)], ['content-length', String(body.length)]]));
      c.socket.write(body.subarray(0, body.length >> 1), () => c.socket.resetAndDestroy());
    },
  },
  {
    name: 'length-longer',
    what: 'a content-length 100 bytes longer than the body, then the connection closed',
    answer: (c) => {
      const body = upBody(c);
      c.socket.write(rawHead(`${upStatus(c)} OK`, [['content-type', upType(c)], ['content-length', String(body.length + 100)]]));
      c.socket.end(body);
    },
  },
  {
    name: 'length-shorter',
    what: 'a content-length 10 bytes shorter than the body, the rest left on a kept-alive connection',
    answer: (c) => {
      const body = upBody(c);
      c.socket.write(rawHead(`${upStatus(c)} OK`, [['content-type', upType(c)], ['content-length', String(Math.max(0, body.length - 10))], ['connection', 'keep-alive']]));
      c.socket.write(body);
    },
  },
  {
    name: 'redirect-loop',
    what: 'a 307 back to the same URL, every time',
    answer: (c) => {
      c.res.writeHead(307, { location: c.req.url ?? '/', 'content-length': '0' });
      c.res.end();
    },
  },
  {
    name: 'json-500mb',
    what: 'a 500 MB JSON answer (one text block), chunked',
    answer: (c) => {
      const head = Buffer.from('{"id":"msg_big","type":"message","role":"assistant","content":[{"type":"text","text":"');
      const tail = Buffer.from('"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}');
      const piece = huge(1024 * 1024, 'z');
      let left = 500;
      c.socket.write(rawHead('200 OK', [['content-type', 'application/json'], ['content-length', String(head.length + 500 * piece.length + tail.length)]]));
      c.socket.write(head);
      c.flood(() => (left-- > 0 ? piece : left === -1 ? tail : Buffer.alloc(0)));
    },
  },
  {
    name: 'close-at-once',
    what: 'every connection closed as soon as it opens, nothing read or forwarded',
    noForward: true,
    answer: (c) => c.socket.destroy(),
  },
  {
    name: 'reset-before-answer',
    what: 'the request forwarded, then a TCP reset before any answer',
    answer: (c) => c.socket.resetAndDestroy(),
  },
  {
    name: 'false-gzip',
    what: "content-encoding: gzip on the upstream's uncompressed body",
    answer: (c) => {
      const body = upBody(c);
      c.res.writeHead(upStatus(c), { 'content-type': upType(c), 'content-encoding': 'gzip', 'content-length': String(body.length) });
      c.res.end(body);
    },
  },
  // Of our own devising:
  {
    name: 'gzip-bomb',
    what: 'a valid gzip body that inflates to 1 GiB of zeros',
    answer: (c) => {
      c.res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(BOMB.length) });
      c.res.end(BOMB);
    },
  },
  {
    name: 'sse-one-line',
    what: 'an event stream that is one endless line with no newline (and NUL bytes)',
    answer: (c) => {
      c.socket.write(rawHead('200 OK', [['content-type', 'text/event-stream'], ['transfer-encoding', 'chunked']]));
      c.socket.write(chunk(Buffer.from('data: ')));
      const piece = chunk(Buffer.from(`${'y'.repeat(65535)}\u0000`));
      c.flood(() => piece);
    },
  },
  {
    name: 'many-headers',
    what: '20,000 response headers (set-cookie) and a status line with escapes in its reason',
    answer: (c) => {
      const body = upBody(c);
      const head = `HTTP/1.1 ${upStatus(c)} \x1b[2J Gateway${CRLF}${Array.from({ length: 20_000 }, (_, i) => `set-cookie: s${i}=v`).join(CRLF)}${CRLF}content-length: ${body.length}${CRLF}${CRLF}`;
      c.socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]));
    },
  },
  {
    name: 'wrong-status-line',
    what: 'a status code of 999 with a 1 MB reason phrase',
    answer: (c) => {
      c.socket.end(`HTTP/1.1 999 ${'r'.repeat(1024 * 1024)}${CRLF}content-length: 2${CRLF}${CRLF}{}`);
    },
  },
  {
    name: 'silent-close',
    what: "the upstream's answer, then the kept-alive connection closed 20 ms later without Connection: close (a request sent on it meanwhile is cut off)",
    answer: (c) => {
      const body = upBody(c);
      c.res.writeHead(upStatus(c), { 'content-type': upType(c), 'content-length': String(body.length) });
      // The gateway's own keep-alive time-out, far too short: a request the client sends on the connection by then is read and dropped.
      c.res.end(body, () => setTimeout(() => c.socket.destroy(), SILENT_CLOSE_MS).unref());
    },
  },
];

/** How long the silent-close gateway keeps a connection open after an answer. */
const SILENT_CLOSE_MS = 20;

/** 1 GiB of zeros, gzipped once (about 1 MB) and shared by every answer. */
const BOMB = (() => {
  const z = Buffer.alloc(64 * 1024 * 1024);
  const one = gzipSync(z, { level: 9 });
  // Concatenated gzip members are one valid gzip stream: 16 x 64 MiB = 1 GiB.
  return Buffer.concat(Array.from({ length: 16 }, () => one));
})();
