// DISC-9: the model list follows the upstream's. Within one case the upstream lists one set of
// models to the first GET /v1/models and, to the next, the same set with one model withdrawn
// and one added; the gateway's second answer must show the change. When the gateway's first
// answer declares a cache lifetime (cache-control max-age, less any Age), the client comes back
// once that lifetime has run out (a pause that is the scenario: the gateway stored the entry
// before the client had its answer, so the pause ends after the entry's lifetime whatever the
// load); a lifetime longer than MAX_LIFETIME_S is not waited for.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import type { GwResponse } from '../../src/client/gateway.js';
import { JSON_HEADERS } from '../../src/upstream/scenario.js';
import { MODELS, modelListBody, type ListedModel } from '../../src/protocols/messages/index.js';
import { setTimeout as pause } from 'node:timers/promises';
import { describe, discover, discoveryEvidence, parseModelList, uncorrelated, uncorrelatedSkip, type Discovery } from './common.js';
import { plural } from '../../src/core/words.js';

/** The model the upstream withdraws between the two requests, and the one it adds. */
const WITHDRAWN = MODELS[MODELS.length - 1];
const ADDED: ListedModel = { type: 'model', id: 'claude-gwc-added-5-0', display_name: 'Claude (added upstream)', created_at: '2026-11-20T00:00:00Z' };
const AFTER = [ADDED, ...MODELS.filter((m) => m.id !== WITHDRAWN.id)];

/** The longest declared lifetime the check waits out; a longer one is not judged. */
export const MAX_LIFETIME_S = 5;
/** Past the lifetime: a clock's rounding (timers and Date.now() round to the millisecond apart), not a margin for load. */
const ROUNDING_MS = 50;

/** The cache lifetime the gateway declares on an answer, in seconds, less the Age it reports (0: none, or no-cache / no-store). */
export function declaredLifetime(res: Pick<GwResponse, 'header'>): number {
  const cc = (res.header('cache-control') ?? '').toLowerCase();
  if (/no-cache|no-store/.test(cc)) return 0;
  const max = /(?:^|[,\s])(?:s-maxage|max-age)\s*=\s*(\d+)/.exec(cc);
  const age = Number(res.header('age') ?? 0);
  return max ? Math.max(0, Number(max[1]) - (Number.isFinite(age) && age > 0 ? age : 0)) : 0;
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
  protocol: 'messages',
  // Two answers, and the declared lifetime waited out.
  timeLimitMs: (s) => s.timeoutMs * 2 + MAX_LIFETIME_S * 1000,
  requirement: `GET /v1/models twice; between the two the upstream withdraws one model and adds another (its answers declare no cache lifetime). The second request goes at once when the gateway's first answer declares no cache lifetime, and once it has run out when it declares one (cache-control max-age less Age, up to ${MAX_LIFETIME_S} s; a longer one is not judged); the second answer lists the added model and not the withdrawn one (DISC-9).`,
  fix: 'Let the model list follow the upstream\'s: cache it no longer than the lifetime you declare to the client (`Cache-Control: max-age` on your answer), or re-fetch it on each request when you declare none. A model the upstream added must appear, and one it withdrew must go, once that lifetime has run out; a list cached for ever keeps offering a model that fails on every request.',
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
    if (lifetime > MAX_LIFETIME_S) return { ok: true, skip: true, message: `the gateway declares a cache lifetime of ${lifetime} s on the model list (cache-control max-age), longer than the ${MAX_LIFETIME_S} s this check waits: not judged`, evidence: discoveryEvidence(first) };
    if (lifetime > 0) await pause(lifetime * 1000 + ROUNDING_MS, undefined, { signal: ctx.signal });
    const second = await discover(ctx, 'bearer', e);
    const after = ids(second);
    const evidence = { first: discoveryEvidence(first, 400), second: discoveryEvidence(second, 400), upstreamHits: e.hits.length, declaredLifetimeS: lifetime, added: ADDED.id, withdrawn: WITHDRAWN.id };
    if (!after) return { ok: true, skip: true, message: `the second answer is not a model list (${describe(second)}): nothing to compare`, evidence };
    const stale = [...(after.includes(ADDED.id) ? [] : [`${ADDED.id}, added upstream, is missing`]), ...(after.includes(WITHDRAWN.id) ? [`${WITHDRAWN.id}, withdrawn upstream, is still listed`] : [])];
    const when = lifetime > 0 ? `after the ${lifetime} s cache lifetime the gateway declared` : 'with no cache lifetime declared';
    if (!stale.length) return pass(`the second list, ${when}, shows the upstream's change: ${ADDED.id} added, ${WITHDRAWN.id} withdrawn`, evidence);
    return fail(`the model list does not follow the upstream's ${when}: ${stale.join('; ')} (the upstream saw ${plural(e.hits.length, 'request')} for 2)`, {
      expected: `the second list with ${ADDED.id} and without ${WITHDRAWN.id}${lifetime > 0 ? `, ${lifetime} s after the first answer` : ''}`,
      actual: after.join(', '),
      evidence,
    });
  },
});
