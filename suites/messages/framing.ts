// How an answer read raw from the socket (src/client/raw.ts) is framed, for FRAME-1: a
// Content-Length that is the number of body bytes that came, chunked framing without any
// Content-Length and complete to its last chunk, or neither on a connection the gateway closed.
// messages.framing.length uses it.
import type { RawAnswer } from '../../src/client/raw.js';

const values = (a: RawAnswer, name: string) => a.headers.filter(([k]) => k.toLowerCase() === name).map(([, v]) => v.trim());

/** A chunked body read through: whether its last chunk came, how many payload bytes, and bytes left after it; null when the framing is broken. */
export function readChunked(b: Buffer): { complete: boolean; size: number; after: number } | null {
  let at = 0;
  let size = 0;
  for (;;) {
    const eol = b.indexOf('\r\n', at);
    if (eol < 0) return { complete: false, size, after: 0 };
    const n = parseInt(b.subarray(at, eol).toString('latin1').split(';')[0].trim(), 16);
    if (!Number.isFinite(n) || n < 0) return null;
    if (n === 0) {
      // The last chunk, then trailers up to an empty line.
      const end = b.indexOf('\r\n\r\n', eol);
      if (end < 0 && !b.subarray(eol + 2).equals(Buffer.from('\r\n'))) return { complete: false, size, after: 0 };
      const stop = end < 0 ? eol + 4 : end + 4;
      return { complete: true, size, after: Math.max(0, b.length - stop) };
    }
    if (b.length < eol + 2 + n + 2) return { complete: false, size: size + Math.max(0, b.length - eol - 2), after: 0 };
    if (b.subarray(eol + 2 + n, eol + 4 + n).toString('latin1') !== '\r\n') return null;
    size += n;
    at = eol + 4 + n;
  }
}

/**
 * What is wrong with an answer's framing, or null; `how` says how it was framed, and `unjudged`
 * why it could not be judged: an answer that had not ended at the bound and whose framing
 * promises no length (chunked, or delimited by the close) is an answer still coming, or one the
 * gateway holds, not a length that lies.
 */
export function framingProblem(a: RawAnswer, boundMs: number): { problem: string | null; how: string; unjudged?: string } {
  const lengths = values(a, 'content-length');
  const te = values(a, 'transfer-encoding');
  const chunked = te.some((v) => /chunked/i.test(v));
  const got = a.body.length;
  if (lengths.length && te.length) return { problem: `the answer carries both Content-Length: ${lengths.join(', ')} and Transfer-Encoding: ${te.join(', ')}: a reader cannot tell which one frames the body, and proxies and clients refuse it`, how: 'both' };
  if (new Set(lengths).size > 1) return { problem: `the answer carries ${lengths.length} different Content-Lengths (${lengths.join(', ')})`, how: 'lengths disagree' };
  const unended = a.ended === 'bound' ? `and nothing more came in ${boundMs} ms with the connection left open` : 'and the gateway closed the connection';
  if (chunked) {
    const c = readChunked(a.body);
    if (!c) return { problem: 'the answer says Transfer-Encoding: chunked but its body is not chunk-framed', how: 'chunked, broken' };
    if (!c.complete && a.ended === 'bound') return { problem: null, how: 'chunked, not ended', unjudged: `the chunked answer had not come to its last chunk after ${boundMs} ms (${c.size} bytes of payload so far, the connection open)` };
    if (!c.complete) return { problem: `the chunked answer never came to its last chunk (${c.size} bytes of payload came ${unended})`, how: 'chunked, cut' };
    if (c.after) return { problem: `${c.after} bytes came after the chunked answer's last chunk: they land in front of the next answer on the connection`, how: 'chunked, bytes after' };
    return { problem: null, how: `chunked (${c.size} bytes)` };
  }
  if (lengths.length) {
    const n = Number(lengths[0]);
    if (!Number.isSafeInteger(n) || n < 0) return { problem: `the answer's Content-Length is not a length: ${lengths[0]}`, how: 'length unreadable' };
    if (got > n) return { problem: `the answer says Content-Length: ${n} but ${got} bytes of body followed: a client reads ${n} and takes the other ${got - n} for the start of the next answer (a length left from another body)`, how: 'length short' };
    if (got < n) return { problem: `the answer says Content-Length: ${n} but only ${got} bytes of body came ${unended}: the client waits for bytes that never come (a length left from another body)`, how: 'length long' };
    return { problem: null, how: `Content-Length ${n}, the body's` };
  }
  if (a.ended === 'bound') return { problem: null, how: 'unframed, not ended', unjudged: `the answer, framed by neither Content-Length nor chunks, had not ended after ${boundMs} ms (${got} bytes so far, the connection open)` };
  if (a.ended !== 'closed') return { problem: `the answer has neither Content-Length nor chunked framing, and the connection failed (${a.error ?? 'error'}) after ${got} bytes`, how: 'unframed, failed' };
  return { problem: null, how: `delimited by the connection's close (${got} bytes)` };
}
