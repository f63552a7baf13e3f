import { defineCheck, fail, pass, type CheckContext } from '../../src/check/check.js';
import { ERROR_MESSAGES } from '../../src/protocols/messages/index.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange } from '../shared/exchange.js';

/** Client errors a retry cannot change. */
const DETERMINISTIC = [400, 401, 403, 404, 413, 422];
/** Overload and server errors a gateway may retry, within its bound and after retry-after. */
const TRANSIENT = [429, 529, 503];
/** The retry-after the upstream asks for, in seconds. */
const RETRY_AFTER_S = 1;
/**
 * The retries a gateway may make of one transient error when the run declares none
 * (--retry-bound): what the official SDKs do by default (2).
 */
export const RETRY_BOUND = 2;
/** A late retry (after the gateway answered) arrives within this bound or is not counted. */
const LATE_RETRY_MS = 300;
/** Timer slack allowed below retry-after. */
const SLACK_MS = 50;

interface Attempted {
  status: number;
  hits: number;
  gapsMs: number[];
  clientStatus: number;
  /** The model of each attempt the upstream saw, in order. */
  models: string[];
}

const modelOf = (body: Buffer) => {
  try {
    const m = (JSON.parse(body.toString('utf8')) as { model?: unknown }).model;
    return typeof m === 'string' ? m : '(no model)';
  } catch {
    return '(not JSON)';
  }
};

/**
 * What is wrong with the attempts of a model-not-found 404: none but the first, unless the gateway
 * declares a failover chain (and the run is not --strict, which reads the interface to the
 * letter); then at most that many more, each with a model not tried before.
 */
export function notFoundProblems(models: string[], chain: number, strict: boolean): string | null {
  if (models.length <= 1) return null;
  const declared = strict ? 0 : chain;
  if (!declared) return `404 was sent ${models.length} times (${models.join(' -> ')}): a client error is never retried${chain && strict ? ' (--strict: no failover on a 404, declared or not)' : ', and no failover chain is declared (--failover-chain)'}`;
  const again = models.find((m, i) => models.indexOf(m) !== i);
  if (again) return `404 was sent again with the same model ${again} (${models.join(' -> ')}): a failover chain moves to another model, it does not retry one`;
  if (models.length > 1 + declared) return `404 was sent ${models.length} times (${models.join(' -> ')}): more than 1 + the declared --failover-chain ${declared}`;
  return null;
}

async function tryStatus(ctx: CheckContext, status: number): Promise<Attempted> {
  const headers: Array<[string, string]> = TRANSIENT.includes(status)
    ? [
        ['retry-after', String(RETRY_AFTER_S)],
        ['retry-after-ms', String(RETRY_AFTER_S * 1000)],
        ['x-should-retry', 'true'],
      ]
    : [];
  const x = await exchange(ctx, messagesBody({}, `status ${status}`), { reply: (c) => c.upstream.next().error(status, { message: ERROR_MESSAGES[status], headers }) });
  const hits = await x.expectation.waitForHits(x.expectation.hits.length + 1, LATE_RETRY_MS);
  const at = x.expectation.hits.map((h) => h.receivedAt);
  return { status, hits, gapsMs: at.slice(1).map((t, i) => Math.round(t - at[i])), clientStatus: x.res.status, models: x.expectation.hits.map((h) => modelOf(h.body)) };
}

export default defineCheck({
  id: 'errors.retry.client-errors',
  title: 'Client errors (400, 401, 403, 404, 413, 422) are never retried; 429, 529 and 503 at most twice, each after retry-after',
  requirements: ['ERR-RETRY-2'],
  level: 'MUST',
  protocol: 'messages',
  requirement: `The upstream sees a request it answered 400, 401, 403, 404, 413 or 422 exactly once, except that a model-not-found 404 may advance a failover chain the gateway declares (--failover-chain N, not under --strict): at most N more attempts, each with a model not tried before; one it answered 429, 529 or 503 (with retry-after: ${RETRY_AFTER_S}) at most 1 + the declared retry bound (--retry-bound, default ${RETRY_BOUND}) times, each retry at least ${RETRY_AFTER_S} s after the one before (ERR-RETRY-2).`,
  fix: 'Retry only 429, 529 and 5xx answers, a bounded number of times (declare the bound with `--retry-bound N`; default 2, what the SDKs do), each after the upstream\'s `retry-after`; never retry or fail over a 400, 401, 403, 404, 413 or 422 (nginx: `proxy_next_upstream error timeout;` without `http_4xx`, and `proxy_next_upstream_tries` set).',
  async run(ctx) {
    const bound = ctx.settings.retryBound ?? RETRY_BOUND;
    const chain = ctx.settings.failoverChain ?? 0;
    const strict = ctx.settings.strict === true;
    const all = await Promise.all([...DETERMINISTIC, ...TRANSIENT].map((s) => tryStatus(ctx, s)));
    const problems: string[] = [];
    for (const a of all) {
      if (a.status === 404) {
        const p = notFoundProblems(a.models, chain, strict);
        if (p) problems.push(p);
      } else if (DETERMINISTIC.includes(a.status) && a.hits > 1) problems.push(`${a.status} was sent ${a.hits} times (a client error is never retried)`);
      if (TRANSIENT.includes(a.status) && a.hits > 1 + bound) problems.push(`${a.status} was sent ${a.hits} times (at most ${1 + bound}, the declared --retry-bound ${bound} + 1)`);
      const early = a.gapsMs.filter((g) => g < RETRY_AFTER_S * 1000 - SLACK_MS);
      if (TRANSIENT.includes(a.status) && early.length) problems.push(`${a.status} was retried ${early.join(', ')} ms after the previous attempt, before its retry-after of ${RETRY_AFTER_S} s`);
    }
    const evidence = { retryBound: bound, failoverChain: strict ? 0 : chain, retryAfterS: RETRY_AFTER_S, upstreamAttempts: all };
    if (problems.length) return fail(problems.join('; '), { expected: `client errors once; transient errors at most ${1 + bound} times, ${RETRY_AFTER_S} s apart`, actual: problems.join('\n'), evidence });
    const failedOver = all.find((a) => a.status === 404 && a.hits > 1);
    const retried = all.filter((a) => a.hits > 1 && a !== failedOver);
    const chainNote = failedOver ? `; the 404 advanced the declared failover chain (--failover-chain ${chain}): ${failedOver.models.join(' -> ')}` : '';
    return pass(`no client error was retried${chainNote}${retried.length ? `; ${retried.map((a) => `${a.status} sent ${a.hits} times`).join(', ')}` : failedOver ? '' : '; no error was retried'}`, evidence);
  },
});
