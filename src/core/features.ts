// Profiles, protocols and features: which checks a run picks (the profile) and which it may run
// against this gateway (the features the gateway has). Kept in core (it imports only core) so the
// options, the readiness gate and the checks share one list of each, and the layers below the
// commands (selection, configuration, reports) one record of what each profile is to them
// (PROFILE_FACTS); what a profile is to the commands is a module of cli/profiles/.
import { DEFAULT_PROTOCOLS, PROTOCOLS, type Protocol } from './protocols.js';

/** `default` runs by default; `slow` adds to it with --profile slow; `service` runs alone with --profile service; `apps` (the apps gateway) alone with --profile apps; `client` (real clients, straight and through the gateway) alone with --profile client; `load` (many requests at once, bounded) alone with --profile load. */
export const PROFILES = ['default', 'slow', 'service', 'apps', 'client', 'load'] as const;
export type Profile = (typeof PROFILES)[number];

/** What a profile is to the layers below the commands. */
export interface ProfileFacts {
  /** The profiles of the checks a run of it picks (an id named with --only runs whatever its profile). */
  picks: readonly Profile[];
  /**
   * What `--shard i/n` splits: `checks` (each shard runs a slice of the selected checks) or
   * `load` (each shard is one of n load processes running every check; merge-reports adds
   * their figures up, src/report/run/load-merge.ts).
   */
  shards: 'checks' | 'load';
  /** Its checks talk to a hosted service, with the service's key (GWC_SERVICE_KEY) as the credential on every protocol. */
  serviceKey: boolean;
  /** Its checks are given the load settings (the load bounds and --declared-limit: RunSettings.load). */
  loadSettings: boolean;
}

/** Every profile's facts: a new profile is one line here (the compiler names a missing one). */
export const PROFILE_FACTS: Record<Profile, ProfileFacts> = {
  default: { picks: ['default'], shards: 'checks', serviceKey: false, loadSettings: false },
  slow: { picks: ['default', 'slow'], shards: 'checks', serviceKey: false, loadSettings: false },
  service: { picks: ['service'], shards: 'checks', serviceKey: true, loadSettings: false },
  apps: { picks: ['apps'], shards: 'checks', serviceKey: false, loadSettings: false },
  client: { picks: ['client'], shards: 'checks', serviceKey: false, loadSettings: false },
  load: { picks: ['load'], shards: 'load', serviceKey: false, loadSettings: true },
};

/** The facts of a profile named in a report read from a file (undefined for a name this harness does not know). */
export function factsOfNamed(name: string): ProfileFacts | undefined {
  return Object.hasOwn(PROFILE_FACTS, name) ? PROFILE_FACTS[name as Profile] : undefined;
}
export { DEFAULT_PROTOCOLS, PROTOCOLS, type Protocol };

/**
 * The profiles that are also a feature: their checks need what only that profile sets up (the
 * hosted service's key and models; the apps gateway's IdP, collector and upstreams; the real
 * clients' two runs), so a check of one, named with --only under another profile, is skipped as
 * not declared instead of failing.
 */
export const PROFILE_FEATURES = ['service', 'apps', 'client', 'load'] as const satisfies readonly Profile[];
export type ProfileFeature = (typeof PROFILE_FEATURES)[number];

/** Something a gateway has or has not: a protocol it serves (`--protocols`) or a profile's surroundings. */
export type Feature = Protocol | ProfileFeature;

/** The feature a check of this profile needs, if its profile is one. */
export function profileFeature(profile: Profile): ProfileFeature | undefined {
  return (PROFILE_FEATURES as readonly Profile[]).includes(profile) ? (profile as ProfileFeature) : undefined;
}
