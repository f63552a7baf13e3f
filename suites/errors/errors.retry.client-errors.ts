import { defineCheck, fail, pass, type CheckContext } from '../../src/check/check.js';
import { ERROR_MESSAGES } from '../../src/upstream/replies/errors.js';
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
  return { status, hits, gapsMs: at.slice(1).map((t, i) => Math.round(t - at[i])), clientStatus: x.res.status };
}

export default defineCheck({
  id: 'errors.retry.client-errors',
  title: 'Client errors (400, 401, 403, 404, 413, 422) are never retried; 429, 529 and 503 at most twice, each after retry-after',
  requirements: ['ERR-RETRY-2'],
  level: 'MUST',
  area: 'errors',
  profile: 'default',
  protocol: 'messages',
  requirement: `The upstream sees a request it answered 400, 401, 403, 404, 413 or 422 exactly once; one it answered 429, 529 or 503 (with retry-after: ${RETRY_AFTER_S}) at most 1 + the declared retry bound (--retry-bound, default ${RETRY_BOUND}) times, each retry at least ${RETRY_AFTER_S} s after the one before (ERR-RETRY-2).`,
  async run(ctx) {
    const bound = ctx.settings.retryBound ?? RETRY_BOUND;
    const all = await Promise.all([...DETERMINISTIC, ...TRANSIENT].map((s) => tryStatus(ctx, s)));
    const problems: string[] = [];
    for (const a of all) {
      if (DETERMINISTIC.includes(a.status) && a.hits > 1) problems.push(`${a.status} was sent ${a.hits} times (a client error is never retried)`);
      if (TRANSIENT.includes(a.status) && a.hits > 1 + bound) problems.push(`${a.status} was sent ${a.hits} times (at most ${1 + bound}, the declared --retry-bound ${bound} + 1)`);
      const early = a.gapsMs.filter((g) => g < RETRY_AFTER_S * 1000 - SLACK_MS);
      if (TRANSIENT.includes(a.status) && early.length) problems.push(`${a.status} was retried ${early.join(', ')} ms after the previous attempt, before its retry-after of ${RETRY_AFTER_S} s`);
    }
    const evidence = { retryBound: bound, retryAfterS: RETRY_AFTER_S, attempts: all };
    if (problems.length) return fail(problems.join('; '), { expected: `client errors once; transient errors at most ${1 + bound} times, ${RETRY_AFTER_S} s apart`, actual: problems.join('\n'), evidence });
    const retried = all.filter((a) => a.hits > 1);
    return pass(`no client error was retried${retried.length ? `; ${retried.map((a) => `${a.status} sent ${a.hits} times`).join(', ')}` : '; no error was retried'}`, evidence);
  },
});
