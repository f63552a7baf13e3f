// ISO-1 on the native model list: GET /v1beta/models, marked cacheable by the upstream, fetched
// with the run's key in each credential style the Gemini API takes (x-goog-api-key, ?key=), then
// with another key in the same style and with none: the later request is never answered from
// the first's.
import { defineCheck } from '../../src/check/check.js';
import type { AuthStyle } from '../../src/client/gateway.js';
import { RECORDS } from '../../src/protocols/index.js';
import { MODEL_LIST_HEADERS, MODELS } from '../../src/protocols/messages/index.js';
import { isolationPairs, judgePairs, type Second } from '../shared/isolation.js';

const PATH = '/v1beta/models';
/** Each pair: the first request's style, and how the second carries its credential. */
const PAIRS: Array<[AuthStyle, Second]> = [
  ['x-goog-api-key', 'other'],
  ['key-query', 'other'],
  ['x-goog-api-key', 'none'],
  ['key-query', 'none'],
];

export default defineCheck({
  id: 'native.models.credential-cache',
  title: 'A native model list the upstream marks cacheable, fetched with one key, is served neither to another key nor to a request without one',
  requirements: ['ISO-1'],
  level: 'MUST',
  protocol: 'native',
  // The pairs run one after another, two requests each (their cache keys kept apart): each request
  // is given 5 s, past the 3 s a client waits for a model list (a slower list is
  // discovery.models.latency's finding), so a slow list (4 s an answer) is still judged here.
  timeLimitMs: (s) => Math.max(s.timeoutMs, PAIRS.length * 2 * 5_000),
  requirement:
    "GET /v1beta/models with the run's key (as x-goog-api-key, and as ?key=), answered with cache-control: max-age, then the same request with another key in the same style, and with no credential: each later request reaches the upstream with its own credential (or is refused), never answered from what the first key got (ISO-1).",
  fix: 'Key a cached `GET /v1beta/models` on the credential in whichever form it came (`x-goog-api-key` or the `key` query parameter); a cache that drops `key` from its URL key, or keys only on `Authorization`, serves one key\'s list to every other Gemini client and to requests with no key.',
  async run(ctx) {
    const codec = RECORDS.native.replies;
    const body = codec.models(MODELS.map((m) => ({ id: m.id, displayName: m.display_name, created: m.created_at })));
    const reply = () => ctx.upstream.register({ kind: 'json', protocol: 'native', status: 200, headers: [...codec.jsonHeaders, ...MODEL_LIST_HEADERS], body });
    const results = await isolationPairs(ctx, { method: 'GET', path: PATH, headers: [] }, PAIRS, reply);
    return judgePairs(results, 'a model list');
  },
});
