import { defineCheck, fail, pass } from '../../src/core/check.js';
import { messageBody } from '../../src/upstream/replies/messages.js';
import { CASE_PLACEHOLDER, TOKEN_LENGTH } from '../../src/upstream/contract.js';
import { exchange, type Exchange } from '../shared/exchange.js';
import { attempt, describeShape, isJsonError, shapeOf } from '../shared/shape.js';
import { clientEvidence, cut } from '../shared/evidence.js';

const MIB = 1024 * 1024;
export const SIZES_MIB = [1, 5, 10, 30];
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

/** The image data of the largest size, kept for the seed: repeated runs in one process (the self-tests) make it once. */
let cached: { seed: number; data: string } | undefined;
function dataFor(seed: number): string {
  if (cached?.seed !== seed) cached = { seed, data: imageData(SIZES_MIB[SIZES_MIB.length - 1] * MIB, seed) };
  return cached.data;
}

const DATA_MARK = '__GWC_IMAGE_DATA__';

/**
 * A messages body of exactly `bytes` bytes once its case placeholder is replaced by a token:
 * a text block carrying the placeholder, and a base64 image block. The data is spliced in
 * (base64 needs no JSON escaping), sparing a JSON.stringify pass over tens of MiB.
 */
export function largeBody(bytes: number, data: string): { text: string; dataLength: number } {
  const render = (pad: string) =>
    JSON.stringify({
      model: 'claude-sonnet-4-5-20250929',
      max_tokens: 64,
      messages: [{ role: 'user', content: [{ type: 'text', text: `${CASE_PLACEHOLDER} What is in this image?${pad}` }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: DATA_MARK } }] }],
    });
  const target = bytes - (TOKEN_LENGTH - CASE_PLACEHOLDER.length);
  const envelope = render('').length - DATA_MARK.length;
  const dataLength = Math.floor((target - envelope) / 4) * 4;
  if (dataLength > data.length) throw new Error('harness bug: image data too short');
  const [head, tail] = render(' '.repeat(target - envelope - dataLength)).split(DATA_MARK);
  const text = head + data.slice(0, dataLength) + tail;
  if (text.length !== target) throw new Error(`harness bug: body is ${text.length} bytes, not ${target}`);
  return { text, dataLength };
}

interface SizeResult {
  mib: number;
  outcome: 'forwarded' | 'refused-json' | 'broken';
  status?: number;
  ms?: number;
  detail: string;
  bytesIdentical?: boolean;
}

/** What the upstream saw of the image, compared with what was sent. */
function judgeForwarded(x: Exchange, dataLength: number, data: string): string | null {
  if (!x.seen) return 'the client got a success but the upstream received no request';
  if (x.seen.body.length === Buffer.byteLength(x.sent) && x.seen.body.equals(Buffer.from(x.sent))) return null;
  let parsed: { messages?: Array<{ content?: Array<{ source?: { data?: unknown } }> }> };
  try {
    parsed = JSON.parse(x.seen.body.toString('utf8'));
  } catch {
    return `the upstream received ${x.seen.body.length} bytes that are not JSON (sent ${x.sent.length})`;
  }
  const got = parsed.messages?.[0]?.content?.[1]?.source?.data;
  if (typeof got !== 'string') return 'the image block arrived without its base64 data';
  if (got.length !== dataLength) return `the image data arrived with ${got.length} of ${dataLength} base64 characters`;
  if (got !== data.slice(0, dataLength)) return 'the image data arrived changed';
  return null;
}

export default defineCheck({
  id: 'errors.body.large',
  title: 'Messages bodies of 1, 5, 10 and 30 MiB (a base64 image block) are forwarded intact or refused with a JSON error',
  requirements: ['MSG-RESP-2', 'MSG-BODY-1'],
  level: 'MUST',
  area: 'errors',
  profile: 'default',
  protocol: 'messages',
  // Building, sending and comparing 46 MiB takes the event loop for a while: run alone, so
  // the timing checks of other areas are not disturbed.
  exclusive: true,
  requirement:
    'A large request (an image pasted into a conversation) reaches the upstream with its image data intact, or is refused with an error status and a JSON error body; an HTML 413 page (nginx\'s default client_max_body_size 1m) or a cut body fails. The largest size forwarded is reported (MSG-RESP-2, MSG-BODY-1; spec 2.1, 4 rule 2).',
  async run(ctx) {
    const data = dataFor(ctx.settings.seed);
    const results: SizeResult[] = [];
    for (const mib of SIZES_MIB) {
      const { text, dataLength } = largeBody(mib * MIB, data);
      const r = await attempt(() => exchange(ctx, text, { reply: (c) => c.upstream.next().json(messageBody()) }));
      if (!r.ok) {
        results.push({ mib, outcome: 'broken', detail: `no answer: ${r.error}` });
        break;
      }
      const x = r.value;
      if (Buffer.byteLength(x.sent) !== mib * MIB) throw new Error(`harness bug: sent ${Buffer.byteLength(x.sent)} bytes for ${mib} MiB`);
      const shape = shapeOf(x.res);
      const ms = Math.round(x.res.endedAt - x.res.startedAt);
      if (x.res.status < 300) {
        const problem = judgeForwarded(x, dataLength, data);
        const bytesIdentical = x.seen ? x.seen.body.equals(Buffer.from(x.sent)) : false;
        results.push(problem ? { mib, outcome: 'broken', status: x.res.status, ms, detail: problem, bytesIdentical } : { mib, outcome: 'forwarded', status: x.res.status, ms, detail: 'forwarded intact', bytesIdentical });
      } else if (isJsonError(shape)) results.push({ mib, outcome: 'refused-json', status: x.res.status, ms, detail: `refused: ${cut(x.res.text(), 200)}` });
      else results.push({ mib, outcome: 'broken', status: x.res.status, ms, detail: describeShape(shape, x.res.text()) });
      if (results[results.length - 1].outcome === 'broken') {
        (results[results.length - 1] as SizeResult & { client?: unknown }).client = clientEvidence(x.res, 400);
        break;
      }
    }
    const forwarded = results.filter((s) => s.outcome === 'forwarded').map((s) => s.mib);
    const largestForwardedMiB = forwarded.length ? Math.max(...forwarded) : 0;
    const evidence = { largestForwardedMiB, sizes: results };
    const broken = results.find((s) => s.outcome === 'broken');
    const summary = results.map((s) => `${s.mib} MiB ${s.outcome}${s.status ? ` ${s.status}` : ''}`).join(', ');
    if (broken)
      return fail(`a ${broken.mib} MiB body was neither forwarded intact nor refused with JSON: ${broken.detail} (largest forwarded: ${largestForwardedMiB ? `${largestForwardedMiB} MiB` : 'none'})`, {
        expected: 'forwarded intact, or an error status with a JSON error body',
        actual: `${broken.mib} MiB: ${broken.detail}`,
        evidence,
      });
    return pass(`${summary}; largest forwarded: ${largestForwardedMiB ? `${largestForwardedMiB} MiB` : 'none'}`, evidence);
  },
});
