// Picks checks by profile, --only and --skip, and the capability matrix's checks only when it is
// asked for. Unknown ids are a harness error (exit 2).
import type { CheckDef } from '../check/check.js';
import { CAPABILITY_AREA, FEATURES_OF } from '../core/capabilities.js';
import type { Profile } from '../core/features.js';
import { HarnessError } from '../core/errors.js';

export function selectChecks(all: CheckDef[], opts: { profile: Profile; only: string[]; skip: string[]; capabilities?: { run: boolean; required: readonly string[] } }): CheckDef[] {
  const ids = new Set(all.map((c) => c.id));
  for (const id of [...opts.only, ...opts.skip]) {
    if (!ids.has(id) && !all.some((c) => c.area === id || c.requirements.includes(id)))
      throw new HarnessError('UNKNOWN_CHECK', `unknown check "${id}" (see \`gw-conformance list\` for check ids, areas and requirement ids)`);
  }
  const matches = (c: CheckDef, sel: string) => c.id === sel || c.area === sel || c.requirements.includes(sel);
  const inProfile = (c: CheckDef) => (opts.profile === 'service' || opts.profile === 'apps' ? c.profile === opts.profile : c.profile === 'default' || (opts.profile === 'slow' && c.profile === 'slow'));
  // A check named by id runs whatever its profile; an area or requirement id keeps to the profile.
  const picked = (c: CheckDef) => opts.only.some((s) => s === c.id || (matches(c, s) && inProfile(c)));
  const selected = all.filter((c) => (opts.only.length ? picked(c) : inProfile(c)) && !opts.skip.some((s) => matches(c, s)));
  return withCapabilities(selected, opts);
}

/**
 * The capability matrix costs a request per feature, route and mode, so its checks run only
 * with --capabilities or --require-capability (or when --only names one by id). A check whose
 * protocol has a required feature is MUST: its required cells then decide the run.
 */
function withCapabilities(checks: CheckDef[], opts: { only: string[]; capabilities?: { run: boolean; required: readonly string[] } }): CheckDef[] {
  const run = opts.capabilities?.run === true;
  const required = new Set(opts.capabilities?.required ?? []);
  return checks
    .filter((c) => c.area !== CAPABILITY_AREA || run || opts.only.includes(c.id))
    .map((c) => (c.area === CAPABILITY_AREA && c.protocol && FEATURES_OF[c.protocol].some((f) => required.has(f)) ? { ...c, level: 'MUST' as const } : c));
}
