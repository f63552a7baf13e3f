// The check interface: what a check declares (CheckDef) and what it is given to run with
// (CheckContext: the gateway client and the upstream handle). One check tests one requirement,
// so a report line names exactly what broke. It sits above the client and the upstream interface,
// which it hands to the checks, and below the runner, which runs them; the words it shares with
// the reports (levels, outcomes, profiles, features) live in src/core/.
import type { GatewayClient } from '../client/gateway.js';
import { profileFeature, type Feature, type Profile, type Protocol } from '../core/features.js';
import type { Level } from '../core/outcome.js';
import type { SocketRouteName } from '../core/protocols.js';
import type { DeclaredLimit } from '../core/limits.js';
import type { DeepParts, EvidenceParts } from '../core/evidence.js';
import type { UpstreamHandle } from '../upstream/handle.js';

/**
 * A check's evidence: the keys the reporters read (EvidenceParts, src/core/evidence.ts) in their
 * declared shape, every other key free-form (shown as JSON). A check writing a known key in
 * another shape does not compile.
 */
export type Evidence = EvidenceParts & { [key: string]: unknown };

/** What a check's run returns: a held property or a broken one, explained. */
export interface Verdict {
  ok: boolean;
  /** One line: what held, or what broke. */
  message: string;
  expected?: string;
  actual?: string;
  evidence?: Evidence;
  /** Set when the precondition of the check is absent: the result is a skip, never a fail. */
  skip?: boolean;
  /** Set when what was found is to be reported, not failed, whatever the check's level (a feature the gateway says it does not offer): the result is info. */
  info?: boolean;
}


/** The load profile's bounds and declarations (from the run's options). */
export interface LoadSettings {
  /** Requests per second of the declared rate. */
  rate: number;
  durationS: number;
  /** The most requests one load phase sends. */
  requests: number;
  clients: number;
  protocols: Protocol[];
  declaredLimit: DeclaredLimit | null;
  /** `--budget added-p99-ms=N`: the added p99 the gateway may cost. */
  budgetAddedP99Ms: number | null;
  /** --load-frontier: load.perf.frontier sweeps rising rates. */
  frontier: boolean;
  /** --start-together: the most seconds a shard waits at the mock for the others (0: no wait). */
  startTogetherS: number;
  /** The wall clock (Date.now()) of the run's first load request, filled by the load generator; null before it. */
  firstSend: { at: number | null };
  /** The routes the gateway translates (a client protocol → the protocol its readiness canary reached the upstream in); filled by the run after the readiness gate. */
  translated?: Partial<Record<Protocol, Protocol>>;
}

export interface RunSettings {
  seed: number;
  /** Number of generated cases per property. */
  numRuns: number;
  timeoutMs: number;
  /** Declared model routing (MSG-MODEL-1): requested model -> model the upstream may receive. */
  modelRoutes: Record<string, string>;
  /** Bounds of the stream timing oracle (src/core/oracle.ts). */
  sse: { maxLagMs: number; burstWindowMs: number; latP50Ms: number };
  /** Idle tolerance probe (slow profile): longest silence tried, and the least that passes. */
  idle: { maxS: number; minS: number };
  /** How long the hung-upstream probe waits for the gateway's own time-out. */
  hangWaitMs: number;
  /** The gateway's declared request body limit in bytes (default: the provider's 32 MB) and retry bound; absent in unit tests' settings. */
  bodyLimitBytes?: number;
  retryBound?: number;
  /** The gateway's declared failover chain for a model-not-found 404 (ERR-RETRY-2): further upstream attempts, each with another model. */
  failoverChain?: number;
  /**
   * --strict: read the interface to the letter where the real client's contract (what the apps
   * gateway serves at /protocol) allows more: DISC-1, ERR-PASS-1 and ERR-RETRY-2 say where.
   */
  strict?: boolean;
  /** The apps profile's allowances (set from the run's options; absent in unit tests' settings). */
  apps?: { jwksRefetchMs: number };
  /** The service profile's models, one per protocol (set only with --profile service). */
  service?: { models: Record<Protocol, string> };
  /** The capability matrix's features the user requires (--require-capability); absent when no matrix is asked for. */
  capabilities?: { required: readonly string[] };
  /** The load profile's settings (set only with --profile load). */
  load?: LoadSettings;
  /** The WebSocket routes the gateway serves (--websockets) and the silence a socket must survive (--websocket-idle-s); absent: every route, the option's default. */
  websockets?: { served: SocketRouteName[]; idleS: number };
}

export interface CheckContext {
  gateway: GatewayClient;
  upstream: UpstreamHandle;
  settings: RunSettings;
  signal: AbortSignal;
  /** Adds a line to the check's evidence log (kept in the report). */
  log(line: string): void;
  /** What a profile sets up around the gateway for its checks (the apps profile: IdP, collector, upstreams); opaque here. */
  fixture?: unknown;
}

export interface CheckDef {
  /** Stable id; equals the file name under suites/. */
  id: string;
  title: string;
  /** Requirement ids of the catalog (catalog/requirements.json). */
  requirements: string[];
  level: Level;
  /** The id's first segment, which is the check's folder, suites/<area>/ (defineCheck fills it: areaOf). */
  area: string;
  /**
   * Which runs pick the check (defineCheck fills in `default` when the file states none). The
   * `service` and `apps` profiles are features too: their checks need what only that profile
   * sets up, so the profile alone says so (featuresOf).
   */
  profile: Profile;
  /** The protocol the check speaks: a feature the gateway must declare (`--protocols`), else the check is skipped. */
  protocol?: Protocol;
  /**
   * `info`: the check runs when its protocol is not declared too, and then reports what it found
   * as info, never as a failure (a route a gateway may carry without saying so: the A2A checks).
   */
  undeclared?: 'info';
  /**
   * Judges a route the gateway translates (its protocol forwarded upstream as another): picked
   * only when the readiness canary of its protocol reached the upstream in another protocol.
   */
  translatedRoute?: boolean;
  /**
   * What the check compares that a translation between protocols cannot keep (bytes, key order,
   * a forwarded header): where one of its requests reached the upstream in another protocol than
   * the client's, its verdict is a skip that names the route (src/runner/runner.ts), and the
   * checks of translated routes judge it by meaning.
   */
  untranslatable?: string;
  /** Proves what becomes of the client's credential: skipped when the run sends none (the gateway takes none: --no-token). */
  credential?: boolean;
  /** A longer time limit than the run's per-check limit (e.g. an idle probe of 120 s). */
  timeLimitMs?(settings: RunSettings): number;
  /**
   * Measures time (e.g. the stream oracle): runs after the other checks, beside only other
   * timing checks, so no other check's work in this process delays its events.
   */
  timing?: boolean;
  /** Runs alone, after the parallel checks (its work would disturb others, e.g. a 46 MiB body). */
  exclusive?: boolean;
  /**
   * Mostly waits (a long silence, a request the upstream never answers): starts first and runs
   * beside every other check, outside the concurrency limit, bounded by its own time limit.
   */
  background?: boolean;
  /**
   * Takes the whole upstream down (suspends it): runs in the outage window at the end of the
   * run, after every other check; the runner then waits until the gateway forwards again.
   */
  outage?: boolean;
  /** What must hold, in our own words (`list --json` prints it). */
  requirement: string;
  /**
   * How to fix a failure, in Markdown (one paragraph), for the gateway's operator: what to change
   * in the gateway, not in the harness; nginx directives are those of
   * examples/nginx/hardened.conf. A finding's report carries it, and docs/checks.md is made from it.
   */
  fix: string;
  run(ctx: CheckContext): Promise<Verdict>;
}

/**
 * What a check's file states: its CheckDef less what follows from it. `area` is stated only where
 * it is not the id's first segment (no check of suites/ today; the harness's own tests use one),
 * `profile` only where it is not `default`.
 */
export type CheckSpec = Omit<CheckDef, 'area' | 'profile'> & Partial<Pick<CheckDef, 'area' | 'profile'>>;

/** A check's area: the first segment of its id (`messages.path.preserved` is in `messages`), its folder under suites/. */
export const areaOf = (id: string): string => id.split('.')[0];

/**
 * The whole check of a file's spec: the area of its id and the `default` profile, unless the spec
 * states another. The keys come in the order the files once wrote them (id, title, requirements,
 * level, area, profile, then the rest).
 */
export function defineCheck(spec: CheckSpec): CheckDef {
  const { id, title, requirements, level, area, profile, ...rest } = spec;
  return { id, title, requirements, level, area: area ?? areaOf(id), profile: profile ?? 'default', ...rest };
}

/** A held property; its evidence's known keys, at any depth, in their declared shape (DeepParts). */
export const pass = <E extends Evidence>(message: string, evidence?: E & DeepParts<E>): Verdict => ({ ok: true, message, evidence });
/** A broken property, explained; its evidence typed as pass()'s. */
export const fail = <E extends Evidence>(message: string, detail: Omit<Verdict, 'ok' | 'message' | 'evidence'> & { evidence?: E & DeepParts<E> } = {}): Verdict => ({ ok: false, message, ...detail });

/** Every feature a check needs: its protocol, and its profile when that profile is a feature. */
export function featuresOf(c: Pick<CheckDef, 'protocol' | 'profile' | 'undeclared'>): Feature[] {
  const fromProfile = profileFeature(c.profile);
  return [...(c.protocol && c.undeclared !== 'info' ? [c.protocol] : []), ...(fromProfile ? [fromProfile] : [])];
}
