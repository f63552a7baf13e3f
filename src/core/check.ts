// The unit of the harness: one check, one requirement (design.md, "The unit: a check").
import type { GatewayClient } from '../client/gateway.js';
import type { UpstreamHandle } from '../upstream/handle.js';

export type Level = 'MUST' | 'SHOULD' | 'INFO';
/**
 * pass; fail (MUST broken); warn (SHOULD broken); info (INFO finding); skip; error (harness broke); timeout.
 * Two more are given by the run, never by a check: waived (a problem a waiver covers, src/report/waivers.ts)
 * and flaky (attempts of --repeat disagreed, src/runner/repeat.ts).
 */
export type Outcome = 'pass' | 'fail' | 'warn' | 'info' | 'skip' | 'error' | 'timeout' | 'waived' | 'flaky';
/** `default` runs by default; `slow` adds to it with --profile slow; `service` runs alone with --profile service; `apps` (the apps gateway) alone with --profile apps. */
export const PROFILES = ['default', 'slow', 'service', 'apps', 'client'] as const;
export type Profile = (typeof PROFILES)[number];
export const PROTOCOLS = ['messages', 'native', 'chat'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

export interface Evidence {
  [key: string]: unknown;
}

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
  /** The apps profile's allowances (set from the run's options; absent in unit tests' settings). */
  apps?: { jwksRefetchMs: number };
  /** The service profile's models, one per protocol (set only with --profile service). */
  service?: { models: { messages: string; native: string; chat: string } };
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
  /** Catalog ids (../shared/requirements.md). */
  requirements: string[];
  level: Level;
  area: string;
  profile: Profile;
  /** The protocol the check speaks: a feature the gateway must declare (`--protocols`), else the check is skipped. */
  protocol?: Protocol;
  /** Further features the check needs (e.g. `service`: the hosted service's key and models). */
  features?: string[];
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
  /** What must hold, in our own words, with the spec section. */
  requirement: string;
  run(ctx: CheckContext): Promise<Verdict>;
}

export function defineCheck(def: CheckDef): CheckDef {
  return def;
}

export const pass = (message: string, evidence?: Evidence): Verdict => ({ ok: true, message, evidence });
export const fail = (message: string, detail: Omit<Verdict, 'ok' | 'message'> = {}): Verdict => ({ ok: false, message, ...detail });

/** Every feature a check needs: its protocol and the rest. */
export function featuresOf(c: Pick<CheckDef, 'protocol' | 'features'>): string[] {
  return [...(c.protocol ? [c.protocol] : []), ...(c.features ?? [])];
}

/** Outcome of a broken property, by level. */
export function failedOutcome(level: Level): Outcome {
  return level === 'MUST' ? 'fail' : level === 'SHOULD' ? 'warn' : 'info';
}
