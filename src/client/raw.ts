// One HTTP/1.1 exchange with the gateway read from the socket itself, for the checks of framing
// (FRAME-1): the status line, the header block as sent and every byte after it until the gateway
// closes the connection (the request says `Connection: close`). undici frames an answer by its
// headers and hides what does not fit: a body longer than its Content-Length is cut without a
// word, both Content-Length and Transfer-Encoding are refused as a length mismatch. The request
// goes to the same URL with the same headers as the client's own (GatewayClient.prepare), over
// TLS when the target is https (ALPN offers http/1.1 only).
import net from 'node:net';
import tls from 'node:tls';
import { patientTimeout } from '../core/stall.js';
import type { GatewayClient, GwRequest } from './gateway.js';
import { gunzipSync } from 'node:zlib';

export interface RawAnswer {
  /** The status of the final answer (interim 1xx answers are passed over); 0 when no head came. */
  status: number;
  /** The header block as it came, names as sent. */
  headers: Array<[string, string]>;
  /** Every byte after the head, as it came (chunk framing included). */
  body: Buffer;
  /** How the read ended: the gateway closed the connection, the bound came first, or the connection failed. */
  ended: 'closed' | 'bound' | 'error';
  error?: string;
}

/** The most bytes kept of one raw answer (the framing checks' answers are a few KiB). */
const RAW_KEEP = 1024 * 1024;

/** The request's bytes: request line, Host, the route's headers, the body's length, Connection: close. */
function requestBytes(url: URL, method: string, headers: string[], body: Buffer): Buffer {
  const lines = [`${method} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
  for (let i = 0; i < headers.length; i += 2) lines.push(`${headers[i]}: ${headers[i + 1]}`);
  if (body.length || method === 'POST') lines.push(`content-length: ${body.length}`);
  lines.push('connection: close', '', '');
  return Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), body]);
}

/** The head at the start of `b`, when it is all there: status, headers and where the body starts. */
export function parseHead(b: Buffer): { status: number; headers: Array<[string, string]>; bodyAt: number } | null {
  const end = b.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [line, ...rest] = b.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(line)?.[1] ?? 0);
  const headers = rest.map((l): [string, string] => {
    const i = l.indexOf(':');
    return i < 0 ? [l, ''] : [l.slice(0, i), l.slice(i + 1).trim()];
  });
  return { status, headers, bodyAt: end + 4 };
}

/** The final answer in the bytes read: interim (1xx) heads passed over. */
function finalAnswer(all: Buffer): { status: number; headers: Array<[string, string]>; body: Buffer } {
  let at = 0;
  for (;;) {
    const head = parseHead(all.subarray(at));
    if (!head) return { status: 0, headers: [], body: all.subarray(at) };
    if (head.status >= 200 || head.status < 100) return { status: head.status, headers: head.headers, body: all.subarray(at + head.bodyAt) };
    at += head.bodyAt;
  }
}

/**
 * Sends `req` as the client would (its URL and headers) on a connection of its own, and reads the
 * answer raw until the gateway closes it, `boundMs` of its silence pass, or `req.signal` aborts.
 */
export function rawExchange(client: GatewayClient, req: GwRequest & { body?: string | Buffer }, boundMs: number): Promise<RawAnswer> {
  // The runner's hooks see it as any other request (its replay and transcript).
  client.onSend?.({ ...req, method: req.method ?? 'POST' });
  const route = client.prepare(req, 'POST');
  const url = new URL(route.url);
  const body = Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body ?? '', 'utf8');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    const socket: net.Socket =
      url.protocol === 'https:'
        ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'], ...(client.connectOptions.connect ?? {}) })
        : net.connect({ host, port });
    let settled = false;
    const done = (ended: RawAnswer['ended'], error?: string) => {
      if (settled) return;
      settled = true;
      cancel();
      req.signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      const answer: RawAnswer = { ...finalAnswer(Buffer.concat(chunks)), ended, ...(error ? { error } : {}) };
      client.onReceive?.(req, answer.status ? { status: answer.status, rawHeaders: answer.headers, body: decoded(answer) } : { error: error ?? `no answer head (${ended})` });
      resolve(answer);
    };
    const onAbort = () => done('bound');
    // The bound counts the gateway's silence, not this process's holds (src/core/stall.ts).
    const cancel = patientTimeout(() => done('bound'), boundMs);
    req.signal?.addEventListener('abort', onAbort, { once: true });
    socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => socket.write(requestBytes(url, route.method, route.headers, body)));
    socket.on('data', (c: Buffer) => {
      if (kept + c.length > RAW_KEEP) return done('error', `more than ${RAW_KEEP} bytes`);
      kept += c.length;
      chunks.push(c);
    });
    socket.on('end', () => done('closed'));
    socket.on('close', () => done('closed'));
    socket.on('error', (e: NodeJS.ErrnoException) => done('error', e.code ?? e.message));
  });
}

/**
 * The body as a client reads it, for the runner's hooks (the transcript): without its chunk
 * framing (where the chunks fall is the gateway's and the network's timing, not what it sent) and
 * gzip decoded (the case token inside is masked there). As it came where either does not parse
 * (then the bytes themselves are the finding).
 */
function decoded(a: RawAnswer): Buffer {
  const body = unchunked(a);
  if (!a.headers.some(([k, v]) => k.toLowerCase() === 'content-encoding' && /gzip/i.test(v))) return body;
  try {
    return gunzipSync(body, { maxOutputLength: RAW_KEEP });
  } catch {
    return body;
  }
}

/** The body without its chunk framing, or as it came where it is not chunked or its framing does not parse. */
function unchunked(a: RawAnswer): Buffer {
  if (!a.headers.some(([k, v]) => k.toLowerCase() === 'transfer-encoding' && /chunked/i.test(v))) return a.body;
  const parts: Buffer[] = [];
  for (let at = 0; at < a.body.length; ) {
    const eol = a.body.indexOf('\r\n', at);
    if (eol < 0) return a.body;
    const size = parseInt(a.body.subarray(at, eol).toString('latin1').split(';')[0].trim(), 16);
    if (!Number.isFinite(size) || size < 0) return a.body;
    if (size === 0) return Buffer.concat(parts);
    parts.push(a.body.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
