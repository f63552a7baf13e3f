import { defineCheck, fail, pass } from '../../src/check/check.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange, notForwarded } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { pathChange } from '../shared/route.js';

export default defineCheck({
  id: 'messages.path.preserved',
  title: 'POST /v1/messages, with and without ?beta=true, arrives at /v1/messages with its query',
  requirements: ['MSG-PATH-1'],
  level: 'MUST',
  untranslatable: 'the path and query as the client sent them',
  protocol: 'messages',
  requirement: 'The messages path reaches the upstream as /v1/messages with the query kept: no /v1/v1, no lost or doubled segment.',
  fix: 'Forward the path as received. In nginx, `proxy_pass http://upstream;` with no URI part keeps path and query; a URI part (`proxy_pass http://upstream/v1/;`) rewrites them. Set the gateway\'s upstream to the host root, without `/v1`, so it does not become `/v1/v1/messages`.',
  async run(ctx) {
    for (const query of ['', '?beta=true']) {
      const x = await exchange(ctx, messagesBody({}), { query });
      if (!x.seen) return notForwarded(x);
      const want = `/v1/messages${query}`;
      if (x.seen.url !== want) return fail(pathChange(x.seen.method, want, x.seen.url), { expected: want, actual: x.seen.url, evidence: exchangeEvidence(x) });
    }
    return pass('both paths arrived as /v1/messages with the query kept');
  },
});
