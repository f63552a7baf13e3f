// A hostile gateway for the self-tests: it forwards every request to the recording upstream
// (so the run is a real one: the upstream sees the traffic), then answers the client as badly
// as its case says: hangs, endless bodies, huge headers, invalid HTTP, markup and terminal
// escapes, the credential echoed back in every encoding. A separate test gateway rather than
// reference faults: most cases are not HTTP a node:http server would send (raw bytes on the
// socket), and none of them is a requirement a check should name, so they do not belong in
// the detection matrix; the reference gateway stays a model of a correct gateway with one
// deliberate fault at a time.
import http from 'node:http';
import type net from 'node:net';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { request } from 'undici';

export interface Upstream {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface HostileContext {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  socket: net.Socket;
  /** The upstream's answer to the forwarded request, or null when it could not be reached. */
  up: Upstream | null;
  /** The credential the client sent (Authorization, x-api-key, x-goog-api-key or ?key=). */
  credential: string;
  /** Repeats `fn` every `ms` until the client goes away (the gateway's own pacing, not synchronisation). */
  every(ms: number, fn: () => void): void;
  /** Writes as fast as the socket drains, forever (until the client goes away). */
  flood(next: () => Buffer): void;
}

export interface HostileCase {
  name: string;
  what: string;
  /** Answers with forwarding skipped (the connection is cut before anything is read). */
  noForward?: boolean;
  answer(c: HostileContext): void;
}

const CRLF = '\r\n';
/** How long the hostile gateway waits for its upstream's headers, and between body chunks. */
const UPSTREAM_TIMEOUT_MS = 3000;
/** Terminal escapes a gateway may put in its text: set the window title, clear the screen, colours, a bell, a carriage return, bidi override, NUL. */
export const ANSI = '\x1b]0;gwc-owned\x07\x1b[2J\x1b[31mRED\x1b[0m\r\x08\u202e\u0000\x9b';
/** Markup a gateway may send, aimed at each report: HTML, JUnit CDATA and XML. */
export const MARKUP = '<script>alert("gwc-xss")</script><img src=x onerror=alert(1)>]]>]]></testcase></testsuite><!-- --><![CDATA[x]]>&amp;';

function rawHead(status: string, headers: Array<[string, string]>): string {
  return `HTTP/1.1 ${status}${CRLF}${headers.map(([k, v]) => `${k}: ${v}`).join(CRLF)}${CRLF}${CRLF}`;
}

/** One chunk of a chunked body. */
const chunk = (b: Buffer) => Buffer.concat([Buffer.from(`${b.length.toString(16)}${CRLF}`), b, Buffer.from(CRLF)]);

function json(c: HostileContext, status: number, body: unknown, headers: Record<string, string> = {}) {
  const b = Buffer.from(JSON.stringify(body));
  c.res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(b.length), ...headers });
  c.res.end(b);
}

const upBody = (c: HostileContext) => c.up?.body ?? Buffer.from('{"type":"error","error":{"type":"api_error","message":"upstream unreachable"}}');
const upStatus = (c: HostileContext) => c.up?.status ?? 502;
const upType = (c: HostileContext) => c.up?.headers['content-type'] ?? 'application/json';

/** Every encoding of the credential a careless gateway might echo. */
export function echoes(cred: string): Record<string, string> {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  return {
    plain: cred,
    base64: b64(cred),
    base64Bearer: b64(`Bearer ${cred}`),
    base64Basic: b64(`user:${cred}`),
    base64url: Buffer.from(cred).toString('base64url'),
    url: encodeURIComponent(cred),
    urlEvery: [...Buffer.from(cred)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
    jsonU: [...cred].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    slashEscaped: cred.replace(/\//g, '\\/'),
    hex: Buffer.from(cred).toString('hex'),
    HEX: Buffer.from(cred).toString('hex').toUpperCase(),
    html: [...cred].map((ch) => `&#${ch.charCodeAt(0)};`).join(''),
  };
}

const huge = (n: number, ch = 'a') => Buffer.alloc(n, ch);

export const HOSTILE_CASES: HostileCase[] = [
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
  // Larger corpus, second round:
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

/** How long the silent-close gateway keeps a connection open after an answer. */
const SILENT_CLOSE_MS = 20;

/** 1 GiB of zeros, gzipped once (about 1 MB) and shared by every answer. */
const BOMB = (() => {
  const z = Buffer.alloc(64 * 1024 * 1024);
  const one = gzipSync(z, { level: 9 });
  // Concatenated gzip members are one valid gzip stream: 16 x 64 MiB = 1 GiB.
  return Buffer.concat(Array.from({ length: 16 }, () => one));
})();

export function hostileCase(name: string): HostileCase {
  const c = HOSTILE_CASES.find((x) => x.name === name);
  if (!c) throw new Error(`unknown hostile case ${name}`);
  return c;
}

function credentialOf(req: http.IncomingMessage): string {
  const h = req.headers;
  const auth = String(h.authorization ?? '').replace(/^Bearer\s+/i, '');
  const key = new URL(req.url ?? '/', 'http://x').searchParams.get('key');
  return auth || String(h['x-api-key'] ?? h['x-goog-api-key'] ?? key ?? '');
}

/** A hostile gateway in front of `upstream`, answering as `kase` says. */
export class HostileGateway {
  private server: http.Server;
  private sockets = new Set<net.Socket>();
  private timers = new Set<NodeJS.Timeout>();
  constructor(
    private readonly upstream: string,
    private readonly kase: HostileCase,
  ) {
    this.server = http.createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => void this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
      s.on('error', () => undefined);
      if (this.kase.noForward) s.destroy();
    });
    this.server.on('clientError', (_e, s) => s.destroy());
  }

  /** `port`: a port leased for it (cases run at once: test/helpers/hostile-run.ts), else any. */
  async start(port = 0): Promise<string> {
    await new Promise<void>((r) => this.server.listen(port, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    try {
      for await (const ch of req) chunks.push(ch as Buffer);
    } catch {
      // The client went away while sending (a check cut off at its limit): nothing to answer.
      return;
    }
    const socket = req.socket;
    // The client's start-up probe is answered plainly unless the connection itself is the case.
    if (req.method === 'HEAD' && !['close-at-once', 'ctl-in-header', 'reset-before-answer'].includes(this.kase.name)) {
      res.writeHead(200, { 'content-length': '0' }).end();
      return;
    }
    let up: Upstream | null = null;
    // Its own upstream time-outs (3 s) are well below the harness's per-check limit in the hostile
    // test (4 s): a check whose upstream falls silent (the idle probe, the hung upstream) ends when
    // this gateway gives up, with a margin to the limit that tasks on the other core do not eat.
    try {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'].includes(k)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const r = await request(`${this.upstream}${req.url ?? '/'}`, { method: (req.method ?? 'GET') as 'GET', headers, body: chunks.length ? Buffer.concat(chunks) : undefined, headersTimeout: UPSTREAM_TIMEOUT_MS, bodyTimeout: UPSTREAM_TIMEOUT_MS });
      const body = Buffer.from(await r.body.arrayBuffer());
      const h: Record<string, string> = {};
      for (const [k, v] of Object.entries(r.headers)) if (v !== undefined) h[k] = Array.isArray(v) ? v.join(', ') : v;
      up = { status: r.statusCode, headers: h, body };
    } catch {
      up = null;
    }
    if (socket.destroyed) return;
    const every = (ms: number, fn: () => void) => {
      const t = setInterval(() => (socket.destroyed ? clearInterval(t) : fn()), ms);
      this.timers.add(t);
      socket.on('close', () => clearInterval(t));
    };
    const flood = (next: () => Buffer) => {
      const pump = () => {
        while (!socket.destroyed && socket.writable) {
          const b = next();
          if (!b.length) return;
          if (!socket.write(b)) return void socket.once('drain', pump);
        }
      };
      pump();
    };
    // Raw cases write on the socket: node:http must not add its own answer.
    this.kase.answer({ req, res, socket, up, credential: credentialOf(req), every, flood });
  }
}
