// ISO-1 on the model list: GET /v1/models, marked cacheable by the upstream, fetched with the
// run's key in each credential style Claude Code sends (Bearer, x-api-key), then with another
// key in the same style and with none: the later request is never answered from the first's.
import { defineCheck } from '../../src/check/check.js';
import { ANTHROPIC_VERSION } from '../../src/client/gateway.js';
import { CLAUDE_CODE_PAIRS, isolationPairs, judgePairs } from '../shared/isolation.js';
import { DISCOVERY_PATH, replyFor } from './common.js';

export default defineCheck({
  id: 'discovery.models.credential-cache',
  title: 'A model list the upstream marks cacheable, fetched with one key, is served neither to another key nor to a request without one',
  requirements: ['ISO-1'],
  level: 'MUST',
  protocol: 'messages',
  // The pairs run one after another, two requests each (their cache keys kept apart): each request
  // is given 5 s, past the 3 s a client waits for a model list (a slower list is
  // discovery.models.latency's finding), so a slow list (4 s an answer) is still judged here.
  timeLimitMs: (s) => Math.max(s.timeoutMs, CLAUDE_CODE_PAIRS.length * 2 * 5_000),
  requirement:
    "GET /v1/models with the run's key (as Bearer, and as x-api-key), answered with cache-control: max-age, then the same request with another key in the same style, and with no credential: each later request reaches the upstream with its own credential (or is refused), never answered from what the first key got (ISO-1).",
  fix: 'Key any cache of upstream answers on the credential (or do not cache answers to authenticated requests in a shared cache): add the `Authorization` and `x-api-key` values, or a hash of them, to the cache key (both: Claude Code sends ANTHROPIC_API_KEY as `x-api-key`, so a key made of `Authorization` alone shares one entry among all those clients), and never serve a cached answer to a request that carries no credential. In nginx, `proxy_cache_key` must include `$http_authorization$http_x_api_key`, or `proxy_no_cache $http_authorization` must be set.',
  async run(ctx) {
    const req = { method: 'GET' as const, path: DISCOVERY_PATH, headers: [['anthropic-version', ANTHROPIC_VERSION]] as Array<[string, string]> };
    const results = await isolationPairs(ctx, req, CLAUDE_CODE_PAIRS, () => replyFor(ctx, 'bearer'));
    return judgePairs(results, 'a model list');
  },
});
