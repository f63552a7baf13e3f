// How an answer the upstream compressed, and a request body the client compressed, came
// through the gateway (ENC-1): judged from both sides, what the client read and what reached
// the upstream (the request body's fate: suites/shared/encoded-request.ts, shared with
// RESP-BODY-2). messages.encoding.gzip and messages.encoding.zstd use it.
import { acceptsGzip, acceptsZstd, type RecordedRequest } from '../../src/upstream/record.js';
import { messagesHeaders, type GwResponse } from '../../src/client/gateway.js';
import type { CheckContext } from '../../src/check/check.js';
import { messageBody } from '../../src/protocols/messages/index.js';
import { withToken } from '../../src/upstream/contract.js';
import { MESSAGES_PATH, messagesBody } from '../shared/protocols.js';
import { encodedRequestFate, type EncodedFate, type RequestCoding } from '../shared/encoded-request.js';
import { tryParse } from '../../src/core/json.js';
import type { Exchange } from '../shared/exchange.js';
import { cutBytes, exchangeEvidence } from '../shared/evidence.js';

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

/**
 * A request body sent compressed in this coding through the gateway, and its fate at the upstream
 * (suites/shared/encoded-request.ts): forwarded as sent, refused with a JSON 415, or decoded whole
 * without its Content-Encoding.
 */
export async function encodedRequest(ctx: CheckContext, c: RequestCoding): Promise<EncodedFate & { evidence: ReturnType<typeof exchangeEvidence> }> {
  const e = ctx.upstream.next().json(messageBody());
  const plain = Buffer.from(withToken(messagesBody({}), e.token), 'utf8');
  const body = c.compress(plain);
  const res = await ctx.gateway.send({ method: 'POST', path: MESSAGES_PATH, body, headers: [...messagesHeaders(), ['content-encoding', c.name]], caseToken: e.token, signal: ctx.signal });
  const seen = await e.received(res.status < 300 ? 1000 : 200);
  return { ...encodedRequestFate({ res, seen }, c, plain, body), evidence: exchangeEvidence({ res, seen }, 600) };
}
