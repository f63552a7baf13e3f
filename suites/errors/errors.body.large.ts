import { defineCheck, fail, pass } from '../../src/check/check.js';
import { messageBody } from '../../src/protocols/messages/index.js';
import { CASE_PLACEHOLDER, TOKEN_LENGTH } from '../../src/upstream/contract.js';
import { createHash } from 'node:crypto';
import { collectNow, passedYoung } from '../../src/core/pressure.js';
import { longStringDigest } from '../../src/client/bounded.js';
import type { CheckContext } from '../../src/check/check.js';
import { messagesHeaders, type GwResponse, type SizedBody } from '../../src/client/gateway.js';
import type { RecordedRequest } from '../../src/upstream/record.js';
import type { Expectation } from '../../src/upstream/upstream.js';
import { withToken } from '../../src/upstream/contract.js';
import { translation } from '../shared/route.js';
import { attempt, describeShape, errorObjectMissing, isJsonError, shapeOf } from '../shared/shape.js';
import { clientEvidence, excerpt } from '../shared/evidence.js';
import { parseJson } from '../../src/core/json.js';

const MIB = 1024 * 1024;
export const SIZES_MIB = [1, 5, 10, 30];
/** On a translated route the sizes stop here (the body is parsed and written again on the way). */
const TRANSLATED_MAX_MIB = 5;
/** A PNG starts with its signature and the IHDR chunk header: base64 `iVBORw0KGgoAAAANSUhEU...`. */
const PNG_START = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]);

/** Base64 of a PNG-looking byte string: the PNG start, then seeded xorshift32 bytes. */
export function imageData(base64Length: number, seed: number): string {
  const words = new Uint32Array(Math.ceil((base64Length * 3) / 4 / 4) + 3);
  let x = seed >>> 0 || 0x9e3779b9;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    words[i] = x >>> 0;
  }
  const raw = Buffer.from(words.buffer);
  PNG_START.copy(raw);
  return raw.toString('base64').slice(0, base64Length);
}

/**
 * imageData() as bytes, made on demand 64 KiB at a time (the same xorshift32 words, 48 KiB of
 * them per piece): the 30 MiB body is never held, only each piece while it is sent. Pieces stay
 * below V8's large-object size (128 KiB), so their strings die in the young generation instead
 * of piling up in old space until a full collection (46 MiB per pass over the four sizes).
 */
export function* imageDataChunks(base64Length: number, seed: number): Generator<Buffer> {
  const step = 48 * 1024;
  const words = new Uint32Array(step / 4);
  const raw = Buffer.from(words.buffer);
  let x = seed >>> 0 || 0x9e3779b9;
  for (let left = base64Length, first = true; left > 0; first = false) {
    for (let i = 0; i < words.length; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      words[i] = x >>> 0;
    }
    if (first) PNG_START.copy(raw);
    const piece = Buffer.from(raw.toString('base64'), 'latin1');
    passedYoung(piece.length);
    yield left < piece.length ? piece.subarray(0, left) : piece;
    left -= piece.length;
  }
}

const DATA_MARK = '__GWC_IMAGE_DATA__';

/**
 * The envelope of a messages body of exactly `bytes` bytes once its case placeholder is
 * replaced by a token: a text block carrying the placeholder, and a base64 image block whose
 * `dataLength` characters go between `head` and `tail`. The data is spliced in (base64 needs
 * no JSON escaping), sparing a JSON.stringify pass over tens of MiB.
 */
export function largeEnvelope(bytes: number): { head: string; tail: string; dataLength: number } {
  const render = (pad: string) =>
    JSON.stringify({
      model: 'claude-sonnet-4-5-20250929',
      max_tokens: 64,
      messages: [{ role: 'user', content: [{ type: 'text', text: `${CASE_PLACEHOLDER} What is in this image?${pad}` }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: DATA_MARK } }] }],
    });
  const target = bytes - (TOKEN_LENGTH - CASE_PLACEHOLDER.length);
  const envelope = render('').length - DATA_MARK.length;
  const dataLength = Math.floor((target - envelope) / 4) * 4;
  const [head, tail] = render(' '.repeat(target - envelope - dataLength)).split(DATA_MARK);
  return { head, tail, dataLength };
}

/** The whole body as one string (for tests of the envelope). */
export function largeBody(bytes: number, data: string): { text: string; dataLength: number } {
  const { head, tail, dataLength } = largeEnvelope(bytes);
  if (dataLength > data.length) throw new Error('harness bug: image data too short');
  const text = head + data.slice(0, dataLength) + tail;
  const target = bytes - (TOKEN_LENGTH - CASE_PLACEHOLDER.length);
  if (text.length !== target) throw new Error(`harness bug: body is ${text.length} bytes, not ${target}`);
  return { text, dataLength };
}

/**
 * largeBody() as a body made piece by piece while it is sent (SizedBody), with the case token
 * in place. `sha256()` is the SHA-256 of the whole: taken from the bytes as the first complete
 * pass sends them (so the 46 MiB are made once, not once to hash and again to send), or from a
 * pass of its own when no pass went to the end (a gateway that stopped reading).
 */
export function largeBodyParts(bytes: number, seed: number, token: string): { body: SizedBody; dataLength: number; sha256: () => string } {
  const { head, tail, dataLength } = largeEnvelope(bytes);
  const h = Buffer.from(withToken(head, token));
  const t = Buffer.from(tail);
  function* parts(): Generator<Buffer> {
    yield h;
    yield* imageDataChunks(dataLength, seed);
    yield t;
  }
  let digest: string | undefined;
  const body: SizedBody = {
    length: h.length + dataLength + t.length,
    *chunks() {
      const hash = digest === undefined ? createHash('sha256') : null;
      for (const c of parts()) {
        hash?.update(c);
        yield c;
      }
      if (hash) digest ??= hash.digest('hex');
    },
  };
  if (body.length !== bytes) throw new Error(`harness bug: body is ${body.length} bytes, not ${bytes}`);
  const sha256 = () => {
    // No pass went to the end: one of its own, which hashes as any pass does.
    if (digest === undefined) for (const c of body.chunks()) void c;
    return digest!;
  };
  return { body, dataLength, sha256 };
}

interface SizeResult {
  mib: number;
  outcome: 'forwarded' | 'refused-json' | 'broken';
  status?: number;
  ms?: number;
  detail: string;
  bytesIdentical?: boolean;
}

export interface LargeExchange {
  res: GwResponse;
  seen: RecordedRequest | null;
  expectation: Expectation;
  sentBytes: number;
  sentSha256: string;
  /** The seed of the image data, and its length. */
  seed: number;
  dataLength: number;
}

/** The prefix a chat completions image part puts before the base64 data (an image_url's data URL). */
const DATA_URL = Buffer.from('data:image/png;base64,');

/** On a translated route: the image data reached the upstream whole, as a string of its own or a data URL's tail (found by digest when the body was kept in part). */
function imageArrived(x: LargeExchange): boolean {
  const seen = x.seen!;
  if (seen.bodyTruncated) {
    const wanted = [longStringDigest(imageDataChunks(x.dataLength, x.seed)), longStringDigest([DATA_URL, ...imageDataChunks(x.dataLength, x.seed)])];
    return (seen.longStrings ?? []).some((s) => wanted.some((w) => s.length === w.length && s.digest === w.digest));
  }
  const data = Buffer.concat([...imageDataChunks(x.dataLength, x.seed)]).toString('latin1');
  const found = (v: unknown): boolean =>
    typeof v === 'string' ? v === data || v === DATA_URL.toString('latin1') + data : Array.isArray(v) ? v.some(found) : !!v && typeof v === 'object' && Object.values(v).some(found);
  try {
    return found(parseJson(seen.body.toString('utf8')));
  } catch {
    return false;
  }
}

/** What the upstream saw of the body, compared with what was sent: whole when small, by length and SHA-256 when large. */
export function judgeForwarded(x: LargeExchange): string | null {
  if (!x.seen) return 'the client got a success but the upstream received no request';
  // Across a translation the bytes differ; the image data is what a translation keeps.
  const t = translation('messages', x.seen);
  if (t) return imageArrived(x) ? null : `on the translated route messages → ${t.to} the image data did not arrive whole: the upstream received ${x.seen.bodyBytes} bytes and no string that is the ${x.dataLength} characters of image data sent (as they are, or in a data URL)`;
  if (x.seen.bodyBytes === x.sentBytes && x.seen.bodySha256 === x.sentSha256) return null;
  if (x.seen.bodyTruncated) {
    // Kept only in part: the image data is found by its digest among the body's long strings.
    const want = longStringDigest(imageDataChunks(x.dataLength, x.seed));
    if ((x.seen.longStrings ?? []).some((s) => s.length === want.length && s.digest === want.digest)) return null;
    const near = (x.seen.longStrings ?? []).map((s) => s.length);
    return `the image data did not arrive intact: the upstream received ${x.seen.bodyBytes} bytes (${x.sentBytes} sent) and ${near.length ? `long strings of ${near.join(', ')} characters, none equal to the ${x.dataLength} characters sent` : 'no string as long as the image data'}`;
  }
  let parsed: { messages?: Array<{ content?: Array<{ source?: { data?: unknown } }> }> };
  try {
    parsed = parseJson(x.seen.body.toString('utf8'));
  } catch {
    return `the upstream received ${x.seen.bodyBytes} bytes that are not JSON (sent ${x.sentBytes})`;
  }
  const got = parsed.messages?.[0]?.content?.[1]?.source?.data;
  if (typeof got !== 'string') return 'the image block arrived without its base64 data';
  if (got.length !== x.dataLength) return `the image data arrived with ${got.length} of ${x.dataLength} base64 characters`;
  // Kept whole only when small (RECORD_KEEP): the data is made again to compare.
  if (!Buffer.concat([...imageDataChunks(x.dataLength, x.seed)]).equals(Buffer.from(got, 'latin1'))) return 'the image data arrived changed';
  return null;
}

/** What the client got for a forwarded body: the upstream's JSON message, as a client reads it (not an HTML page with status 200). */
export function judgeClient(x: LargeExchange): string | null {
  // A JSON message a client can read; whether its fields arrived unchanged is messages.response.unchanged's concern.
  const shape = shapeOf(x.res);
  const parsed = shape.parsed as { type?: unknown } | undefined;
  if (!shape.json || parsed?.type !== 'message') return `the client got status ${x.res.status} but not a JSON message: ${describeShape(shape, x.res.text())}`;
  return null;
}

/** Sends one large body (three buffers, never joined) with the upstream scripted to answer a message. */
export async function sendLarge(ctx: CheckContext, bytes: number, seed: number): Promise<LargeExchange> {
  // The check runs alone (exclusive): a collection here costs no other check anything, and the
  // body's garbage starts from a clean heap instead of piling onto what the checks before left.
  collectNow();
  const expectation = ctx.upstream.next().json(messageBody());
  const { body, dataLength, sha256 } = largeBodyParts(bytes, seed, expectation.token);
  const res = await ctx.gateway.send({ method: 'POST', path: '/v1/messages', body, headers: messagesHeaders(), caseToken: expectation.token, signal: ctx.signal });
  const seen = await expectation.received(res.status < 300 ? 1000 : 200);
  return { res, seen, expectation, sentBytes: bytes, sentSha256: sha256(), seed, dataLength };
}

export default defineCheck({
  id: 'errors.body.large',
  title: 'Messages bodies of 1, 5, 10 and 30 MiB (a base64 image block) are forwarded intact or refused with a JSON error',
  requirements: ['MSG-RESP-2', 'MSG-BODY-1'],
  level: 'MUST',
  protocol: 'messages',
  // Building, sending and comparing 46 MiB takes the event loop for a while: run alone, so
  // the timing checks of other areas are not disturbed.
  exclusive: true,
  requirement:
    'A large request (an image pasted into a conversation) reaches the upstream with its image data intact, or is refused with an error status and a JSON error body; an HTML 413 page (nginx\'s default client_max_body_size 1m) or a cut body fails. The largest size forwarded is reported. On a route the gateway translates into another protocol, the image data must arrive whole in it (as its own string or a data URL), and the sizes stop at 5 MiB: errors.body.size-limit sends 32 MB there too (MSG-RESP-2, MSG-BODY-1).',
  fix: 'Raise the body size limit above the API\'s own (nginx: `client_max_body_size 64m;`, the default 1m refuses a screenshot) and make the limit\'s answer JSON (`error_page 413` to a JSON location). `proxy_request_buffering off;` forwards large bodies as they arrive.',
  async run(ctx) {
    const results: SizeResult[] = [];
    let translated: { to: string } | null = null;
    for (const mib of SIZES_MIB) {
      // Translated both ways the larger sizes cost the gateway twice: errors.body.size-limit's 32 MB judges past 5 MiB.
      if (translated && mib > TRANSLATED_MAX_MIB) break;
      const r = await attempt(() => sendLarge(ctx, mib * MIB, ctx.settings.seed));
      if (!r.ok) {
        results.push({ mib, outcome: 'broken', detail: `no answer: ${r.error}` });
        break;
      }
      const x = r.value;
      translated ??= translation('messages', x.seen);
      const shape = shapeOf(x.res);
      const ms = Math.round(x.res.endedAt - x.res.startedAt);
      if (x.res.status < 300) {
        // A pass rests on both sides: the upstream got the body, and the client got the upstream's answer.
        const problem = judgeForwarded(x) ?? judgeClient(x);
        const bytesIdentical = x.seen ? x.seen.bodyBytes === x.sentBytes && x.seen.bodySha256 === x.sentSha256 : false;
        results.push(problem ? { mib, outcome: 'broken', status: x.res.status, ms, detail: problem, bytesIdentical } : { mib, outcome: 'forwarded', status: x.res.status, ms, detail: 'forwarded intact', bytesIdentical });
      } else if (isJsonError(shape)) results.push({ mib, outcome: 'refused-json', status: x.res.status, ms, detail: `refused: ${excerpt(x.res.text(), 200)}` });
      else results.push({ mib, outcome: 'broken', status: x.res.status, ms, detail: errorObjectMissing(shape) ?? describeShape(shape, x.res.text()) });
      if (results[results.length - 1].outcome === 'broken') {
        (results[results.length - 1] as SizeResult & { client?: unknown }).client = clientEvidence(x.res, 400);
        break;
      }
    }
    const forwarded = results.filter((s) => s.outcome === 'forwarded').map((s) => s.mib);
    const largestForwardedMiB = forwarded.length ? Math.max(...forwarded) : 0;
    const route = translated ? ` (the translated route messages → ${translated.to}: sizes up to ${TRANSLATED_MAX_MIB} MiB, the image data found whole upstream; errors.body.size-limit sends 32 MB)` : '';
    const evidence = { largestForwardedMiB, sizes: results, ...(translated ? { translatedTo: translated.to } : {}) };
    const broken = results.find((s) => s.outcome === 'broken');
    const summary = results.map((s) => `${s.mib} MiB ${s.outcome}${s.status ? ` ${s.status}` : ''}`).join(', ');
    if (broken)
      return fail(`a ${broken.mib} MiB body was neither forwarded intact nor refused with a JSON error: ${broken.detail} (largest forwarded: ${largestForwardedMiB ? `${largestForwardedMiB} MiB` : 'none'})`, {
        expected: 'forwarded intact, or an error status with a JSON error body',
        actual: `${broken.mib} MiB: ${broken.detail}`,
        evidence,
      });
    return pass(`${summary}; largest forwarded: ${largestForwardedMiB ? `${largestForwardedMiB} MiB` : 'none'}${route}`, evidence);
  },
});
