import { defineCheck, fail, pass } from '../../src/check/check.js';
import { messageBody } from '../../src/protocols/messages/index.js';
import { messagesBody } from '../shared/protocols.js';
import { REQUEST_CODINGS } from '../shared/encoded-request.js';
import { exchange } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { answerHow, answerProblem, arrived, encodedRequest } from './encoding.js';

/** What the client asks for: gzip, as SDKs built on fetch or requests do. */
const ACCEPT: [string, string] = ['accept-encoding', 'gzip'];

export default defineCheck({
  id: 'messages.encoding.gzip',
  title: 'gzip-encoded answers (a message and an error) and a gzip-encoded request body pass through the gateway intact or decoded consistently',
  requirements: ['ENC-1'],
  level: 'MUST',
  protocol: 'messages',
  untranslatable: 'the answer\'s bytes under their content-encoding',
  requirement:
    'The client asks for gzip; the upstream compresses its answer (a 200 message, then a 400 error) when the forwarded request accepts gzip. The client gets each either still encoded with `Content-Encoding: gzip` or decoded without it, never decoded with the header left on, encoded without it, or corrupted. A request body sent gzip-encoded (`Content-Encoding: gzip`) reaches the upstream as sent (the same bytes under the same header), or decoded whole as plain JSON without `Content-Encoding` and with a `Content-Length` that is the decoded body\'s, or is refused with a JSON 415 (as RESP-BODY-2 for the Responses API); never refused as bad JSON, cut short, or decoded under a header that still says gzip.',
  fix: 'Keep the body and its `Content-Encoding` together: pass a gzip answer through with its header, or decode it and remove the header (and any `Content-Length` of the encoded bytes); never decode and keep the header, and never strip the header from bytes still encoded. For requests: forward a gzip request body as sent, bytes and `Content-Encoding` together; or decode it whole before reading it and forward the plain JSON with `Content-Encoding` removed and `Content-Length` set to the decoded length; or refuse it with a JSON 415. Never parse the compressed bytes as JSON. A gateway that does not want to handle compression can send `Accept-Encoding: identity` upstream.',
  async run(ctx) {
    const hows: string[] = [];
    const answers: Array<[string, number | null]> = [['200 message', null], ['400 error', 400]];
    for (const [what, status] of answers) {
      const x = await exchange(ctx, messagesBody({}), { headers: [ACCEPT], reply: (c) => (status ? c.upstream.next().error(status, { gzip: true }) : c.upstream.next().json(messageBody(), { gzip: true })) });
      const problem = x.seen ? answerProblem(x, what) : `the request for the ${what} never reached the upstream (the gateway answered ${x.res.status})`;
      if (problem) return fail(problem, { expected: 'the upstream\'s gzip answer still encoded with its header, or decoded without it', actual: arrived(x.res), evidence: exchangeEvidence(x, 600) });
      hows.push(`the ${what} ${answerHow(x)}`);
    }
    const r = await encodedRequest(ctx, REQUEST_CODINGS[0]);
    if (r.problem) return fail(r.problem, { expected: 'the gzip request body forwarded as sent, header included; or decoded whole and forwarded as plain JSON without Content-Encoding, its length corrected; or a JSON 415', actual: r.how, evidence: r.evidence });
    return pass(`${hows.join('; ')}; the gzip-encoded request body was ${r.how}`, r.evidence);
  },
});
