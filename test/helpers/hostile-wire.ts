// The vocabulary of the hostile test gateway's cases (test/helpers/hostile-gateway.ts): what a
// case gets (the request, the socket, the upstream's answer, the credential) and the pieces
// they answer with (raw status lines and chunks, the upstream's body, the credential's echoes).
import type http from 'node:http';
import type net from 'node:net';

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

/** What a case's answer to a WebSocket upgrade gets: the request and the raw socket. */
export interface HostileUpgrade {
  req: http.IncomingMessage;
  socket: net.Socket;
  /** Writes as fast as the socket drains, until the client goes away. */
  flood(next: () => Buffer): void;
}

export interface HostileCase {
  name: string;
  what: string;
  /** Answers a WebSocket upgrade itself (else the upgrade is a request like any other, answered by `answer`). */
  upgrade?(u: HostileUpgrade): void;
  /** Answers with forwarding skipped (the connection is cut before anything is read). */
  noForward?: boolean;
  answer(c: HostileContext): void;
}

export const CRLF = '\r\n';
/** Terminal escapes a gateway may put in its text: set the window title, clear the screen, colours, a bell, a carriage return, bidi override, NUL. */
export const ANSI = '\x1b]0;gwc-owned\x07\x1b[2J\x1b[31mRED\x1b[0m\r\x08\u202e\u0000\x9b';
/** Markup a gateway may send, aimed at each report: HTML, JUnit CDATA and XML. */
export const MARKUP = '<script>alert("gwc-xss")</script><img src=x onerror=alert(1)>]]>]]></testcase></testsuite><!-- --><![CDATA[x]]>&amp;';

export function rawHead(status: string, headers: Array<[string, string]>): string {
  return `HTTP/1.1 ${status}${CRLF}${headers.map(([k, v]) => `${k}: ${v}`).join(CRLF)}${CRLF}${CRLF}`;
}

/** One chunk of a chunked body. */
export const chunk = (b: Buffer) => Buffer.concat([Buffer.from(`${b.length.toString(16)}${CRLF}`), b, Buffer.from(CRLF)]);

export function json(c: HostileContext, status: number, body: unknown, headers: Record<string, string> = {}) {
  const b = Buffer.from(JSON.stringify(body));
  c.res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(b.length), ...headers });
  c.res.end(b);
}

export const upBody = (c: HostileContext) => c.up?.body ?? Buffer.from('{"type":"error","error":{"type":"api_error","message":"upstream unreachable"}}');
export const upStatus = (c: HostileContext) => c.up?.status ?? 502;
export const upType = (c: HostileContext) => c.up?.headers['content-type'] ?? 'application/json';

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

export const huge = (n: number, ch = 'a') => Buffer.alloc(n, ch);
