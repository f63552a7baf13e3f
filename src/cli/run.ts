// One run: preflight the target, run the selected checks, build and write the report.
import { request } from 'undici';
import { performance } from 'node:perf_hooks';
import { GatewayClient } from '../client/gateway.js';
import { HarnessError } from '../core/errors.js';
import type { CheckDef } from '../core/check.js';
import { selectChecks } from '../runner/registry.js';
import { runChecks } from '../runner/runner.js';
import type { PhaseGate } from '../runner/gate.js';
import { maskHeaderNamesDeep, scrubSecrets } from '../core/mask.js';
import { awaitReady, type Readiness } from '../runner/ready.js';
import { describeTargeting, expandTargeting, upstreamPrefixes } from '../config/targeting.js';
import { VERSION } from '../core/paths.js';
import type { Upstream } from '../upstream/upstream.js';
import type { RunConfig } from '../config/config.js';
import { SCHEMA_VERSION, summarize, type RunReport } from '../report/types.js';
import { exitCodeOf, harnessErrorLine } from '../report/policy.js';
import { assertValidReport } from '../report/validate.js';
import { writeReports } from '../reporters/index.js';
import { withReplay } from '../report/replay.js';
import { progressLine } from '../reporters/console.js';

const PREFLIGHT_MS = 3000;

/**
 * Tells an unreachable or non-HTTP target (exit 2) from a live one. A target that accepts the
 * connection but does not answer is not refused here: its checks time out one by one.
 */
export async function preflight(target: string, warn: (s: string) => void): Promise<void> {
  try {
    const res = await request(target, { method: 'HEAD', headersTimeout: PREFLIGHT_MS, bodyTimeout: PREFLIGHT_MS, signal: AbortSignal.timeout(PREFLIGHT_MS + 500) });
    await res.body.dump();
  } catch (e) {
    const err = e as { code?: string; name?: string; message?: string; cause?: { code?: string } };
    const code = String(err.code ?? err.cause?.code ?? err.name ?? '');
    if (['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT'].includes(code))
      throw new HarnessError('TARGET_UNREACHABLE', `target ${target} is unreachable (${code})`);
    // An AbortSignal.timeout() abort is a DOMException whose `code` is the number 23: go by its name.
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'TimeoutError' || code === 'AbortError' || err.name === 'TimeoutError' || err.name === 'AbortError') {
      warn(`warning: target ${target} accepted the connection but did not answer HEAD / within ${PREFLIGHT_MS / 1000} s; checks may time out`);
      return;
    }
    if (code === 'HPE_INVALID_CONSTANT' || code.startsWith('HPE_') || /parse|HTTPParser/i.test(`${err.name} ${err.message}`) || code === 'UND_ERR_SOCKET' || code === 'ECONNRESET')
      throw new HarnessError('TARGET_NOT_HTTP', `target ${target} did not answer HTTP (${code || err.message})`);
    throw new HarnessError('TARGET_UNREACHABLE', `target ${target}: ${code} ${err.message ?? ''}`.trim());
  }
}

/**
 * Runs the selected checks and returns the report (credentials scrubbed); writes nothing.
 * `upstream` is null in the service profile: its checks talk to the service directly.
 * `opts.gate` is for runs that share one process (the self-tests), see src/runner/gate.ts.
 */
export async function runSuite(
  all: CheckDef[],
  cfg: RunConfig,
  target: string,
  upstream: Upstream | null,
  print: (s: string) => void,
  opts: { launcher?: { restart(): Promise<void> }; gate?: PhaseGate } = {},
): Promise<RunReport> {
  const checks = selectChecks(all, cfg);
  // Feature gating: what the gateway serves, as the user declared it; the service profile adds `service`.
  const declared = new Set<string>([...cfg.protocols, ...(cfg.service ? ['service'] : [])]);
  const expanded = cfg.expanded ?? expandTargeting(cfg.targeting, upstream?.url ?? null, process.env);
  const secrets = [cfg.token, cfg.service?.key ?? '', ...expanded.secrets];
  const useConsole = cfg.reporter.includes('console');
  await preflight(target, print);
  const gateway = new GatewayClient(target, { token: cfg.token, timeoutMs: cfg.timeoutMs, targeting: expanded.resolved, launcher: opts.launcher });
  // The upstream takes requests under a protocol's upstream-base-path as today's paths.
  upstream?.forwardsUnder?.(upstreamPrefixes(cfg.targeting));
  let readiness: Readiness | null = null;
  try {
    // The readiness gate: no check runs before the gateway forwards a canary of each declared protocol.
    if (upstream && cfg.protocols.length) readiness = await awaitReady(gateway, upstream, cfg.protocols, { timeoutMs: cfg.readyTimeoutS * 1000, print: useConsole ? print : undefined });
  } catch (e) {
    await gateway.close();
    upstream?.forwardsUnder?.([]);
    if (e instanceof HarnessError) throw new HarnessError(e.code, scrubSecrets(e.message, secrets));
    throw e;
  }
  const unmatchedFrom = upstream?.unmatched.length ?? 0;
  const startedAt = new Date();
  const t0 = performance.now();
  if (useConsole) print(`gw-conformance ${VERSION}: ${checks.length} checks, target ${target}, upstream ${upstream?.url ?? 'none (the service is checked directly)'}, declared ${cfg.protocols.join(', ')}, seed ${cfg.seed}`);
  const results = await runChecks(
    checks,
    { gateway, upstream, declared, settings: { seed: cfg.seed, numRuns: cfg.runs, timeoutMs: cfg.timeoutMs, modelRoutes: cfg.modelRoutes, sse: cfg.sse, idle: cfg.idle, hangWaitMs: cfg.hangWaitMs, service: cfg.service && { models: cfg.service.models } } },
    { concurrency: cfg.concurrency, onResult: useConsole ? (r) => print(progressLine(r)) : undefined, gate: opts.gate },
  );
  await gateway.close();
  upstream?.forwardsUnder?.([]);
  const raw: RunReport = {
    schemaVersion: SCHEMA_VERSION,
    harness: { name: 'gw-conformance', version: VERSION },
    target,
    upstream: upstream?.url ?? null,
    profile: cfg.profile,
    declared: { protocols: [...cfg.protocols] },
    seed: cfg.seed,
    strict: cfg.strict,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    durationMs: Math.round(performance.now() - t0),
    summary: summarize(results),
    exitCode: exitCodeOf(results, cfg.strict),
    results,
    unmatchedRequests: upstream?.unmatched.slice(unmatchedFrom) ?? [],
    readiness,
    targeting: describeTargeting(cfg.targeting, cfg.protocols),
  };
  return sealReport(raw, secrets, expanded.names);
}

/**
 * The report as it may be written: the credential the harness was given, the values of
 * headers taken from the environment, and every header the user added never reach it.
 */
export function sealReport(raw: RunReport, secrets: string[], headerNames: string[]): RunReport {
  // `targeting` lists header names on purpose; everything else shows headers with values.
  const { targeting, ...rest } = JSON.parse(scrubSecrets(JSON.stringify(raw), secrets)) as RunReport;
  const report: RunReport = { ...maskHeaderNamesDeep(rest, headerNames), ...(targeting ? { targeting } : {}) };
  assertValidReport(report);
  return report;
}

/**
 * Writes the report files, prints the summary and returns the exit code. `argv` (the CLI's
 * arguments) gives failures their replay command. When the harness broke on a check (exit 2),
 * one line on stderr names the check: it is not the gateway's fault.
 */
export function finishRun(report: RunReport, cfg: RunConfig, io: { out: (s: string) => void; err: (s: string) => void }, argv: string[] = []): number {
  writeReports(withReplay(report, argv), cfg.reporter, cfg.out, io.out);
  const broke = harnessErrorLine(report.results);
  if (broke) io.err(`gw-conformance: ${broke}`);
  return report.exitCode;
}
