// ENC-1 for zstd (RFC 9659), as clients now offer it (`Accept-Encoding: gzip, deflate, br, zstd`):
// an answer the upstream compressed with zstd reaches the client still encoded with its header,
// or decoded without it; a request body sent with zstd (as Codex sends its requests) is forwarded
// as sent, decoded consistently, or refused with a JSON 415. The client decodes zstd with zlib
// where its Node has it whole and with fzstd elsewhere (src/core/zstd.ts); the upstream's frames
// are the same on every line.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { messageBody } from '../../src/protocols/messages/index.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { answerHow, answerProblem, arrived, encodedRequest, ZSTD } from './encoding.js';
import { REQUEST_CODINGS } from '../shared/encoded-request.js';

/** What the client asks for: zstd only, so that an upstream reached with this header can answer nothing else compressed. */
const ACCEPT: [string, string] = ['accept-encoding', 'zstd'];

export default defineCheck({
  id: 'messages.encoding.zstd',
  title: 'zstd-encoded answers (a message and an error) and a zstd-encoded request body pass through the gateway intact or decoded consistently',
  requirements: ['ENC-1'],
  level: 'MUST',
  protocol: 'messages',
  untranslatable: 'the answer\'s bytes under their content-encoding',
  requirement:
    'The client asks for zstd; the upstream compresses its answer (a 200 message, then a 400 error) with zstd when the forwarded request accepts zstd. The client gets each either still encoded with `Content-Encoding: zstd` or decoded without it, never decoded with the header left on, encoded without it, or corrupted. A gateway that does not pass zstd on in `Accept-Encoding` gets uncompressed answers, which pass. A request body sent zstd-encoded (`Content-Encoding: zstd`, as Codex sends its requests) reaches the upstream as sent, or decoded whole as plain JSON without `Content-Encoding` and with the decoded body\'s length, or is refused with a JSON 415; never refused as bad JSON, cut short, or decoded under a header that still says zstd.',
  fix: 'Keep the body and its `Content-Encoding` together for zstd as for gzip: pass a zstd answer through with its header, or decode it and remove the header (and any `Content-Length` of the encoded bytes); never decode and keep the header, and never strip the header from bytes still encoded. A gateway whose decoder lacks zstd should not offer it upstream: forward `Accept-Encoding` without it. For a zstd request body: forward it as sent, or decode it whole (RFC 8878 frames, every one of them) and forward plain JSON with `Content-Encoding` removed and `Content-Length` corrected, or refuse it with a JSON 415; never parse the compressed bytes as JSON.',
  async run(ctx) {
    const hows: string[] = [];
    let last: Parameters<typeof exchangeEvidence>[0] | null = null;
    const answers: Array<[string, number | null]> = [['200 message', null], ['400 error', 400]];
    for (const [what, status] of answers) {
      const x = await exchange(ctx, messagesBody({}), { headers: [ACCEPT], reply: (c) => (status ? c.upstream.next().error(status, { zstd: true }) : c.upstream.next().json(messageBody(), { zstd: true })) });
      const problem = x.seen ? answerProblem(x, what, ZSTD) : `the request for the ${what} never reached the upstream (the gateway answered ${x.res.status})`;
      if (problem) return fail(problem, { expected: 'the upstream\'s zstd answer still encoded with its header, or decoded without it', actual: arrived(x.res), evidence: exchangeEvidence(x, 600) });
      hows.push(`the ${what} ${answerHow(x, ZSTD)}`);
      last = x;
    }
    const r = await encodedRequest(ctx, REQUEST_CODINGS[1]);
    if (r.problem) return fail(r.problem, { expected: 'the zstd request body forwarded as sent, header included; or decoded whole and forwarded as plain JSON without Content-Encoding, its length corrected; or a JSON 415', actual: r.how, evidence: r.evidence });
    return pass(`${hows.join('; ')}; the zstd-encoded request body was ${r.how}`, last ? exchangeEvidence(last, 600) : r.evidence);
  },
});
