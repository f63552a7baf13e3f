// How an answer the upstream compressed, and a request body the client compressed, came
// through the gateway (ENC-1): judged from both sides, what the client read and what reached
// the upstream. messages.encoding.gzip and messages.encoding.zstd use it.
import { gzipSync } from 'node:zlib';
import { acceptsGzip, acceptsZstd, headerValues, type RecordedRequest } from '../../src/upstream/record.js';
import type { GwResponse } from '../../src/client/gateway.js';
import { tryParse } from '../../src/core/json.js';
import type { Exchange } from '../shared/exchange.js';
import { cutBytes } from '../shared/evidence.js';
import { isJsonError, shapeOf } from '../shared/shape.js';

/** The two bytes every gzip member starts with. */
const isGzipBytes = (b: Buffer) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;
const isGzip = (v: string | undefined) => /^\s*(x-)?gzip\s*$/i.test(v ?? '');

/** A content-coding as the answer checks judge it: its name, its label, its bytes' first ones, whether a request accepts it. */
export interface Coding {
  name: string;
  labels(v: string | undefined): boolean;
  starts(b: Buffer): boolean;
  accepted(r: RecordedRequest): boolean;
}
export const GZIP: Coding = { name: 'gzip', labels: isGzip, starts: isGzipBytes, accepted: acceptsGzip };
/** zstd (RFC 9659): every frame starts with the magic 28 B5 2F FD. */
export const ZSTD: Coding = {
  name: 'zstd',
  labels: (v) => /^\s*zstd\s*$/i.test(v ?? ''),
  starts: (b) => b.length >= 4 && b.readUInt32LE(0) === 0xfd2fb528,
  accepted: acceptsZstd,
};

/**
 * What the client got of an answer: null when its bytes and their label agree (still encoded with
 * `Content-Encoding: gzip`, or decoded without it), else what is wrong. Only the encoding is
 * judged: what a gateway does to the content itself is other checks' (MSG-RESP-1, ERR-PASS-1).
 */
export function answerProblem(x: Exchange, what: string, c: Coding = GZIP): string | null {
  const ce = x.res.header('content-encoding');
  if (x.res.decodeError) {
    // The header says gzip, the bytes are not: a body decoded with its header left on, or one broken.
    return tryParse(x.res.body.toString('utf8')).ok
      ? `the ${what} arrived decoded but still labelled \`Content-Encoding: ${ce}\`: every client's ${c.name} decoder fails on it (${x.res.decodeError})`
      : `the ${what} is labelled \`Content-Encoding: ${ce}\` but is not ${ce} (${x.res.decodeError}): corrupted`;
  }
  if (c.starts(x.res.body)) return c.labels(ce) ? `the ${what} arrived ${c.name}-encoded twice under one \`Content-Encoding: ${c.name}\`: a client decodes it once and reads compressed bytes` : `the ${what} arrived ${c.name}-encoded without \`Content-Encoding\`: a client reads compressed bytes as its JSON`;
  return null;
}

/** What the client got, in words: status, content-encoding and the bytes' start. */
export const arrived = (res: GwResponse) => `${res.status}, content-encoding ${res.header('content-encoding') ?? 'absent'}, ${res.wireBytes} bytes on the wire: ${cutBytes(res.body, 80)}`;

/** How an answer came, in words: still encoded, decoded, or never compressed (the gateway did not pass the coding on in accept-encoding). */
export function answerHow(x: Exchange, c: Coding = GZIP): string {
  if (!x.seen || !c.accepted(x.seen)) return `uncompressed (the forwarded request did not accept ${c.name}, so the upstream did not compress)`;
  return c.labels(x.res.header('content-encoding')) ? `still ${c.name}-encoded, with its header` : 'decoded, without the header';
}

/** The request body compressed as a client sends it. */
export const gzipped = (text: string) => gzipSync(Buffer.from(text, 'utf8'));

/** A gzip request body's fate: null when it was forwarded as sent (bytes and header) or refused with a JSON 415 before the upstream; else what is wrong. */
export function requestProblem(x: { res: GwResponse; seen: Exchange['seen'] }, sentPlain: string, sentGzip: Buffer): { problem: string | null; how: string } {
  const { seen, res } = x;
  if (!seen) {
    if (res.status === 415 && isJsonError(shapeOf(res))) return { problem: null, how: 'refused with a JSON 415' };
    return { problem: `the gzip-encoded request was neither forwarded nor refused with a JSON 415: the gateway answered ${res.status}`, how: `answered ${res.status}` };
  }
  const ce = headerValues(seen, 'content-encoding').join(', ');
  const asSent = seen.body.equals(sentGzip);
  const plain = seen.body.equals(Buffer.from(sentPlain, 'utf8'));
  if (isGzip(ce) && asSent) return { problem: null, how: 'forwarded as sent' };
  if (!ce && plain) return { problem: 'the gzip-encoded request body was forwarded decoded (without its header): the upstream gets other bytes than the client sent', how: 'decoded, header dropped' };
  if (!ce && (asSent || isGzipBytes(seen.body))) return { problem: 'the gzip-encoded request body was forwarded without its `Content-Encoding: gzip`: the upstream reads compressed bytes as JSON', how: 'header dropped' };
  if (isGzip(ce) && plain) return { problem: 'the request body was decoded but forwarded still labelled `Content-Encoding: gzip`: the upstream fails to gunzip it', how: 'decoded, header kept' };
  return { problem: `the gzip-encoded request body reached the upstream changed (content-encoding ${ce || 'absent'}, ${seen.bodyBytes} bytes: ${cutBytes(seen.body, 80)})`, how: 'changed' };
}
