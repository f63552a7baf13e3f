import { defineCheck, fail, pass } from '../../src/check/check.js';
import { ERROR_MESSAGES } from '../../src/protocols/messages/index.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';

const MODEL = 'claude-gwc-no-such-model-20990101';
/** A late retry (after the gateway answered) arrives within this bound or is not counted. */
const LATE_RETRY_MS = 300;

export default defineCheck({
  id: 'errors.retry.invalid-model',
  title: 'A request for an unknown model, answered 404 not_found_error by the upstream, is not sent again and again',
  requirements: ['ERR-RETRY-1'],
  level: 'MUST',
  protocol: 'messages',
  requirement:
    'An invalid model id (upstream 404 not_found_error) is not retried repeatedly: the upstream receives the request once, at most twice, and the 404 goes back to the client (ERR-RETRY-1).',
  fix: 'Do not retry a 404 `not_found_error` (an invalid model) upstream; return it to the client. nginx: `proxy_next_upstream off;`.',
  async run(ctx) {
    const x = await exchange(ctx, messagesBody({ model: MODEL }), { reply: (c) => c.upstream.next().error(404, { message: ERROR_MESSAGES[404] }) });
    if (!x.seen)
      return {
        ok: true,
        skip: true,
        message: `could not judge: the gateway answered the request for the unknown model ${MODEL} itself (status ${x.res.status}) and nothing reached the upstream, so the upstream's scripted 404 never came into play (nothing was retried)`,
        evidence: { upstreamHits: 0, clientStatus: x.res.status, exchange: exchangeEvidence(x, 600) },
      };
    // Retries before the answer are all in; wait, bounded, for one that comes after it.
    const hits = await x.expectation.waitForHits(x.expectation.hits.length + 1, LATE_RETRY_MS);
    const times = x.expectation.hits.map((h) => Math.round(h.receivedAt - x.res.startedAt));
    const evidence = { upstreamHits: hits, hitTimesMs: times, clientStatus: x.res.status, exchange: exchangeEvidence(x, 600) };
    if (hits > 2)
      return fail(`the upstream received the request ${hits} times: the gateway retried a 404 for an unknown model ${hits - 1} times`, {
        expected: '1 upstream request (2 at most)',
        actual: `${hits} upstream requests at ${times.join(', ')} ms`,
        evidence,
      });
    return pass(`the upstream received the request ${hits === 1 ? 'once' : 'twice (retried once)'}; the client got ${x.res.status}`, evidence);
  },
});
