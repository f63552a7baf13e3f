// What the LIMIT checks share: going over the declared limit with one credential, and reading
// what a refused request got (status, JSON error, retry-after) and whether it reached the upstream.
import type { CheckContext } from '../../src/check/check.js';
import type { DeclaredLimit } from '../../src/core/limits.js';
import type { LoadOutcome } from '../../src/load/engine.js';
import { loadSettings, sendMix, type Kind, type Planned, type Sent } from './common.js';

/** Requests held open by the upstream while the concurrency limit is tested. */
export const HOLD_MS = 1500;

export interface OverLimit {
  within: Sent;
  over: Sent;
}

/**
 * Fills the limit with `credentialSuffix`'s credential, then sends `extra` more over it. For a
 * rate limit, limit + extra requests at once; for a concurrency limit, `count` requests the
 * upstream holds, and the extra ones once all of those reached the upstream.
 */
export async function overLimit(ctx: CheckContext, limit: DeclaredLimit, credentialSuffix: string, extra: number): Promise<OverLimit> {
  const kind: Kind = { protocol: 'messages', stream: limit.kind === 'concurrency' };
  const kinds = () => kind;
  if (limit.kind === 'rps') {
    const all = await sendMix(ctx, { route: 'gateway', credentialSuffix, kinds, rate: 5000, count: limit.count + extra, clients: 1 });
    return split(all, limit.count);
  }
  const held = sendMix(ctx, { route: 'gateway', credentialSuffix, kinds, rate: 5000, count: limit.count, clients: 1, plan: () => ({ firstGapMs: HOLD_MS }) });
  // The holds are in once the upstream has them (bounded by the hold itself).
  await reachedUpstream(ctx, limit.count);
  const over = await sendMix(ctx, { route: 'gateway', credentialSuffix, kinds: () => ({ protocol: 'messages', stream: false }), rate: 5000, count: extra, clients: 1 });
  return { within: await held, over };
}

/** Waits until the last `n` cases registered by this check have reached the upstream. */
async function reachedUpstream(ctx: CheckContext, n: number): Promise<void> {
  const cases = ctx.upstream.cases.slice(-n);
  await Promise.all(cases.map((c) => c.received(HOLD_MS)));
}

/** Of a rate-limited burst, the first `n` answered as the within-limit part (by arrival, whatever order). */
function split(all: Sent, n: number): OverLimit {
  const ok = all.result.outcomes.filter((o) => o.status === 200).slice(0, n);
  const rest = all.result.outcomes.filter((o) => !ok.includes(o));
  const part = (os: LoadOutcome[]): Sent => ({ result: { ...all.result, outcomes: os }, planned: all.planned });
  return { within: part(ok.length === n ? ok : all.result.outcomes.slice(0, n)), over: part(ok.length === n ? rest : all.result.outcomes.slice(n)) };
}

/** What is wrong with one refused answer: not 429, no JSON error, no retry-after, or it reached the upstream. */
export function refusalProblem(o: LoadOutcome, p: Planned): string | null {
  if (o.error) return `no answer (${o.error})`;
  if (o.status !== 429) return `status ${o.status}${/<html/i.test(o.body) ? ' with an HTML page' : ''}`;
  try {
    const v = JSON.parse(o.body) as Record<string, unknown>;
    if (!v || typeof v !== 'object' || !('error' in v)) return 'a 429 whose JSON body has no error';
  } catch {
    return `a 429 whose body is not JSON${/<html/i.test(o.body) ? ' (an HTML page)' : ''}`;
  }
  if (o.headers['retry-after'] === undefined) return 'a 429 without retry-after';
  if (p.expectation.hits.length) return 'answered 429, but the request had reached the upstream';
  return null;
}

/** The retry-after of an answer, in seconds (a number or an HTTP date), or null. */
export function retryAfterS(o: LoadOutcome): number | null {
  const v = String(o.headers['retry-after'] ?? '').trim();
  if (/^\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

export const declared = (ctx: CheckContext) => loadSettings(ctx).declaredLimit;
