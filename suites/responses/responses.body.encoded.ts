// RESP-BODY-2: a compressed request body (Content-Encoding: gzip, then zstd, as Codex sends its
// requests) is forwarded as sent, decoded whole and forwarded as plain JSON with Content-Encoding
// removed and its length corrected, or refused with a JSON 415; never read as JSON while still
// compressed, cut short, or decoded under a header that still says compressed. The judge is
// suites/shared/encoded-request.ts (shared with ENC-1); the zstd body is a raw-block frame
// (src/core/zstd.ts), the same on every Node line (Node 20 has no zstd compressor).
import { defineCheck, fail, pass, type CheckContext, type Evidence, type Verdict } from '../../src/check/check.js';
import { withToken } from '../../src/upstream/contract.js';
import { responsesAnswer, responsesJsonReply } from '../../src/protocols/responses/index.js';
import { RESPONSES_PATH, responsesBody } from '../shared/protocols.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { encodedRequestFate, REQUEST_CODINGS, type RequestCoding } from '../shared/encoded-request.js';

export default defineCheck({
  id: 'responses.body.encoded',
  title: 'A compressed request body (Content-Encoding: gzip or zstd) reaches the upstream as sent or decoded consistently, or is refused with a JSON 415',
  requirements: ['RESP-BODY-2'],
  level: 'MUST',
  untranslatable: 'the compressed body\'s bytes',
  protocol: 'responses',
  requirement:
    'A Responses API request whose body is compressed (Content-Encoding: gzip, then zstd, as Codex sends its requests) reaches the upstream with the same compressed bytes under the same Content-Encoding, or decoded whole as plain JSON with Content-Encoding removed and a Content-Length that is the decoded body\'s, or is refused with 415 and a JSON error without reaching the upstream; the gateway never refuses it as bad JSON, forwards it cut short, mangled, or decoded under a header that still says it is compressed.',
  fix: 'Forward a compressed request body as it came, bytes and `Content-Encoding` header together; or, when the gateway must read the body, decompress it whole first (gzip, and zstd: every frame) and forward the plain JSON with `Content-Encoding` removed and `Content-Length` set to the decoded length; or refuse it with a JSON 415. Never parse or cut compressed bytes as text.',
  async run(ctx) {
    const hows: string[] = [];
    let last: Evidence | undefined;
    for (const coding of REQUEST_CODINGS) {
      const r = await oneBody(ctx, coding);
      if (r.verdict) return r.verdict;
      hows.push(r.how);
      last = r.ev;
    }
    return pass(hows.join('; '), last);
  },
});

/** One compressed body's fate: a failing verdict, or how it passed. */
async function oneBody(ctx: CheckContext, c: RequestCoding): Promise<{ verdict?: Verdict; how: string; ev?: Evidence }> {
  const expectation = ctx.upstream.register(responsesJsonReply(responsesAnswer()));
  const plain = Buffer.from(withToken(responsesBody({}, 'Compressed hello.'), expectation.token));
  const body = c.compress(plain);
  const res = await ctx.gateway.send({ method: 'POST', path: RESPONSES_PATH, auth: 'bearer', body, headers: [['content-type', 'application/json'], ['content-encoding', c.name]], caseToken: expectation.token, signal: ctx.signal });
  const seen = await expectation.received(res.status < 300 ? 1000 : 200);
  const ev = exchangeEvidence({ res, seen });
  const fate = encodedRequestFate({ res, seen }, c, plain, body);
  if (fate.problem) return { how: '', verdict: fail(fate.problem, { expected: `the ${c.name} body forwarded as sent, or decoded whole without Content-Encoding and with its own length, or a JSON 415`, actual: fate.how, evidence: ev }) };
  return { how: `the ${c.name} body was ${fate.how}`, ev };
}
