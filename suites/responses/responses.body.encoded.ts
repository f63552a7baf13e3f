// RESP-BODY-2: a gzip-compressed request body (Content-Encoding: gzip) is forwarded as sent or
// refused with a JSON 415, never decoded into something else. Only gzip is sent: Node 20's zlib
// has no zstd, so a zstd body cannot be made here.
import { gzipSync } from 'node:zlib';
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { describeByteDiff, diffBytes } from '../../src/core/json-diff.js';
import { tryParse } from '../../src/core/json.js';
import { withToken } from '../../src/upstream/contract.js';
import { headerValues } from '../../src/upstream/record.js';
import { responsesAnswer, responsesJsonReply } from '../../src/protocols/responses/index.js';
import { RESPONSES_PATH, responsesBody } from '../shared/protocols.js';
import { exchangeEvidence, excerpt } from '../shared/evidence.js';

export default defineCheck({
  id: 'responses.body.encoded',
  title: 'A gzip-compressed request body (Content-Encoding: gzip) reaches the upstream as sent, header included, or is refused with a JSON 415',
  requirements: ['RESP-BODY-2'],
  level: 'MUST',
  untranslatable: 'the compressed body\'s bytes',
  protocol: 'responses',
  requirement:
    'A Responses API request whose body is compressed (Content-Encoding: gzip, as OpenAI clients may send large inputs) either reaches the upstream with the same compressed bytes and the same Content-Encoding header, or is refused with 415 and a JSON error without reaching the upstream; the gateway never forwards the body decoded, mangled, or decoded under a header that still says gzip. (Checked with gzip only: Node 20\'s zlib has no zstd.)',
  fix: 'Forward a compressed request body as it came, bytes and `Content-Encoding` header together, or refuse it with a JSON 415. A gateway that must read the body decompresses it fully and then removes the `Content-Encoding` header (and fixes `Content-Length`); never read compressed bytes as text.',
  async run(ctx) {
    const expectation = ctx.upstream.register(responsesJsonReply(responsesAnswer()));
    const body = gzipSync(Buffer.from(withToken(responsesBody({}, 'Compressed hello.'), expectation.token)));
    const res = await ctx.gateway.send({ method: 'POST', path: RESPONSES_PATH, auth: 'bearer', body, headers: [['content-type', 'application/json'], ['content-encoding', 'gzip']], caseToken: expectation.token, signal: ctx.signal });
    const seen = await expectation.received(res.status < 300 ? 1000 : 200);
    const x = { sent: `(${body.length} gzip bytes)`, res, seen, expectation };
    const ev = exchangeEvidence(x);
    if (!seen) {
      const json = tryParse(res.text());
      if (res.status === 415 && json.ok) return pass('the gateway refused the compressed body with a JSON 415', ev);
      return fail(`the request never reached the upstream and the gateway answered ${res.status}${json.ok ? '' : ' without a JSON body'}`, { expected: 'the body forwarded as sent, or a JSON 415', actual: `${res.status}: ${excerpt(res.text(), 200)}`, evidence: ev });
    }
    const encoding = headerValues(seen, 'content-encoding').join(', ');
    const d = diffBytes(body, seen.body);
    if (d) {
      const decoded = seen.body.length > 0 && seen.body[0] === 0x7b;
      return fail(`the upstream received other bytes than the compressed body sent (${decoded ? 'the decoded JSON' : describeByteDiff(d)}) with content-encoding ${encoding ? `"${encoding}"` : 'absent'}`, { expected: `${body.length} gzip bytes with content-encoding: gzip`, actual: `${seen.body.length} bytes, first difference at offset ${d.offset}`, evidence: { byteDiff: d, ...ev } });
    }
    if (encoding.toLowerCase() !== 'gzip') return fail(`the compressed bytes arrived with content-encoding ${encoding ? `"${encoding}"` : 'absent'}: the upstream cannot know they are gzip`, { expected: 'content-encoding: gzip', actual: encoding || '(absent)', evidence: ev });
    return pass('the compressed body reached the upstream byte for byte with content-encoding: gzip', ev);
  },
});
