// RESP-PATH-1: a Responses API request keeps its path and query on the way to the upstream.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { responsesAnswer, responsesJsonReply } from '../../src/protocols/responses/index.js';
import { exchange, notForwarded, responsesSend } from '../shared/exchange.js';
import { RESPONSES_PATH, responsesBody } from '../shared/protocols.js';
import { exchangeEvidence } from '../shared/evidence.js';

/** A query as Azure OpenAI's clients send it: the upstream's API version travels in it. */
const PATH = `${RESPONSES_PATH}?api-version=2025-04-01-preview`;

/** What became of the sent query on the way, when it did not arrive as sent: dropped, or changed. */
function queryChange(url: string): string {
  const sent = PATH.split('?')[1];
  const [path, got] = url.split('?');
  const samePath = path === PATH.split('?')[0];
  if (got === undefined) return `: the query ?${sent} was dropped${samePath ? ' (the path arrived unchanged)' : ''}`;
  return got === sent ? '' : `: the query ?${sent} arrived as ?${got}`;
}

export default defineCheck({
  id: 'responses.path.preserved',
  title: 'POST /v1/responses?api-version=... arrives at the same path with the same query',
  requirements: ['RESP-PATH-1'],
  level: 'MUST',
  untranslatable: 'the path as the client sent it',
  protocol: 'responses',
  requirement: 'A Responses API request sent to {base}/v1/responses reaches the upstream at /v1/responses with its query string unchanged: no doubled or lost /v1, no segment added, no query parameter dropped, added or re-encoded.',
  fix: 'Forward `/v1/responses` as received, query string included; set the OpenAI base URL to the host root so `/v1` is not doubled or lost, and pass parameters such as `api-version` on unchanged.',
  async run(ctx) {
    const x = await exchange(ctx, responsesBody(), responsesSend({ reply: responsesJsonReply(responsesAnswer()), path: PATH }));
    if (!x.seen) return notForwarded(x);
    if (x.seen.url !== PATH) return fail(`the upstream received ${x.seen.method} ${x.seen.url}${queryChange(x.seen.url)}`, { expected: PATH, actual: x.seen.url, evidence: exchangeEvidence(x) });
    return pass(`arrived as POST ${PATH}`);
  },
});
