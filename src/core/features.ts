// Profiles, protocols and features: which checks a run picks (the profile) and which it may run
// against this gateway (the features the gateway has). Kept in core (it imports only core) so the
// options, the readiness gate and the checks share one list of each.
import { PROTOCOLS, type Protocol } from './protocols.js';

/** `default` runs by default; `slow` adds to it with --profile slow; `service` runs alone with --profile service; `apps` (the apps gateway) alone with --profile apps; `client` (real clients, straight and through the gateway) alone with --profile client; `load` (many requests at once, bounded) alone with --profile load. */
export const PROFILES = ['default', 'slow', 'service', 'apps', 'client', 'load'] as const;
export type Profile = (typeof PROFILES)[number];
export { PROTOCOLS, type Protocol };

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
