// DISC-9: the model list follows the upstream's. Within one case the upstream lists one set of
// models to the first GET /v1/models and, to the next, the same set with one model withdrawn
// and one added; the gateway's second answer must show the change, unless its first answer
// declared a cache lifetime (cache-control max-age) that has not run out.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import type { GwResponse } from '../../src/client/gateway.js';
import { JSON_HEADERS } from '../../src/upstream/scenario.js';
import { MODELS, modelListBody, type ListedModel } from '../../src/upstream/replies/discovery.js';
import { describe, discover, discoveryEvidence, parseModelList, uncorrelated, uncorrelatedSkip, type Discovery } from './common.js';

/** The model the upstream withdraws between the two requests, and the one it adds. */
const WITHDRAWN = MODELS[MODELS.length - 1];
const ADDED: ListedModel = { type: 'model', id: 'claude-gwc-added-5-0', display_name: 'Claude (added upstream)', created_at: '2026-11-20T00:00:00Z' };
const AFTER = [ADDED, ...MODELS.filter((m) => m.id !== WITHDRAWN.id)];

/** The cache lifetime the gateway declares on an answer, in seconds (0: none, or no-cache / no-store). */
function declaredLifetime(res: GwResponse): number {
  const cc = (res.header('cache-control') ?? '').toLowerCase();
  if (/no-cache|no-store/.test(cc)) return 0;
  const age = /(?:^|[,\s])(?:s-maxage|max-age)\s*=\s*(\d+)/.exec(cc);
  return age ? Number(age[1]) : 0;
}

/** The listed ids, or null when the answer is not a model list. */
function ids(d: Discovery): string[] | null {
  const list = d.shape?.json && d.res!.status < 300 ? parseModelList(d.shape.parsed) : null;
  return list?.ok ? list.items.map((m) => m.id) : null;
}

export default defineCheck({
  id: 'discovery.models.current',
  title: 'A model added or withdrawn upstream shows in the model list within the cache lifetime the gateway declares',
  requirements: ['DISC-9'],
  level: 'SHOULD',
  area: 'discovery',
  profile: 'default',
  protocol: 'messages',
  requirement:
    'GET /v1/models twice; between the two the upstream withdraws one model and adds another (its answers declare no cache lifetime). When the first answer the client got declares none either (no cache-control max-age), the second lists the added model and not the withdrawn one (DISC-9).',
  async run(ctx) {
    const e = ctx.upstream.register({ kind: 'json', protocol: 'messages', status: 200, headers: JSON_HEADERS, body: modelListBody(), later: [{ kind: 'json', protocol: 'messages', status: 200, headers: JSON_HEADERS, body: modelListBody(AFTER) }] });
    const first = await discover(ctx, 'bearer', e);
    if (uncorrelated(first)) return uncorrelatedSkip(first);
    const before = ids(first);
    if (!before) return { ok: true, skip: true, message: `the first answer is not a model list (${describe(first)}): nothing to compare`, evidence: discoveryEvidence(first) };
    // A list of the gateway's own (the upstream asked nothing, and the ids are not the upstream's) is not the upstream's to follow.
    if (!e.hits.length && before.join() !== MODELS.map((m) => m.id).join())
      return { ok: true, skip: true, message: `the gateway answers with a model list of its own (the upstream saw no request; ${before.length} ids, not the upstream's): nothing that follows the upstream`, evidence: discoveryEvidence(first) };
    const lifetime = declaredLifetime(first.res!);
    const second = await discover(ctx, 'bearer', e);
    const after = ids(second);
    const evidence = { first: discoveryEvidence(first, 400), second: discoveryEvidence(second, 400), upstreamHits: e.hits.length, declaredLifetimeS: lifetime, added: ADDED.id, withdrawn: WITHDRAWN.id };
    if (!after) return { ok: true, skip: true, message: `the second answer is not a model list (${describe(second)}): nothing to compare`, evidence };
    const stale = [...(after.includes(ADDED.id) ? [] : [`${ADDED.id}, added upstream, is missing`]), ...(after.includes(WITHDRAWN.id) ? [`${WITHDRAWN.id}, withdrawn upstream, is still listed`] : [])];
    if (!stale.length) return pass(`the second list shows the upstream's change: ${ADDED.id} added, ${WITHDRAWN.id} withdrawn`, evidence);
    if (lifetime > 0) return { ok: true, skip: true, message: `the second list is the earlier one (${stale.join('; ')}), within the ${lifetime} s the gateway declared (cache-control max-age): not judged`, evidence };
    return fail(`the model list does not follow the upstream's, and the gateway declared no cache lifetime: ${stale.join('; ')} (the upstream saw ${e.hits.length} request(s) for 2)`, {
      expected: `the second list with ${ADDED.id} and without ${WITHDRAWN.id}, or a cache lifetime declared on the first answer`,
      actual: after.join(', '),
      evidence,
    });
  },
});
