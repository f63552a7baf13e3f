// Runs checks with a time limit each, a few at a time. The case token of every request ties
// it to its check, so checks can run in parallel against one upstream.
import { performance } from 'node:perf_hooks';
import type { CheckDef, RunSettings, Verdict } from '../core/check.js';
import { failedOutcome, featuresOf } from '../core/check.js';
import type { CheckResult } from '../report/types.js';
import { describeArrived, GatewayTimeoutError, GatewayTransportError, type Arrived, type GatewayClient, type GwRequest } from '../client/gateway.js';
import { recordSent, type SentRequest } from '../report/replay.js';
import type { Upstream } from '../upstream/upstream.js';
import { UpstreamHandle } from '../upstream/handle.js';

export interface RunEnv {
  gateway: GatewayClient;
  /** Null in the service profile: its checks talk to the service directly. */
  upstream: Upstream | null;
  settings: RunSettings;
  /** The features the user declared the gateway serves (protocols, `service`): feature gating. */
  declared: ReadonlySet<string>;
}

/** Why a check cannot run against this gateway, or null: a feature it needs was not declared. */
export function notDeclared(check: CheckDef, declared: ReadonlySet<string>): string | null {
  const missing = featuresOf(check).filter((f) => !declared.has(f));
  if (!missing.length) return null;
  const how = missing.map((f) => (f === 'service' ? 'service (the hosted-service checks run with --profile service)' : `${f} (declare it with --protocols or \`protocols:\` in gwc.yaml)`));
  return `not declared: ${how.join(', ')}`;
}

class CheckTimeout extends Error {}

/** Requests of a failed check kept in its evidence (`sent`), for the replay. */
const SENT_KEPT = 8;

export async function runOne(check: CheckDef, env: RunEnv): Promise<CheckResult> {
  const started = performance.now();
  const limitMs = Math.max(env.settings.timeoutMs, check.timeLimitMs?.(env.settings) ?? 0);
  const controller = new AbortController();
  const handle = new UpstreamHandle(env.upstream);
  const log: string[] = [];
  // What this check sends, kept for a failure's replay (the first few requests).
  const sent: SentRequest[] = [];
  let sentTotal = 0;
  const keep = (r: GwRequest) => {
    if (sentTotal++ < SENT_KEPT) sent.push(recordSent(r));
  };
  // Answers in progress, latest first: what arrived is the evidence of a check that times out.
  const inflight = new Set<Arrived>();
  // The run's client, seen by this check only through a view that records what it sends.
  const gateway: GatewayClient = Object.create(env.gateway, { onSend: { value: keep }, onProgress: { value: (a: Arrived) => inflight.add(a) } });
  let timer: NodeJS.Timeout | undefined;
  const base = { id: check.id, title: check.title, area: check.area, requirements: check.requirements, level: check.level };
  const done = (outcome: CheckResult['outcome'], v: Partial<Verdict> & { message: string }): CheckResult => ({
    ...base,
    outcome,
    message: v.message,
    expected: v.expected ?? null,
    actual: v.actual ?? null,
    evidence: { ...(v.evidence ?? {}), ...(log.length ? { log } : {}), ...(sent.length && outcome !== 'pass' && outcome !== 'skip' ? { sent, ...(sentTotal > sent.length ? { sentTotal } : {}) } : {}) },
    durationMs: Math.round(performance.now() - started),
  });
  const undeclared = notDeclared(check, env.declared);
  if (undeclared) return done('skip', { message: undeclared });
  try {
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new CheckTimeout());
      }, limitMs);
    });
    const verdict = await Promise.race([
      check.run({ gateway, upstream: handle, settings: env.settings, signal: controller.signal, log: (l) => log.push(l) }),
      limit,
    ]);
    if (verdict.skip) return done('skip', verdict);
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
    // The harness broke (src/report/policy.ts: exit 2); the stack is for whoever fixes it.
    const err = e instanceof Error ? e : new Error(String(e));
    return done('error', { message: `${err.name}: ${err.message}`, evidence: { stack: err.stack ?? null } });
  } finally {
    clearTimeout(timer);
    controller.abort();
    handle.release();
  }
}

export async function runChecks(checks: CheckDef[], env: RunEnv, opts: { concurrency: number; onResult?: (r: CheckResult) => void }): Promise<CheckResult[]> {
  const results: CheckResult[] = new Array(checks.length);
  const run = async (indexes: number[], concurrency: number) => {
    let next = 0;
    const worker = async () => {
      while (next < indexes.length) {
        const i = indexes[next++];
        results[i] = await runOne(checks[i], env);
        opts.onResult?.(results[i]);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, indexes.length)) }, worker));
  };
  const all = checks.map((_, i) => i);
  await run(all.filter((i) => !checks[i].exclusive && !checks[i].timing), opts.concurrency);
  // Timing checks run beside each other only: their work is light, and a property check or a
  // 2 MiB stream parsed in the same event loop would add lag that is not the gateway's.
  await run(all.filter((i) => checks[i].timing && !checks[i].exclusive), opts.concurrency);
  // Exclusive checks change what every other check relies on (e.g. the upstream being up).
  await run(all.filter((i) => checks[i].exclusive), 1);
  return results;
}
