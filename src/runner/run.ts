// One run: the selected checks (the target reached first, src/runner/preflight.ts), the report
// built and sealed; written and summed up by ./finish.ts. A plan in, a report out: the CLI only
// parses, prints and exits.
import { performance } from 'node:perf_hooks';
import { GatewayClient } from '../client/gateway.js';
import type { Transport } from '../client/transport.js';
import { HarnessError } from '../core/errors.js';
import type { CheckDef } from '../check/check.js';
import { onRoutes, routesOfCanaries, selectChecks, translatedProtocols } from './registry.js';
import { runChecks, type ExchangeSink } from './runner.js';
import { combineAttempts, needsRetry } from './repeat.js';
import { durationsFrom, shardIds } from './shard.js';
import { applyWaivers, loadWaivers } from '../report/run/waivers.js';
import { clientExchange, masker, ordered, TIMING_EXCHANGE, upstreamExchange, type Transcript } from '../report/certify/transcript.js';
import type { CheckResult } from '../report/shared/types.js';
import type { PhaseGate } from './gate.js';
import { maskHeaderNamesDeep, scrubDeep, scrubSecrets, terminalSafe } from '../core/mask.js';
import { awaitReady, type Readiness } from './ready.js';
import { expandTargeting, upstreamPrefixes } from '../config/targeting.js';
import { VERSION } from '../core/paths.js';
import type { Upstream } from '../upstream/upstream.js';
import type { RunConfig } from '../config/config.js';
import type { RunReport } from '../report/shared/types.js';
import { assertValidReport } from '../report/shared/validate.js';
import { columnsFor, progressLine } from '../reporters/console.js';
import { notRun, type Interruption } from './interruption.js';
import type { RunProgress } from './progress.js';
import { runReportOf } from './run-report.js';
import { reachTarget } from './preflight.js';
import { PROFILE_FACTS, profileFeature } from '../core/features.js';
import { plural } from '../core/words.js';
import type { ResourceProbe } from '../core/resources.js';
import { afterLoad, beforeLoad } from '../runner/load-start.js';
import type { LoadRunInfo } from '../report/shared/types.js';

/** What a run may be given besides its configuration. */
export interface SuiteExtras {
  /** Filled with every check's exchanges, masked (the transcript digest of certify). */
  transcript?: Transcript;
  /** Told, as each check ends, its case tokens and the paths it sent requests to: the self-tests' detection matrix ties a traced request to its check by them. */
  cases?: (checkId: string, tokens: string[], sent: string[]) => void;
  /** The day waivers are judged on (YYYY-MM-DD, UTC); today when absent. */
  today?: string;
  /** The gateway the harness started (--gateway-cmd): checks may restart it. */
  launcher?: { restart(): Promise<void>; resources?: ResourceProbe; answered?(): void; onExit?(listener: (how: string) => void): () => void };
  /** The profile's own surroundings, passed to every check (the apps profile). */
  fixture?: unknown;
  /** More values no report may carry (the apps profile's tokens and secrets). */
  secrets?: string[];
  /** Shared by runs in one process (the detection matrix): timing checks never share the event loop with another run's work. */
  gate?: PhaseGate;
  /** Ctrl-C (./interruption.ts; the CLI hears it): stops the checks; the report holds those that finished. */
  interrupt?: Interruption;
  /** The console's live progress (./progress.ts; the CLI shows it): the readiness gate's answers, checks started and finished. */
  progress?: RunProgress;
  /** TLS and HTTP/2 to the gateway, its files already read (src/client/transport.ts); else read from cfg.transport here. */
  transport?: Transport;
  /** When the run began, if before the checks (the client profile's sessions): the report's start and duration count from it. */
  began?: { at: Date; t0: number };
  /** What the console's first line says of the upstream when the run has no recording upstream (default: the service is checked directly). */
  upstreamWords?: string;
}

/** The checks a run runs: its selection (profile, --only, --skip, --capabilities), then its shard's slice. */
export function runSelection(all: CheckDef[], cfg: RunConfig): CheckDef[] {
  const checks = selectChecks(all, cfg);
  // A load shard is one of several load processes: it runs every load check (the load is what
  // is split), and merge-reports adds the shards' figures up (src/report/run/load-merge.ts).
  if (!cfg.shard || PROFILE_FACTS[cfg.profile].shards !== 'checks') return checks;
  const mine = shardIds(checks.map((c) => c.id), cfg.shard.index, cfg.shard.count, cfg.shardDurations ? durationsFrom(cfg.shardDurations) : undefined);
  return checks.filter((c) => mine.has(c.id));
}

/**
 * Runs the selected checks and returns the report (credentials scrubbed); writes nothing.
 * `upstream` is null in the service profile: its checks talk to the service directly.
 * `extras.gate` is for runs that share one process (the self-tests), see src/runner/gate.ts.
 */
export async function runSuite(all: CheckDef[], cfg: RunConfig, target: string, upstream: Upstream | null, printRaw: (s: string) => void, extras: SuiteExtras = {}): Promise<RunReport> {
  let checks = runSelection(all, cfg);
  // The console is a report too: no secret in any encoding, no control character from a gateway.
  let print = safePrinter(printRaw, cfg);
  // Read before anything runs, so a bad file is exit 2 at once.
  const waivers = cfg.waivers ? loadWaivers(cfg.waivers) : null;
  // Feature gating: what the gateway serves, as the user declared it; the service profile adds `service`.
  const feature = profileFeature(cfg.profile);
  const features: string[] = feature ? [feature] : [];
  const declared = new Set<string>([...cfg.protocols, ...features]);
  const { transport, negotiated } = await reachTarget(cfg, target, print, extras.transport);
  // The CLI expands them against its io.env first (withExpandedTargeting); a caller that did not, against this process's.
  const expanded = cfg.expanded ?? expandTargeting(cfg.targeting, upstream?.url ?? null, process.env);
  const secrets = [cfg.token, cfg.service?.key ?? '', ...expanded.secrets, ...(extras.secrets ?? [])].filter(Boolean);
  print = (s) => printRaw(terminalSafe(scrubSecrets(s, secrets)));
  const useConsole = cfg.reporter.includes('console');
  const gateway = new GatewayClient(target, { token: cfg.token, timeoutMs: cfg.timeoutMs, targeting: expanded.resolved, launcher: extras.launcher, transport });
  // The upstream takes requests under a protocol's upstream-base-path as today's paths.
  upstream?.forwardsUnder?.(upstreamPrefixes(cfg.targeting));
  let readiness: Readiness | null = null;
  let loadInfo: LoadRunInfo | undefined;
  try {
    // The readiness gate: no check runs before the gateway forwards a canary of each declared protocol.
    if (upstream && cfg.protocols.length) readiness = await awaitReady(gateway, upstream, cfg.protocols, { timeoutMs: cfg.readyTimeoutS * 1000, print: useConsole ? print : undefined, onAnswer: extras.progress?.readiness });
    extras.launcher?.answered?.();
    // A load process calibrates (and with --start-together waits for the other shards) before its checks.
    if (upstream && PROFILE_FACTS[cfg.profile].loadSettings) loadInfo = await beforeLoad(upstream, cfg.load, { profile: cfg.profile, seed: cfg.seed, shard: cfg.shard, print: useConsole ? print : undefined });
  } catch (e) {
    extras.progress?.ready();
    await gateway.close();
    upstream?.forwardsUnder?.([]);
    if (e instanceof HarnessError) throw new HarnessError(e.code, scrubSecrets(e.message, secrets));
    throw e;
  }
  extras.progress?.ready();
  checks = onRoutes(checks, translatedProtocols(readiness), cfg.only);
  const unmatchedFrom = upstream?.unmatched.length ?? 0;
  const startedAt = extras.began?.at ?? new Date();
  const t0 = extras.began?.t0 ?? performance.now();
  const attempts = Math.max(cfg.repeat, cfg.repeatFailures);
  if (useConsole)
    print(
      `gw-conformance ${VERSION}: ${plural(checks.length, 'check')}${cfg.shard ? ` (shard ${cfg.shard.index}/${cfg.shard.count})` : ''}, target ${target}, upstream ${upstream?.url ?? extras.upstreamWords ?? 'none (the service is checked directly)'}, declared ${[...cfg.protocols, ...features].join(', ')}, seed ${cfg.seed}${attempts > 1 ? `, ${attempts} attempts per ${cfg.repeat > 1 ? 'check' : 'check that does not pass'}` : ''}`,
    );
  const settings = { seed: cfg.seed, numRuns: cfg.runs, timeoutMs: cfg.timeoutMs, modelRoutes: cfg.modelRoutes, sse: cfg.sse, idle: cfg.idle, hangWaitMs: cfg.hangWaitMs, bodyLimitBytes: cfg.bodyLimitBytes, retryBound: cfg.retryBound, failoverChain: cfg.failoverChain, strict: cfg.strict, apps: { jwksRefetchMs: cfg.apps.jwksRefetchMs }, service: cfg.service && { models: cfg.service.models }, ...(PROFILE_FACTS[cfg.profile].loadSettings ? { load: { ...cfg.load, translated: routesOfCanaries(readiness) } } : {}), capabilities: { required: cfg.capabilities.required }, websockets: cfg.websockets };
  const runThem = () => runAttempts(checks, { gateway, upstream, declared, settings, launcher: extras.launcher, fixture: extras.fixture, noCredential: !cfg.token, routes: routesOfCanaries(readiness) }, cfg, extras, secrets, useConsole ? print : undefined);
  const ran = extras.interrupt ? await extras.interrupt.during(runThem) : await runThem();
  let results = ran.results;
  // Interrupted, the checks still running are cut off with their connections.
  await (ran.interrupted ? gateway.destroy() : gateway.close()).catch(() => undefined);
  // An upstream in another process: the last unmatched requests reach this run's report.
  await upstream?.sync?.().catch(() => undefined);
  upstream?.forwardsUnder?.([]);
  let waiverSummary: RunReport['waivers'];
  if (waivers) {
    const applied = applyWaivers(results, waivers, extras.today ?? startedAt.toISOString().slice(0, 10), cfg.waivers!);
    results = applied.results;
    waiverSummary = applied.summary;
  }
  const ran0 = runReportOf({ cfg, target, upstream, features, attempts, waiverSummary, interrupted: ran.interrupted, startedAt, t0, results, unmatchedFrom, readiness, transport, negotiated });
  const raw = loadInfo ? { ...ran0, load: afterLoad(loadInfo, cfg.load) } : ran0;
  return sealReport(raw, secrets, expanded.names);
}

type RunContext = Omit<Parameters<typeof runChecks>[1], 'exchanges'>;

/**
 * Attempt 1 (the transcript is of this one), then the repeats: every check (--repeat), or those
 * that did not pass (--repeat-failures); each check's attempts combined into one result.
 * `print`: the console's progress lines, when the console reporter is on.
 */
async function runAttempts(checks: CheckDef[], ctx: RunContext, cfg: RunConfig, extras: SuiteExtras, secrets: string[], print?: (s: string) => void): Promise<{ results: CheckResult[]; interrupted?: boolean }> {
  const attempts = Math.max(cfg.repeat, cfg.repeatFailures);
  const mask = masker(secrets);
  const timing = new Set(checks.filter((c) => c.timing).map((c) => c.id));
  const { transcript, cases: told } = extras;
  const exchanges: ExchangeSink | undefined =
    transcript || told
      ? (id, client, cases) => {
          told?.(id, cases.map((e) => e.token), client.map((x) => x.req.path));
          transcript?.set(id, timing.has(id) ? [TIMING_EXCHANGE] : ordered([...client.map((x) => clientExchange(x.req, x.res, mask)), ...cases.map((e) => upstreamExchange(e, mask))]));
        }
      : undefined;
  const finished = new Map<string, CheckResult>();
  const columns = columnsFor(checks);
  const progress = extras.progress;
  progress?.planned(checks.length);
  let first: CheckResult[];
  try {
    const onResult = (r: CheckResult) => {
      // A check that ends after Ctrl-C ended because of it: the reports list it as not run, so the console does not judge it either.
      if (extras.interrupt?.signal.aborted) return;
      finished.set(r.id, r);
      progress?.finished(r.id);
      if (print && attempts === 1) print(progressLine(r, columns));
    };
    first = await untilCrash(runChecks(checks, { ...ctx, exchanges }, { concurrency: cfg.concurrency, gate: extras.gate, onResult, onStart: progress?.started }), extras.interrupt?.signal);
  } catch (e) {
    if (e instanceof Interrupted) return { results: checks.map((c) => finished.get(c.id) ?? notRun(c)), interrupted: true };
    // Every run that starts writes its reports: what finished, and the harness's error for the rest.
    const err = e instanceof Error ? e : new Error(String(e));
    first = checks.map((c) => finished.get(c.id) ?? notFinished(c, err));
  }
  const tries: CheckResult[][] = first.map((r) => [r]);
  for (let k = 2; k <= attempts; k++) {
    const again = checks.map((_, i) => i).filter((i) => k <= cfg.repeat || tries[i].some(needsRetry));
    if (!again.length) break;
    const more = await runChecks(again.map((i) => checks[i]), ctx, { concurrency: cfg.concurrency, gate: extras.gate });
    again.forEach((i, j) => tries[i].push(more[j]));
  }
  const results = tries.map(combineAttempts);
  if (print && attempts > 1) for (const r of results) print(progressLine(r, columns));
  return { results };
}

/** The result of a check the run did not get to, because the harness broke. */
const notFinished = (c: CheckDef, err: Error): CheckResult => ({
  id: c.id,
  title: c.title,
  area: c.area,
  requirements: c.requirements,
  level: c.level,
  outcome: 'error',
  message: `not finished: the run stopped on a harness error: ${err.name}: ${err.message}`,
  expected: null,
  actual: null,
  evidence: { stack: err.stack ?? null },
  durationMs: 0,
});

/**
 * The report as it may be written: the credential the harness was given, the values of
 * headers taken from the environment, and every header the user added never reach it.
 */
export function sealReport(raw: RunReport, secrets: string[], headerNames: string[]): RunReport {
  // `targeting` lists header names on purpose; everything else shows headers with values.
  const { targeting, ...rest } = scrubDeep(raw, secrets);
  const report: RunReport = { ...maskHeaderNamesDeep(rest, headerNames), ...(targeting ? { targeting } : {}) };
  assertValidReport(report);
  return report;
}

/** The secrets of a run: the credential sent to the gateway and the service key. */
export function secretsOf(cfg: Pick<RunConfig, 'token'> & { service?: { key?: string } | null | false }): string[] {
  return [cfg.token, (cfg.service && cfg.service.key) || ''].filter(Boolean);
}

/** A printer that scrubs every secret and shows control characters instead of sending them to the terminal. */
export function safePrinter(print: (s: string) => void, cfg: Parameters<typeof secretsOf>[0]): (s: string) => void {
  const secrets = secretsOf(cfg);
  return (s) => print(terminalSafe(scrubSecrets(s, secrets)));
}

class Interrupted extends Error {}

/**
 * The run's promise, or its failure when the process meets an uncaught exception or rejection
 * meanwhile (a socket error no one listens to), or `stop` aborts (Ctrl-C): the run then ends
 * with what it has, reported.
 */
async function untilCrash<T>(run: Promise<T>, stop?: AbortSignal): Promise<T> {
  let onCrash: (e: unknown) => void = () => undefined;
  const crashed = new Promise<never>((_, reject) => (onCrash = reject));
  const onStop = () => onCrash(new Interrupted());
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  stop?.addEventListener('abort', onStop);
  try {
    return await Promise.race([run, crashed]);
  } finally {
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
    stop?.removeEventListener('abort', onStop);
  }
}
