// One run: preflight the target, run the selected checks, build and write the report.
import { request } from 'undici';
import { performance } from 'node:perf_hooks';
import { GatewayClient } from '../client/gateway.js';
import { HarnessError } from '../core/errors.js';
import type { CheckDef } from '../core/check.js';
import { selectChecks } from '../runner/registry.js';
import { runChecks } from '../runner/runner.js';
import { scrubDeep, scrubSecrets, terminalSafe } from '../core/mask.js';
import { VERSION } from '../core/paths.js';
import type { Upstream } from '../upstream/upstream.js';
import type { RunConfig } from '../config/config.js';
import { SCHEMA_VERSION, summarize, type CheckResult, type RunReport } from '../report/types.js';
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
    // Not HTTP at all (the answer does not start with a status line): a setup that cannot work.
    if (code === 'HPE_INVALID_CONSTANT' || /Expected HTTP\//i.test(err.message ?? '')) throw new HarnessError('TARGET_NOT_HTTP', `target ${target} did not answer HTTP (${code})`);
    // HTTP, but broken (a control character in a header, bad framing, a reset): the gateway's
    // fault, which its checks find and report (exit 1), not a harness that could not run.
    if (code.startsWith('HPE_') || /parse|HTTPParser/i.test(`${err.name} ${err.message}`) || code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE') {
      warn(`warning: target ${target} answered HEAD / with broken HTTP (${code}); running the checks, which will report it`);
      return;
    }
    throw new HarnessError('TARGET_UNREACHABLE', `target ${target}: ${code} ${err.message ?? ''}`.trim());
  }
}

/**
 * Runs the selected checks and returns the report (credentials scrubbed); writes nothing.
 * `upstream` is null in the service profile: its checks talk to the service directly.
 */
export async function runSuite(all: CheckDef[], cfg: RunConfig, target: string, upstream: Upstream | null, printRaw: (s: string) => void): Promise<RunReport> {
  const checks = selectChecks(all, cfg);
  // The console is a report too: no secret in any encoding, no control character from a gateway.
  const print = safePrinter(printRaw, cfg);
  // Feature gating: what the gateway serves, as the user declared it; the service profile adds `service`.
  const declared = new Set<string>([...cfg.protocols, ...(cfg.service ? ['service'] : [])]);
  await preflight(target, print);
  const gateway = new GatewayClient(target, { token: cfg.token, timeoutMs: cfg.timeoutMs });
  const unmatchedFrom = upstream?.unmatched.length ?? 0;
  const startedAt = new Date();
  const t0 = performance.now();
  const useConsole = cfg.reporter.includes('console');
  if (useConsole) print(`gw-conformance ${VERSION}: ${checks.length} checks, target ${target}, upstream ${upstream?.url ?? 'none (the service is checked directly)'}, declared ${cfg.protocols.join(', ')}, seed ${cfg.seed}`);
  const finished = new Map<string, CheckResult>();
  let results: CheckResult[];
  try {
    results = await untilCrash(
      runChecks(
        checks,
        { gateway, upstream, declared, settings: { seed: cfg.seed, numRuns: cfg.runs, timeoutMs: cfg.timeoutMs, modelRoutes: cfg.modelRoutes, sse: cfg.sse, idle: cfg.idle, service: cfg.service && { models: cfg.service.models } } },
        {
          concurrency: cfg.concurrency,
          onResult: (r) => {
            finished.set(r.id, r);
            if (useConsole) print(progressLine(r));
          },
        },
      ),
    );
  } catch (e) {
    // Every run that starts writes its reports: what finished, and the harness's error for the rest.
    const err = e instanceof Error ? e : new Error(String(e));
    results = checks.map(
      (c) =>
        finished.get(c.id) ?? {
          id: c.id,
          title: c.title,
          area: c.area,
          requirements: c.requirements,
          level: c.level,
          outcome: 'error' as const,
          message: `not finished: the run stopped on a harness error: ${err.name}: ${err.message}`,
          expected: null,
          actual: null,
          evidence: { stack: err.stack ?? null },
          durationMs: 0,
        },
    );
  }
  await gateway.close().catch(() => undefined);
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
  };
  // The credential the harness was given never reaches a report, in any encoding.
  const report = scrubDeep(raw, secretsOf(cfg));
  assertValidReport(report);
  return report;
}

/**
 * Writes the report files, prints the summary and returns the exit code. `argv` (the CLI's
 * arguments) gives failures their replay command. When the harness broke on a check (exit 2),
 * one line on stderr names the check: it is not the gateway's fault.
 */
export function finishRun(report: RunReport, cfg: RunConfig, io: { out: (s: string) => void; err: (s: string) => void }, argv: string[] = []): number {
  writeReports(scrubDeep(withReplay(report, argv), secretsOf(cfg)), cfg.reporter, cfg.out, safePrinter(io.out, cfg));
  const broke = harnessErrorLine(report.results);
  if (broke) safePrinter(io.err, cfg)(`gw-conformance: ${broke}`);
  return report.exitCode;
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

/**
 * The run's promise, or its failure when the process meets an uncaught exception or rejection
 * meanwhile (a socket error no one listens to): the run then ends with what it has, reported.
 */
async function untilCrash<T>(run: Promise<T>): Promise<T> {
  let onCrash: (e: unknown) => void = () => undefined;
  const crashed = new Promise<never>((_, reject) => (onCrash = reject));
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  try {
    return await Promise.race([run, crashed]);
  } finally {
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
  }
}
