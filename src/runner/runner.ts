// Runs checks with a time limit each, a few at a time. The case token of every request ties
// it to its check, so checks can run in parallel against one upstream.
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import { featuresOf, type CheckDef, type RunSettings, type Verdict } from '../check/check.js';
import { failedOutcome } from '../core/outcome.js';
import type { CheckResult, RouteCount } from '../report/shared/types.js';
import type { Protocol } from '../core/protocols.js';
import { protocolOfPath } from '../protocols/index.js';
import { describeArrived, GatewayTimeoutError, GatewayTransportError, TimeLimitReached, type Arrived, type GatewayClient, type GwRequest } from '../client/gateway.js';
import { recordSent, type SentRequest } from '../report/run/replay.js';
import type { Upstream } from '../upstream/upstream.js';
import { UpstreamHandle } from '../upstream/handle.js';
import type { ReceivedResponse } from '../client/gateway.js';

/** Receives, when the check has ended, every exchange it had (for the transcript digest). */
export type ExchangeSink = (checkId: string, client: Array<{ req: GwRequest; res: ReceivedResponse }>, upstream: UpstreamHandle['cases']) => void;
import type { GateKind, PhaseGate } from './gate.js';
import { untilServingAgain } from '../client/forwarded.js';
import { detached } from '../core/detach.js';
import { patientTimeout } from '../core/stall.js';
import { HangBreaker, hungAfter } from './hung.js';
import { GoneBreaker } from './gone.js';
import { UnboundedBreaker } from './unbounded.js';
import { namingJudgesThatJudged, translatedSkip, type TranslatedSkipFacts } from './translated-skips.js';

export interface RunEnv {
  gateway: GatewayClient;
  /** Null in the service profile: its checks talk to the service directly. */
  upstream: Upstream | null;
  settings: RunSettings;
  /** The features the user declared the gateway serves (protocols, `service`): feature gating. */
  declared: ReadonlySet<string>;
  /** Set when the run keeps a transcript (certify): each check's exchanges go there. */
  exchanges?: ExchangeSink;
  /** The profile's own surroundings, passed to every check as is (the apps profile). */
  fixture?: unknown;
  /** The run sends no credential (the gateway takes none): checks of the client's credential are skipped. */
  noCredential?: boolean;
  /** Per protocol, the protocol the gateway forwards it in where that is another (its readiness canary's route). */
  routes?: Partial<Record<Protocol, Protocol>>;
  /** Per client protocol, the checks of translated routes in this run (they judge a translated route by meaning); runChecks fills it from its checks. */
  judgesOfTranslation?: Partial<Record<Protocol, string[]>>;
  /** The gateway the harness launched (--gateway-cmd): it tells when the process exits on its own (src/runner/gone.ts). */
  launcher?: { onExit?(listener: (how: string) => void): () => void };
  /** Told of each connection to the gateway that failed, by check (runChecks sets it). */
  connectionFailed?: (checkId: string, code: string) => void;
}


/** The checks of this run that judge `check`'s protocol's translated route by meaning. */
const judgesFor = (env: RunEnv, check: CheckDef) => env.judgesOfTranslation?.[check.protocol ?? 'messages'] ?? [];

/** A translated-route skip: its message, and in its evidence the facts it was written from (namingJudgesThatJudged rewrites it at the run's end). */
const routeSkip = (env: RunEnv, check: CheckDef, route: { client: string; upstream: string }, evidence: Record<string, unknown> = {}) => {
  const facts: TranslatedSkipFacts = { client: route.client, upstream: route.upstream, what: check.untranslatable!, judges: judgesFor(env, check) };
  return { message: translatedSkip(route, facts.what, facts.judges), evidence: { ...evidence, translatedRoute: facts } };
};

/** Per client protocol, the ids of `checks` that judge a translated route by meaning. */
function judgesOf(checks: CheckDef[]): Partial<Record<Protocol, string[]>> {
  const out: Partial<Record<Protocol, string[]>> = {};
  for (const c of checks) if (c.translatedRoute) (out[c.protocol ?? 'messages'] ??= []).push(c.id);
  return out;
}

/** Why a check of the client's credential does not run when the run sends none. */
export const NO_CREDENTIAL_SKIP = 'no credential: the gateway takes none (--no-token or `token: none`), so there is no client credential to accept or forward';

/** Why a check cannot run against this gateway, or null: a feature it needs was not declared. */
export function notDeclared(check: CheckDef, declared: ReadonlySet<string>): string | null {
  const missing = featuresOf(check).filter((f) => !declared.has(f));
  if (!missing.length) return null;
  const how = missing.map((f) => (f === 'service' ? 'service (the hosted-service checks run with --profile service)' : f === 'apps' ? 'apps (the apps gateway checks run with --profile apps)' : f === 'client' ? 'client (the real clients\' checks run with --profile client)' : `${f} (declare it with --protocols or \`protocols:\` in gwc.yaml)`));
  return `not declared: ${how.join(', ')}`;
}

/** What an info result of a check run on an undeclared protocol says before its finding. */
export const undeclaredInfo = (protocol: string, found: string) => `reported, not failed (${found} as measured): the gateway does not declare ${protocol} (--protocols ...,${protocol} makes this a failure)`;

/** A check run though its protocol is not declared (undeclared: 'info'): a fail, warn or time-out becomes info, its message saying so; any other outcome is kept. */
function asUndeclared<V extends { message: string }>(check: CheckDef, declared: ReadonlySet<string>, found: CheckResult['outcome'], v: V): [CheckResult['outcome'], V] {
  const undeclared = check.undeclared === 'info' && check.protocol !== undefined && !declared.has(check.protocol);
  if (!undeclared || (found !== 'fail' && found !== 'warn' && found !== 'timeout')) return [found, v];
  return ['info', { ...v, message: `${undeclaredInfo(check.protocol!, found)}: ${v.message}` }];
}

class CheckTimeout extends Error {}

/** Requests of a failed check kept in its evidence (`sent`), for the replay. */
const SENT_KEPT = 8;

/** A check's abort controller: every answer of the check listens to its signal until the answer ends (answer.ts), so many listeners at once are normal, not a leak. */
function checkController(): AbortController {
  const c = new AbortController();
  setMaxListeners(0, c.signal);
  return c;
}

export async function runOne(check: CheckDef, env: RunEnv): Promise<CheckResult> {
  const started = performance.now();
  const limitMs = Math.max(env.settings.timeoutMs, check.timeLimitMs?.(env.settings) ?? 0);
  const controller = checkController();
  const handle = new UpstreamHandle(env.upstream, check.protocol ?? 'messages');
  const log: string[] = [];
  // What this check sends, kept for a failure's replay (the first few requests).
  const sent: SentRequest[] = [];
  let sentTotal = 0;
  // The protocol each case was sent in, for the routes (which protocol it reached the upstream in).
  const sentIn = new Map<string, string>();
  const keep = (r: GwRequest) => {
    if (r.caseToken) sentIn.set(r.caseToken, protocolOfPath(r.path));
    if (sentTotal++ < SENT_KEPT) sent.push(recordSent(env.noCredential ? { ...r, auth: 'none' } : r)); // --no-token: none attached, whatever style it names
  };
  // Every exchange, for the transcript (only when the run keeps one).
  const received: Array<{ req: GwRequest; res: ReceivedResponse }> = [];
  const onReceive = env.exchanges ? (req: GwRequest, res: ReceivedResponse) => void received.push({ req, res }) : undefined;
  // Answers in progress, latest first: what arrived is the evidence of a check that times out.
  const inflight = new Set<Arrived>();
  // The run's client, seen by this check through a view that records what it sends; each answer's budget is the check's limit, and the check's end cuts it.
  const gateway: GatewayClient = Object.create(env.gateway, { onSend: { value: keep }, onReceive: { value: onReceive }, onProgress: { value: (a: Arrived) => inflight.add(a) }, onConnectionFailed: { value: (e: GatewayTransportError) => env.connectionFailed?.(check.id, e.code) }, answerLimitMs: { value: limitMs }, checkSignal: { value: controller.signal } });
  let cancelLimit = () => {};
  // Detached (src/core/detach.ts): evidence cut from a large body must not keep the body alive.
  const made = (outcome: CheckResult['outcome'], v: Partial<Verdict> & { message: string }): CheckResult => ({
    ...{ id: check.id, title: check.title, area: check.area, requirements: check.requirements, level: check.level },
    outcome,
    ...detached({
      message: v.message,
      expected: v.expected ?? null,
      actual: v.actual ?? null,
      evidence: { ...(v.evidence ?? {}), ...(log.length ? { log } : {}), ...(sent.length && outcome !== 'pass' && outcome !== 'skip' ? { sent, ...(sentTotal > sent.length ? { sentTotal } : {}) } : {}) },
    }),
    durationMs: Math.round(performance.now() - started),
    ...routesField(handle, sentIn),
  });
  const done = (found: CheckResult['outcome'], v: Partial<Verdict> & { message: string }) => made(...asUndeclared(check, env.declared, found, v));
  const undeclared = notDeclared(check, env.declared);
  if (undeclared) return done('skip', { message: undeclared });
  if (check.credential && env.noCredential) return done('skip', { message: NO_CREDENTIAL_SKIP });
  // Where the canary of its protocol was translated, a check of what a translation cannot keep is not run at all.
  const routed = env.routes?.[check.protocol ?? 'messages'];
  if (check.untranslatable && routed) return done('skip', routeSkip(env, check, { client: check.protocol ?? 'messages', upstream: routed }));
  try {
    // The check's time, not this process's holds (another check's work in the same process, a
    // collection, a loaded machine: src/core/stall.ts); holds put it off by at most limitMs more.
    const limit = new Promise<never>((_, reject) => {
      cancelLimit = patientTimeout(() => {
        controller.abort(new TimeLimitReached(limitMs));
        reject(new CheckTimeout());
      }, limitMs);
    });
    const verdict = await Promise.race([
      check.run({ gateway, upstream: handle, settings: env.settings, signal: controller.signal, log: (l) => log.push(l), fixture: env.fixture }),
      limit,
    ]);
    if (verdict.skip || verdict.info) return done(verdict.skip ? 'skip' : 'info', verdict);
    const across = check.untranslatable ? translatedIn(routesField(handle, sentIn).routes) : null;
    if (across) return done('skip', routeSkip(env, check, across, { ...(verdict.evidence ?? {}), verdictAsMeasured: `${verdict.ok ? 'pass' : 'fail'}: ${verdict.message}` }));
    return done(verdict.ok ? 'pass' : failedOutcome(check.level), verdict);
  } catch (e) {
    if (e instanceof CheckTimeout || e instanceof GatewayTimeoutError) {
      // Say what arrived, how much and for how long: a stream that kept coming is not "no answer".
      const answers = [...inflight].slice(-4);
      const last = e instanceof GatewayTimeoutError && e.arrived ? e.arrived : answers[answers.length - 1];
      const what = e instanceof GatewayTimeoutError ? e.message : `the check did not finish${last ? ` (last request ${last.request}${describeArrived(last)})` : ''}`;
      const head = last && last.status !== null ? 'time limit reached' : 'no answer within the time limit';
      return done('timeout', { message: `${head} (${limitMs} ms for this check): ${what}`, evidence: answers.length ? { arrived: answers.map((a) => ({ ...a })) } : {} });
    }
    if (e instanceof GatewayTransportError) return done(failedOutcome(check.level), { message: `the gateway's connection failed: ${e.message}`, actual: e.code });
    // The harness broke (src/report/shared/policy.ts: exit 2); the stack is for whoever fixes it.
    const err = e instanceof Error ? e : new Error(String(e));
    return done('error', { message: `${err.name}: ${err.message}`, evidence: { stack: err.stack ?? null } });
  } finally {
    cancelLimit();
    controller.abort();
    env.exchanges?.(check.id, received, [...handle.cases]);
    handle.release();
  }
}

/** The first route of a check whose request reached the upstream in another protocol than the client's. */
function translatedIn(routes: RouteCount[] | undefined): RouteCount | null {
  return routes?.find((r) => r.upstream !== r.client && r.upstream !== 'none') ?? null;
}

/** Requests per (client protocol, upstream protocol) of a check's cases that reached the upstream. */
function routesField(handle: UpstreamHandle, sentIn: Map<string, string>): { routes?: RouteCount[] } {
  const counts = new Map<string, RouteCount>();
  for (const c of handle.cases) {
    const client = sentIn.get(c.token);
    if (!client) continue;
    for (const hit of c.hits) {
      const upstream = hit.routedAs ?? hit.protocol ?? 'none';
      const key = `${client}\u0000${upstream}`;
      const have = counts.get(key) ?? { client, upstream, requests: 0 };
      have.requests++;
      counts.set(key, have);
    }
  }
  return counts.size ? { routes: [...counts.values()] } : {};
}

/** How long the runner waits after an outage window for the gateway to forward again (at most). */
export function recoveryBoundMs(settings: RunSettings): number {
  return settings.timeoutMs;
}

export interface RunOptions {
  concurrency: number;
  onResult?: (r: CheckResult) => void;
  /** Progress: a check starts (its result comes to onResult); for the console's "still running". */
  onStart?: (check: CheckDef) => void;
  /** Shared by runs in one process (the self-tests): keeps their timing checks apart from other work. */
  gate?: PhaseGate;
}

/**
 * The order of a run, so that no verdict depends on which check ran before it:
 * 1. `background` checks (they mostly wait: a silence, a hung request) start first and run
 *    beside everything else, outside the concurrency limit, each bounded by its own limit;
 * 2. the other checks, `concurrency` at a time; then the `exclusive` ones, alone;
 * 3. the `timing` checks, beside each other only;
 * 4. when all of that is done, the `outage` checks (they take the whole upstream down), one
 *    after another in one window at the end; after each, the runner waits (bounded) until the
 *    gateway forwards again, so a gateway's sticky "backend down" state meets no other check.
 * Once the gateway has hung on several checks in a row (src/runner/hung.ts), no more start:
 * the run's wall time does not grow with the number of checks a hung gateway would time out.
 * Once the gateway is gone (its process exited, or it refused connections: src/runner/gone.ts),
 * no more start either, and the check during which it went says so; and once a few checks met
 * the same answer that never ends or is not HTTP (src/runner/unbounded.ts), no more start.
 */
export async function runChecks(checks: CheckDef[], given: RunEnv, opts: RunOptions): Promise<CheckResult[]> {
  const gone = new GoneBreaker(given.gateway.base, given.launcher);
  const unbounded = new UnboundedBreaker();
  const env: RunEnv = { judgesOfTranslation: judgesOf(checks), ...given, connectionFailed: (id, code) => (gone.connectionFailed(id), unbounded.note(id, code)) };
  const results: CheckResult[] = new Array(checks.length);
  const hung = new HangBreaker(hungAfter(opts.concurrency));
  const finish = (i: number, r: CheckResult) => {
    results[i] = r;
    hung.note(r);
    opts.onResult?.(r);
  };
  const one = async (i: number) => {
    if (gone.tripped) return gone.notRun(checks[i]);
    if (hung.tripped) return hung.notRun(checks[i]);
    if (unbounded.tripped) return unbounded.notRun(checks[i]);
    opts.onStart?.(checks[i]);
    gone.started(checks[i].id);
    const r = await runOne(checks[i], env);
    await gone.probeAfter(r.id);
    return gone.ended(r);
  };
  const turn = async <T>(kind: GateKind, fn: () => Promise<T>): Promise<T> => {
    const leave = opts.gate ? await opts.gate.enter(kind) : undefined;
    try {
      return await fn();
    } finally {
      leave?.();
    }
  };
  const run = async (indexes: number[], concurrency: number, kind: GateKind) => {
    let next = 0;
    const worker = async () => {
      while (next < indexes.length) {
        const i = indexes[next++];
        finish(i, await turn(kind, () => one(i)));
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, indexes.length)) }, worker));
  };
  const all = checks.map((_, i) => i);
  const outage = all.filter((i) => checks[i].outage);
  const background = all.filter((i) => checks[i].background && !checks[i].outage);
  const rest = all.filter((i) => !checks[i].outage && !checks[i].background);
  const waiting = Promise.all(background.map(async (i) => finish(i, await one(i))));
  await run(rest.filter((i) => !checks[i].exclusive && !checks[i].timing), opts.concurrency, 'work');
  // Exclusive checks take the event loop for a while (e.g. a 46 MiB body): alone.
  await run(rest.filter((i) => checks[i].exclusive && !checks[i].timing), 1, 'alone');
  // Timing checks run beside each other only: their work is light, and a property check or a
  // 2 MiB stream parsed in the same event loop would add lag that is not the gateway's.
  await run(rest.filter((i) => checks[i].timing && !checks[i].exclusive), opts.concurrency, 'timing');
  await run(rest.filter((i) => checks[i].timing && checks[i].exclusive), 1, 'timing');
  await waiting;
  // The outage window: last, after every other check has ended.
  for (const [n, i] of outage.entries()) {
    // A timed outage check (the time to serve again) takes a timing turn: no other run's work in this process holds its clock.
    const r = await turn(checks[i].timing ? 'timing' : 'work', () => one(i));
    const more = n < outage.length - 1;
    // No wait after a check the gateway never answered (skip: not run; timeout: it hangs, a wait would too).
    if (more && r.outcome !== 'skip' && r.outcome !== 'timeout' && env.upstream) {
      const up = env.upstream;
      const recovery = await untilServingAgain(env.gateway, { register: (reply) => up.expect(reply), done: (t) => up.release(t) }, { boundMs: recoveryBoundMs(env.settings) });
      finish(i, { ...r, evidence: { ...r.evidence, gatewayServingAgain: recovery } });
    } else finish(i, r);
  }
  gone.stop();
  return namingJudgesThatJudged(results);
}
