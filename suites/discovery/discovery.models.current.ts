// DISC-9: the model list follows the upstream's, in two rounds of two GET /v1/models each, each
// round a case of its own (its own cache key in an honest cache). In each, the upstream lists one
// set of models to the first request and, to the next, the same set with one model withdrawn and
// one added; the gateway's second answer must show the change. Round 1: the upstream's lists
// declare no freshness, so the second request goes at once (or once the cache lifetime the
// gateway's first answer declares, cache-control max-age less any Age, has run out). Round 2:
// the upstream's lists carry a short freshness (max-age=UPSTREAM_FRESH_S), so a cache may keep
// the first for that long, and the second request goes once it, and any lifetime the gateway
// declares, have run out. The pause is the scenario: a cache stored the entry before the client
// had its answer, so a pause counted from that answer ends past the entry's lifetime whatever
// the load. A lifetime the gateway declares past MAX_LIFETIME_S is not waited for.
import { defineCheck, fail, pass, type CheckContext, type Verdict } from '../../src/check/check.js';
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
/** The freshness the upstream gives its lists in the second round (cache-control: max-age). */
export const UPSTREAM_FRESH_S = 5;
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

/** What one round found: its verdict when it ends the check (a skip or a fail), else what it saw. */
type Round = { ended: Verdict } | { waitedS: number; evidence: Record<string, unknown> };

/** One round: the first list, the change upstream, the wait the freshness asks, the second list. */
async function round(ctx: CheckContext, n: 1 | 2, freshS: number): Promise<Round> {
  const headers: Array<[string, string]> = [...JSON_HEADERS, ...(freshS ? [['cache-control', `max-age=${freshS}`] as [string, string]] : [])];
  const e = ctx.upstream.register({ kind: 'json', protocol: 'messages', status: 200, headers, body: modelListBody(), later: [{ kind: 'json', protocol: 'messages', status: 200, headers, body: modelListBody(AFTER) }] });
  const upstreamSaid = freshS ? `the upstream's lists fresh for ${freshS} s (cache-control: max-age=${freshS})` : 'the upstream declaring no freshness';
  const first = await discover(ctx, 'bearer', e);
  if (uncorrelated(first)) return { ended: uncorrelatedSkip(first) };
  const before = ids(first);
  const skip = (message: string, evidence: unknown): Round => ({ ended: { ok: true, skip: true, message: `round ${n}, ${upstreamSaid}: ${message}`, evidence: evidence as Record<string, unknown> } });
  if (!before) return skip(`the first answer is not a model list (${describe(first)}): nothing to compare`, discoveryEvidence(first));
  // A list of the gateway's own (the upstream asked nothing, and the ids are not the upstream's) is not the upstream's to follow.
  if (!e.hits.length && before.join() !== MODELS.map((m) => m.id).join())
    return skip(`the gateway answers with a model list of its own (the upstream saw no request; ${before.length} ids, not the upstream's): nothing that follows the upstream`, discoveryEvidence(first));
  const lifetime = declaredLifetime(first.res!);
  if (lifetime > MAX_LIFETIME_S) return skip(`the gateway declares a cache lifetime of ${lifetime} s on the model list (cache-control max-age), longer than the ${MAX_LIFETIME_S} s this check waits: not judged`, discoveryEvidence(first));
  const waitedS = Math.max(lifetime, freshS);
  if (waitedS > 0) await pause(waitedS * 1000 + ROUNDING_MS, undefined, { signal: ctx.signal });
  const second = await discover(ctx, 'bearer', e);
  const after = ids(second);
  const evidence = { first: discoveryEvidence(first, 400), second: discoveryEvidence(second, 400), upstreamHits: e.hits.length, upstreamFreshS: freshS, declaredLifetimeS: lifetime, waitedS };
  if (!after) return skip(`the second answer is not a model list (${describe(second)}): nothing to compare`, evidence);
  const stale = [...(after.includes(ADDED.id) ? [] : [`${ADDED.id}, added upstream, is missing`]), ...(after.includes(WITHDRAWN.id) ? [`${WITHDRAWN.id}, withdrawn upstream, is still listed`] : [])];
  if (!stale.length) return { waitedS, evidence };
  const ranOut = [lifetime ? `the ${lifetime} s cache lifetime the gateway declared` : '', freshS ? `the upstream's ${freshS} s freshness` : ''].filter(Boolean).join(' and ');
  const when = waitedS > 0 ? `${waitedS} s after the first answer, once ${ranOut} had run out` : 'with no cache lifetime declared';
  return {
    ended: fail(`round ${n}, ${upstreamSaid}: the model list does not follow the upstream's ${when}: ${stale.join('; ')} (the upstream saw ${plural(e.hits.length, 'request')} for 2)`, {
      expected: `the second list with ${ADDED.id} and without ${WITHDRAWN.id}${waitedS > 0 ? `, ${waitedS} s after the first answer` : ''}`,
      actual: after.join(', '),
      evidence: { [`round${n}`]: evidence, added: ADDED.id, withdrawn: WITHDRAWN.id },
    }),
  };
}

export default defineCheck({
  id: 'discovery.models.current',
  title: 'A model added or withdrawn upstream shows in the model list once the freshness the upstream gave it and the cache lifetime the gateway declares have run out',
  requirements: ['DISC-9'],
  level: 'SHOULD',
  protocol: 'messages',
  // Mostly waits (up to two lifetimes): beside the other checks, outside the concurrency limit.
  background: true,
  // Four answers, and two lifetimes waited out.
  timeLimitMs: (s) => s.timeoutMs * 4 + (MAX_LIFETIME_S + Math.max(MAX_LIFETIME_S, UPSTREAM_FRESH_S)) * 1000,
  requirement: `Two rounds of GET /v1/models twice, each its own case; between the two requests of a round the upstream withdraws one model and adds another. Round 1: the upstream's lists declare no freshness; the second request goes at once, or once the cache lifetime the gateway's first answer declares has run out (cache-control max-age less Age, up to ${MAX_LIFETIME_S} s; a longer one is not judged). Round 2: the upstream's lists carry cache-control: max-age=${UPSTREAM_FRESH_S}; the second request goes once that and the gateway's declared lifetime have run out. In each round the second answer lists the added model and not the withdrawn one (DISC-9).`,
  fix: "Let the model list follow the upstream's: cache it no longer than the freshness the upstream gives it (its `Cache-Control: max-age`) and the lifetime you declare to the client, or re-fetch it on each request when neither says it may be kept. A model the upstream added must appear, and one it withdrew must go, once that lifetime has run out; a list loaded once, or a cacheable answer kept for ever, keeps offering a model that fails on every request.",
  async run(ctx) {
    const one = await round(ctx, 1, 0);
    if ('ended' in one) return one.ended;
    const two = await round(ctx, 2, UPSTREAM_FRESH_S);
    if ('ended' in two) return two.ended;
    const at = (r: { waitedS: number }) => (r.waitedS ? `${r.waitedS} s after the first answer` : 'at once');
    return pass(`both rounds show the upstream's change (${ADDED.id} added, ${WITHDRAWN.id} withdrawn): with no freshness declared upstream, ${at(one)}; with the upstream's ${UPSTREAM_FRESH_S} s freshness, ${at(two)}`, { round1: one.evidence, round2: two.evidence, added: ADDED.id, withdrawn: WITHDRAWN.id });
  },
});
