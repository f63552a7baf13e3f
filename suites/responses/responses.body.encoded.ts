// RESP-BODY-2: a compressed request body (Content-Encoding: gzip, then zstd) is forwarded as sent
// or refused with a JSON 415, never decoded into something else. The zstd body is a raw-block
// frame (src/core/zstd.ts), the same on every Node line (Node 20 has no zstd compressor).
import { gzipSync } from 'node:zlib';
import { defineCheck, fail, pass, type CheckContext, type Evidence, type Verdict } from '../../src/check/check.js';
import { zstdFrame } from '../../src/core/zstd.js';
import { describeByteDiff, diffBytes } from '../../src/core/json-diff.js';
import { tryParse } from '../../src/core/json.js';
import { withToken } from '../../src/upstream/contract.js';
import { headerValues } from '../../src/upstream/record.js';
import { responsesAnswer, responsesJsonReply } from '../../src/protocols/responses/index.js';
import { RESPONSES_PATH, responsesBody } from '../shared/protocols.js';
import { exchangeEvidence, excerpt } from '../shared/evidence.js';

export default defineCheck({
  id: 'responses.body.encoded',
  title: 'A compressed request body (Content-Encoding: gzip or zstd) reaches the upstream as sent, header included, or is refused with a JSON 415',
  requirements: ['RESP-BODY-2'],
  level: 'MUST',
  untranslatable: 'the compressed body\'s bytes',
  protocol: 'responses',
  requirement:
    'A Responses API request whose body is compressed (Content-Encoding: gzip, then zstd, as OpenAI clients may send large inputs) either reaches the upstream with the same compressed bytes and the same Content-Encoding header, or is refused with 415 and a JSON error without reaching the upstream; the gateway never forwards the body decoded, mangled, or decoded under a header that still says it is compressed.',
  fix: 'Forward a compressed request body as it came, bytes and `Content-Encoding` header together, or refuse it with a JSON 415. A gateway that must read the body decompresses it fully and then removes the `Content-Encoding` header (and fixes `Content-Length`); never read compressed bytes as text.',
  async run(ctx) {
    const hows: string[] = [];
    let last: Evidence | undefined;
    for (const [coding, compress] of CODINGS) {
      const r = await oneBody(ctx, coding, compress);
      if (r.verdict) return r.verdict;
      hows.push(r.how);
      last = r.ev;
    }
    return pass(hows.join('; '), last);
  },
});

const CODINGS: Array<[string, (b: Buffer) => Buffer]> = [
  ['gzip', (b) => gzipSync(b)],
  ['zstd', zstdFrame],
];

/** One compressed body's fate: a failing verdict, or how it passed. */
async function oneBody(ctx: CheckContext, coding: string, compress: (b: Buffer) => Buffer): Promise<{ verdict?: Verdict; how: string; ev?: Evidence }> {
  const expectation = ctx.upstream.register(responsesJsonReply(responsesAnswer()));
  const body = compress(Buffer.from(withToken(responsesBody({}, 'Compressed hello.'), expectation.token)));
  const res = await ctx.gateway.send({ method: 'POST', path: RESPONSES_PATH, auth: 'bearer', body, headers: [['content-type', 'application/json'], ['content-encoding', coding]], caseToken: expectation.token, signal: ctx.signal });
  const seen = await expectation.received(res.status < 300 ? 1000 : 200);
  const ev = exchangeEvidence({ res, seen });
  if (!seen) {
    const json = tryParse(res.text());
    if (res.status === 415 && json.ok) return { how: `the gateway refused the ${coding} body with a JSON 415`, ev };
    return { how: '', verdict: fail(`the ${coding} request never reached the upstream and the gateway answered ${res.status}${json.ok ? '' : ' without a JSON body'}`, { expected: 'the body forwarded as sent, or a JSON 415', actual: `${res.status}: ${excerpt(res.text(), 200)}`, evidence: ev }) };
  }
  const encoding = headerValues(seen, 'content-encoding').join(', ');
  const d = diffBytes(body, seen.body);
  if (d) {
    const decoded = seen.body.length > 0 && seen.body[0] === 0x7b;
    return { how: '', verdict: fail(`the upstream received other bytes than the ${coding} body sent (${decoded ? 'the decoded JSON' : describeByteDiff(d)}) with content-encoding ${encoding ? `"${encoding}"` : 'absent'}`, { expected: `${body.length} ${coding} bytes with content-encoding: ${coding}`, actual: `${seen.body.length} bytes, first difference at offset ${d.offset}`, evidence: { byteDiff: d, ...ev } }) };
  }
  if (encoding.toLowerCase() !== coding) return { how: '', verdict: fail(`the ${coding} bytes arrived with content-encoding ${encoding ? `"${encoding}"` : 'absent'}: the upstream cannot know they are ${coding}`, { expected: `content-encoding: ${coding}`, actual: encoding || '(absent)', evidence: ev }) };
  return { how: `the ${coding} body reached the upstream byte for byte with content-encoding: ${coding}`, ev };
}
