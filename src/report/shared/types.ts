// The one versioned report every reporter renders: the run is judged once, and each format shows
// the same verdicts. Its JSON Schema is src/report/shared/run-report.schema.json; bump SCHEMA_VERSION on
// any change.
import type { Level, Outcome } from '../../core/outcome.js';
import type { EvidenceParts } from '../../core/evidence.js';
import type { Readiness } from './readiness.js';
import type { GatewayResources } from '../../core/resources.js';
import type { LoadCalibration } from '../../load/calibrate.js';
export type { LoadCalibration };

/** How a run ended, as its process exits (src/report/shared/policy.ts decides it): 130 is Ctrl-C's. */
export type ExitCode = 0 | 1 | 2 | 130;

export const SCHEMA_VERSION = '1.10.0';

export interface CheckResult {
  id: string;
  title: string;
  area: string;
  requirements: string[];
  level: Level;
  outcome: Outcome;
  message: string;
  expected: string | null;
  actual: string | null;
  /** Free-form, with the keys of EvidenceParts (src/core/evidence.ts) in their declared shape. */
  evidence: EvidenceParts & Record<string, unknown>;
  durationMs: number;
  /** Set when a waiver covers this result (outcome `waived`; `waivedOutcome` is what it would have been). */
  waiver?: AppliedWaiver;
  /** Per client protocol, the protocol this check's requests reached the upstream in (absent when none reached it). */
  routes?: RouteCount[];
  /** How to fix a finding (a check that did not pass, skip or break the harness): the advice of its check (CheckDef.fix) and its anchor in docs/checks.md. */
  fix?: { text: string; link: string };
}

/** Requests a client sent in one protocol that reached the upstream in another (or the same): a route of the gateway. */
export interface RouteCount {
  client: string;
  /** The protocol of the upstream path; 'none' for a path of no protocol. */
  upstream: string;
  requests: number;
  /** In the run's routes: how many checks sent such requests. */
  checks?: number;
}

/** A waiver entry (waivers.yaml, or `waivers:` in gwc.yaml). */
export interface Waiver {
  check?: string;
  requirement?: string;
  reason: string;
  /** YYYY-MM-DD: the waiver applies up to and including this day (UTC). */
  expires: string;
  link?: string;
}

export interface AppliedWaiver extends Waiver {
  /** The outcome the check had before the waiver. */
  waivedOutcome: Outcome;
}

export interface WaiverSummary {
  /** Where the waivers came from (a file path). */
  source: string;
  applied: Array<Waiver & { checks: string[] }>;
  /** Past their date: not applied; `checks` are the problems they would have covered. */
  expired: Array<Waiver & { checks: string[] }>;
  /** In date, but no problem of this run matched them. */
  unused: Waiver[];
}

export interface RunReport {
  schemaVersion: string;
  harness: { name: string; version: string };
  /** The gateway product under test, as the user named it (--gateway-name, --gateway-version). */
  gateway?: { name: string; version?: string };
  target: string;
  upstream: string | null;
  profile: string;
  /** What the user declared the gateway serves (feature gating). */
  declared: { protocols: string[]; features?: string[]; websockets?: string[] };
  seed: number;
  strict: boolean;
  /** --allow-flaky: a flaky check does not fail the run. */
  allowFlaky?: boolean;
  /** --repeat / --repeat-failures: how many attempts a check had. */
  repeat?: { attempts: number; failuresOnly: boolean };
  /** --shard i/n: this run is one slice of the selected checks; with --profile load (`balancedBy: 'load'`) one of n load processes, each running every load check. */
  shard?: { index: number; count: number; balancedBy: 'id-hash' | 'duration' | 'load' };
  /** The waivers of the run and what became of each. */
  waivers?: WaiverSummary;
  /** Set when Ctrl-C stopped the run: the checks that had not finished are skipped as "not run". */
  interrupted?: boolean;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  summary: Record<Outcome, number> & { total: number };
  /** src/report/shared/policy.ts: 0 every MUST check passed; 1 a check failed; 2 the harness broke on a check; 130 Ctrl-C stopped the run. */
  exitCode: ExitCode;
  results: CheckResult[];
  /** Requests the recording upstream could not tie to any check. */
  unmatchedRequests: Array<{ method: string; url: string; reason: string; receivedWall: string }>;
  /** The readiness gate (src/runner/ready.ts); null without a recording upstream. */
  readiness?: Readiness | null;
  /** Per declared protocol, where the checks aimed (header names only). */
  targeting?: Record<string, { basePath: string; headers: string[]; credential: string; upstreamBasePath: string }>;
  /** The gateway the harness started itself (src/launch/). */
  launched?: LaunchInfo;
  /** The load profile: the build and settings of this load process, its calibration, its start beside other shards; merged, each shard's (src/report/run/load-shards.ts). */
  load?: LoadRunInfo;
  /** The apps profile: what the gateway served at GET /protocol (its contract), and the digest of the contract the catalog was written against. */
  gatewayContract?: GatewayContract;
  /** How the harness connected to the gateway: scheme, HTTP/2 mode and what was agreed (ALPN), TLS verification off (--insecure); and the HTTP versions the gateway spoke to the recording upstream (requests per version). */
  /** Per client protocol, which protocol the gateway used upstream (routes.ts); a route whose two protocols differ was translated. */
  routes?: RouteCount[];
  transport?: { scheme: 'http' | 'https'; http2: string; insecure: boolean; caFile?: string; clientCert?: string; negotiated: string; upstreamHttpVersions?: Record<string, number> };
}

/**
 * The contract an apps gateway serves (`GET /protocol`): status, and when served (200) its size,
 * type and digest (`sha256:<hex>`; no key ends in hex digits and no value is held to a pattern: the
 * report's secret scrubber masks edges of texts that look like a piece of a secret's hex form).
 */
export interface GatewayContract {
  path: string;
  status: number;
  digest?: string;
  bytes?: number;
  contentType?: string;
  /** The digest of the contract the catalog was written against (src/core/apps-contract.ts). */
  expectedDigest: string;
}

export interface LaunchInfo {
  kind: 'command' | 'image';
  /** The command line or image name, secrets masked. */
  what: string;
  target: string;
  restarts: number;
  /** The exit code when it ended on its own or at stop (null: killed by a signal, or a container). */
  exitCode: number | null;
  logTail: string[];
  /** Its memory and CPU over the run and its cold start (src/core/resources.ts); absent where they could not be read. */
  resources?: GatewayResources;
}

/** What a load process records of itself, so that shards are compared as like with like. */
export interface LoadRunInfo {
  /** The harness build (src/core/build.ts). */
  build: string;
  settings: { rate: number; requests: number; durationS: number; clients: number; protocols: string[]; frontier?: boolean };
  calibration?: LoadCalibration;
  /** --start-together: how long this shard waited at the barrier for the others, and the moment they started. */
  start?: StartTogether;
  /** Wall clock (ISO) of this process's first load request of its checks. */
  firstRequestAt?: string;
  /** A merged report: each shard's calibration, start and first load request, why a shard's calibration is far from the others' (flagged), or why it could not be judged (unjudged), or a tail far off alone (noted). */
  shards?: Array<{ shard: number; calibration: LoadCalibration | null; start?: StartTogether; firstRequestAt?: string; flagged?: string; unjudged?: string; noted?: string }>;
}

export interface StartTogether {
  /** Shards that registered (this one included) and those the run declared. */
  registered: number;
  expected: number;
  waitedMs: number;
  /** Wall clock (ISO) of the common start, as the recording upstream set it. */
  startAt: string;
}

export function summarize(results: CheckResult[]): RunReport['summary'] {
  const s = { total: results.length, pass: 0, fail: 0, warn: 0, info: 0, skip: 0, error: 0, timeout: 0, waived: 0, flaky: 0 };
  for (const r of results) s[r.outcome]++;
  return s;
}
