// What became of a request body the client sent compressed (ENC-1 for the messages protocol,
// RESP-BODY-2 for the Responses API), judged from what reached the upstream: forwarded as sent
// (the same bytes under the same Content-Encoding), refused with a JSON 415, or decoded whole
// and forwarded as plain JSON with Content-Encoding removed and a length that is the body's. Every
// other fate is named: compressed bytes without their label, decoded bytes still labelled, a
// decoded body with its tail cut, a refusal that read the compressed bytes as JSON, bytes changed.
import { gzipSync } from 'node:zlib';
import type { GwResponse } from '../../src/client/gateway.js';
import { zstdFrame } from '../../src/core/zstd.js';
import { headerValues, type RecordedRequest } from '../../src/upstream/record.js';
import { cutBytes } from './evidence.js';
import { isJsonError, shapeOf } from './shape.js';

/** A request content-coding the checks send: its name and how the client compresses with it (zstd: a raw-block frame, the same on every Node line). */
export interface RequestCoding {
  name: 'gzip' | 'zstd';
  compress(plain: Buffer): Buffer;
}
export const REQUEST_CODINGS: readonly RequestCoding[] = [
  { name: 'gzip', compress: (b) => gzipSync(b) },
  { name: 'zstd', compress: zstdFrame },
];

const labels = (c: RequestCoding, v: string) => (c.name === 'gzip' ? /^\s*(x-)?gzip\s*$/i : /^\s*zstd\s*$/i).test(v);
/** The first bytes of a body in this coding (gzip 1F 8B, zstd 28 B5 2F FD): compressed bytes, whatever the label says. */
const compressedBytes = (c: RequestCoding, b: Buffer) => (c.name === 'gzip' ? b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b : b.length >= 4 && b.readUInt32LE(0) === 0xfd2fb528);

/** How the body came through when nothing is wrong (`problem` null), or what is wrong, in words. */
export interface EncodedFate {
  problem: string | null;
  how: string;
}

/** The fate of a compressed request body: `plain` the JSON the client compressed, `sent` the compressed bytes it sent. */
export function encodedRequestFate(x: { res: GwResponse; seen: RecordedRequest | null }, c: RequestCoding, plain: Buffer, sent: Buffer): EncodedFate {
  const { seen, res } = x;
  if (!seen) return refused(res, c);
  const ce = headerValues(seen, 'content-encoding').join(', ');
  const unlabelled = !ce || /^\s*identity\s*$/i.test(ce);
  if (labels(c, ce) && seen.body.equals(sent)) return { problem: null, how: `forwarded as sent (the ${c.name} bytes under their Content-Encoding)` };
  if (unlabelled && seen.body.equals(plain)) return decoded(seen, c);
  if (unlabelled && plain.subarray(0, seen.bodyBytes).equals(seen.body) && seen.bodyBytes < plain.length)
    return { problem: `the ${c.name} request body was decoded but reached the upstream cut short: ${seen.bodyBytes} of its ${plain.length} bytes of JSON, the tail lost (a partial decode forwarded as the whole)`, how: 'decoded, tail cut' };
  if (unlabelled && (seen.body.equals(sent) || compressedBytes(c, seen.body))) return { problem: `the ${c.name} request body was forwarded without its \`Content-Encoding: ${c.name}\`: the upstream reads compressed bytes as JSON`, how: 'header dropped' };
  if (labels(c, ce) && seen.body.equals(plain)) return { problem: `the request body was decoded but forwarded still labelled \`Content-Encoding: ${c.name}\`: the upstream fails to decode it`, how: 'decoded, header kept' };
  return { problem: `the ${c.name} request body reached the upstream changed (content-encoding ${ce || 'absent'}, ${seen.bodyBytes} bytes: ${cutBytes(seen.body, 80)})`, how: 'changed' };
}

/** Not forwarded: a JSON 415 is the one refusal allowed; a 400 is a gateway that read the compressed bytes as JSON. */
function refused(res: GwResponse, c: RequestCoding): EncodedFate {
  if (res.status === 415 && isJsonError(shapeOf(res))) return { problem: null, how: 'refused with a JSON 415' };
  if (res.status === 400) return { problem: `the ${c.name} request body was refused with 400 instead of forwarded, decoded or refused with a JSON 415: the gateway read the compressed bytes as JSON`, how: 'answered 400' };
  return { problem: `the ${c.name}-encoded request was neither forwarded nor refused with a JSON 415: the gateway answered ${res.status}`, how: `answered ${res.status}` };
}

/** What is wrong with the framing of a body the gateway made anew (decoded, translated): both framings at once, or a Content-Length that is not its length; null when none is. */
export function remadeFramingProblem(seen: RecordedRequest, what: string): string | null {
  const lengths = headerValues(seen, 'content-length');
  const chunked = headerValues(seen, 'transfer-encoding').some((v) => /chunked/i.test(v));
  if (lengths.length && chunked) return `${what} was forwarded with both Content-Length and Transfer-Encoding: chunked: the upstream cannot tell where it ends`;
  const wrong = lengths.find((v) => v.trim() !== String(seen.bodyBytes));
  return wrong === undefined ? null : `${what} is ${seen.bodyBytes} bytes but was forwarded with \`Content-Length: ${wrong}\``;
}

/** Decoded whole and forwarded without Content-Encoding: right when the headers say what the body is (its own length, one framing). */
function decoded(seen: RecordedRequest, c: RequestCoding): EncodedFate {
  const problem = remadeFramingProblem(seen, `the decoded ${c.name} request body`);
  if (problem) return { problem, how: 'decoded, framing wrong' };
  const lengths = headerValues(seen, 'content-length');
  return { problem: null, how: `decoded and forwarded as plain JSON without Content-Encoding (${lengths.length ? `Content-Length ${seen.bodyBytes}, the decoded body's` : 'chunked'})` };
}
