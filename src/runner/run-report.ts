// The RunReport of a finished run of the checks, assembled from what runSuite gathered: the
// settings that shape the verdicts, the results, the readiness gate and the transport. Kept apart
// from runSuite so the order of a run and the shape of its report read on their own.
import { performance } from 'node:perf_hooks';
import { summarize as summarizeTransport, type Transport } from '../client/transport.js';
import { VERSION } from '../core/paths.js';
import { PROFILE_FACTS } from '../core/features.js';
import type { RunConfig } from '../config/config.js';
import { describeTargeting } from '../config/targeting.js';
import { exitCodeOf } from '../report/shared/policy.js';
import { routesOf } from '../report/run/routes.js';
import { SCHEMA_VERSION, summarize, type CheckResult, type RunReport } from '../report/shared/types.js';
import type { Readiness } from './ready.js';
import type { Upstream } from '../upstream/upstream.js';

export interface RunFacts {
  cfg: RunConfig;
  target: string;
  upstream: Upstream | null;
  features: string[];
  attempts: number;
  waiverSummary: RunReport['waivers'];
  interrupted?: boolean;
  startedAt: Date;
  /** performance.now() when the checks started. */
  t0: number;
  results: CheckResult[];
  /** How many unmatched requests the upstream had before the checks (those are the gate's). */
  unmatchedFrom: number;
  readiness: Readiness | null;
  transport: Transport;
  negotiated: string | null;
}

/** The report of a run, before it is sealed (masked and validated). */
export function runReportOf(f: RunFacts): RunReport {
  const { cfg, target, upstream, features, attempts, waiverSummary, startedAt, t0, results, unmatchedFrom, readiness, transport, negotiated } = f;
  const routes = routesOf(results);
  return {
    schemaVersion: SCHEMA_VERSION,
    harness: { name: 'gw-conformance', version: VERSION },
    ...(cfg.gateway?.name ? { gateway: { ...cfg.gateway, name: cfg.gateway.name } } : {}),
    target,
    upstream: upstream?.url ?? null,
    profile: cfg.profile,
    declared: { protocols: [...cfg.protocols], ...(features.length ? { features } : {}), websockets: [...cfg.websockets.served] },
    seed: cfg.seed,
    strict: cfg.strict,
    allowFlaky: cfg.allowFlaky,
    ...(attempts > 1 ? { repeat: { attempts, failuresOnly: cfg.repeat < attempts } } : {}),
    ...(cfg.shard ? { shard: { ...cfg.shard, balancedBy: PROFILE_FACTS[cfg.profile].shards === 'load' ? ('load' as const) : cfg.shardDurations ? ('duration' as const) : ('id-hash' as const) } } : {}),
    ...(waiverSummary ? { waivers: waiverSummary } : {}),
    ...(f.interrupted ? { interrupted: true } : {}),
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    durationMs: Math.round(performance.now() - t0),
    summary: summarize(results),
    exitCode: exitCodeOf(results, { strict: cfg.strict, allowFlaky: cfg.allowFlaky }, f.interrupted),
    results,
    unmatchedRequests: upstream?.unmatched.slice(unmatchedFrom) ?? [],
    readiness,
    targeting: describeTargeting(cfg.targeting, cfg.protocols),
    ...(routes.length ? { routes } : {}),
    transport: { ...summarizeTransport(transport, target), negotiated: negotiated ?? 'unknown', ...(upstream?.httpVersions ? { upstreamHttpVersions: { ...upstream.httpVersions } } : {}) },
  };
}
