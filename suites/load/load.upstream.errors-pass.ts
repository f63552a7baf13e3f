// LOAD-4: upstream overload under load. Every fifth request of a concurrent mix is answered 429
// (or 529, on the messages protocol) with retry-after by the upstream; each must reach its
// client as that status with that error body and retry-after, within the declared retry bound,
// and the requests between them must get their own answers. The case token in each error's
// message ties the answer the client got to the request that asked.
import { isDeepStrictEqual } from 'node:util';
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { tokensIn } from '../../src/upstream/contract.js';
import type { LoadOutcome } from '../../src/load/engine.js';
import { attribution, concurrencyOf, kindsOf, unlessLimited, loadSettings, OVERLAP_BATCH, sendMix, type Kind, type Planned } from './common.js';
import { cut } from '../shared/evidence.js';

/** Every fifth request gets an upstream error (5 is prime to the 2, 4 or 6 kinds: every kind gets some). */
const ERROR_EVERY = 5;
const ERROR_AT = 2;
/** The retry-after the upstream sends, in seconds. */
const RETRY_AFTER_S = 1;
/** The retries a gateway may make when the run declares no --retry-bound (what the official SDKs do). */
const DEFAULT_BOUND = 2;
/** Beyond the load and the retries a bounded gateway may make, how long answers may take. */
const SLACK_MS = 10_000;

/** The status the upstream answers request `i` with, or null for a normal answer. 529 is the messages protocol's overload status. */
function errorStatus(i: number, kind: Kind, kinds: number): number | null {
  if (i % ERROR_EVERY !== ERROR_AT) return null;
  const round = Math.floor((i - ERROR_AT) / ERROR_EVERY / kinds);
  return kind.protocol === 'messages' && round % 2 === 1 ? 529 : 429;
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** What is wrong with what the client got for a request the upstream answered with an error. */
function errorProblem(o: LoadOutcome, p: Planned, bound: number): string | null {
  const sent = p.expectation.reply;
  if (sent.kind !== 'json') return 'harness bug: an error case without a JSON reply';
  if (o.error) return `no answer (${o.error})`;
  if (o.status !== sent.status) return `status ${o.status}, the upstream answered ${sent.status}`;
  const others = tokensIn(o.body).filter((t) => t !== p.expectation.token);
  if (others.length) return `carried the error of another request (${others[0]})`;
  if (!isDeepStrictEqual(parsed(o.body), parsed(sent.body))) return `a ${o.status} whose body is not the upstream's error body: got ${JSON.stringify(cut(o.body, 200))}, the upstream sent ${JSON.stringify(cut(sent.body, 200))}`;
  const retryAfter = o.headers['retry-after'];
  if (retryAfter === undefined) return `a ${o.status} without the upstream's retry-after`;
  if (String(retryAfter) !== String(RETRY_AFTER_S)) return `a ${o.status} with retry-after ${String(retryAfter)}, the upstream sent ${RETRY_AFTER_S}`;
  const hits = p.expectation.hits.length;
  if (hits === 0) return `a ${o.status} the upstream never sent (the request did not reach it)`;
  if (hits > 1 + bound) return `reached the upstream ${hits} times (at most ${1 + bound}: the declared retry bound ${bound} + 1)`;
  return null;
}

export default defineCheck({
  id: 'load.upstream.errors-pass',
  title: 'Under concurrent load, upstream 429 and 529 answers with retry-after reach their clients unchanged, within the declared retry bound, and the other requests are unaffected',
  requirements: ['LOAD-4'],
  level: 'MUST',
  profile: 'load',
  // Alone: its figures and the gateway's error path must not share the load of another check.
  exclusive: true,
  timeLimitMs: (s) => ((s.load?.durationS ?? 3) + (s.retryBound ?? DEFAULT_BOUND) * RETRY_AFTER_S + 25) * 1000,
  requirement: `Under concurrent load, with every ${ERROR_EVERY}th request answered 429 (or 529 on the messages protocol) with retry-after: ${RETRY_AFTER_S} by the upstream, each of those reaches its client with the same status, the same error body and the same retry-after, and reaches the upstream at most 1 + the declared retry bound (--retry-bound, default ${DEFAULT_BOUND}) times; every other request gets its own answer and reaches the upstream once. The case token in each answer ties it to its request.`,
  fix: 'Pass an upstream 429 or 529 on as it came, on the busy path too: its status, its error body and its `retry-after` (no circuit breaker or overload handler that answers its own 500, 502 or 503 in its place, no error page rebuilt from the status alone). If the gateway retries such an answer, it retries at most the bound it declares (`--retry-bound N`), each after the upstream\'s `retry-after`, and then passes the last answer on. The evidence names each request whose error changed, lost its `retry-after`, reached the upstream too often, or whose neighbour lost its own answer.',
  run: unlessLimited(async (ctx) => {
    const s = loadSettings(ctx);
    const bound = ctx.settings.retryBound ?? DEFAULT_BOUND;
    const kinds = kindsOf(ctx);
    const count = Math.min(s.requests, Math.max(kinds.length * ERROR_EVERY, s.rate * s.durationS));
    if (count <= ERROR_AT) return { ok: true, skip: true, message: `--load-requests ${s.requests} is too few for an upstream error among them (at least ${ERROR_AT + 1})` };
    const kindOf = (i: number) => kinds[i % kinds.length];
    const headers: Array<[string, string]> = [['retry-after', String(RETRY_AFTER_S)], ['x-should-retry', 'true']];
    const statusOf = (i: number) => errorStatus(i, kindOf(i), kinds.length);
    const deadlineMs = Math.ceil((count * 1000) / s.rate) + bound * RETRY_AFTER_S * 1000 + SLACK_MS;
    // Overlap made certain, as for LOAD-1: the answers (errors among them) are held until a batch is waiting.
    const sent = await sendMix(ctx, { route: 'gateway', kinds: kindOf, rate: s.rate, count, deadlineMs, overlap: OVERLAP_BATCH, plan: (i) => ({ error: statusOf(i) === null ? undefined : { status: statusOf(i)!, headers } }) });
    const { result, planned } = sent;
    const c = concurrencyOf(sent);
    const problems = result.outcomes.map((o) => {
      const status = statusOf(o.index);
      const why = status === null ? attribution(o, planned[o.index]) : errorProblem(o, planned[o.index], bound);
      return why && `request ${o.index} (${planned[o.index].kind.protocol}${planned[o.index].kind.stream ? ', streamed' : ''}, ${status === null ? 'answered normally' : `upstream ${status}`}): ${why}`;
    });
    const wrong = problems.filter((p): p is string => !!p);
    const errors = result.outcomes.filter((o) => statusOf(o.index) !== null);
    const tally = (os: LoadOutcome[]) => Object.fromEntries([...new Set(os.map((o) => o.status))].map((st) => [String(st), os.filter((o) => o.status === st).length]));
    const evidence = { requests: count, rate: s.rate, retryBound: bound, retryAfterS: RETRY_AFTER_S, upstreamErrors: errors.length, clientStatusesOfErrors: tally(errors), concurrency: { client: c.client, upstream: c.upstream, batch: c.batch }, wrong: wrong.slice(0, 10) };
    if (wrong.length)
      return fail(`${wrong.length} of ${count} requests (${errors.length} answered 429/529 by the upstream) did not get what they should: ${wrong[0]} (${c.text})`, {
        expected: `each 429/529 reaches its client with its status, error body and retry-after, sent to the upstream at most ${1 + bound} times; every other request its own answer`,
        actual: wrong[0],
        evidence,
      });
    return pass(`${errors.length} upstream 429/529 answers among ${count} concurrent requests reached their clients unchanged, with retry-after; the others got their own answers; ${c.text}`, evidence);
  }),
});
