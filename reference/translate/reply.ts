// The reference gateway's translating route, writing the answer: a streamed chat answer goes to
// the client event by event as messages events (stream.ts); a JSON answer or an error is read
// whole and written as the messages protocol's (answer.ts), with the upstream's other headers.
import type http from 'node:http';
import { messagesAnswer, messagesError } from './answer.js';
import type { TranslateFault } from '../faults/types.js';
import { messagesStream } from './stream.js';

/** The upstream's headers a translated answer keeps: not its framing or its content type. */
export function kept(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (!/^(content-type|content-length|transfer-encoding|connection|keep-alive)$/i.test(raw[i])) out.push(raw[i], raw[i + 1]);
  return out;
}

/** Headers without retry-after and retry-after-ms (a translation that rebuilds its error headers). */
function dropRetry(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (!/^retry-after(-ms)?$/i.test(raw[i])) out.push(raw[i], raw[i + 1]);
  return out;
}

export function translatedAnswer(ur: http.IncomingMessage, res: http.ServerResponse, fault: TranslateFault): void {
  const status = ur.statusCode ?? 502;
  const headers = fault.dropRetryAfter && status >= 400 ? dropRetry(kept(ur.rawHeaders)) : kept(ur.rawHeaders);
  if (status < 400 && /event-stream/i.test(String(ur.headers['content-type'] ?? ''))) {
    res.writeHead(status, [...headers, 'content-type', 'text/event-stream; charset=utf-8', 'cache-control', 'no-cache']);
    res.flushHeaders();
    const stream = messagesStream((text) => res.write(text), fault);
    ur.on('data', (c: Buffer) => stream.feed(c));
    ur.on('end', () => {
      stream.end();
      res.end();
    });
    ur.on('error', () => res.destroy());
    return;
  }
  const chunks: Buffer[] = [];
  ur.on('data', (c: Buffer) => chunks.push(c));
  ur.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    let out: { status: number; body: string };
    if (status >= 400) out = messagesError(status, text, fault);
    else {
      try {
        out = { status, body: JSON.stringify(messagesAnswer(JSON.parse(text), fault)) };
      } catch {
        out = messagesError(502, `the upstream's answer is not JSON: ${text.slice(0, 200)}`);
      }
    }
    res.writeHead(out.status, [...headers, 'content-type', 'application/json', 'content-length', String(Buffer.byteLength(out.body))]);
    res.end(out.body);
  });
}
