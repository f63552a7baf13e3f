// Picks checks by profile, --only and --skip. Unknown ids are a harness error (exit 2).
import type { CheckDef } from '../check/check.js';
import type { Profile } from '../core/features.js';
import { HarnessError } from '../core/errors.js';

export function selectChecks(all: CheckDef[], opts: { profile: Profile; only: string[]; skip: string[] }): CheckDef[] {
  const ids = new Set(all.map((c) => c.id));
  for (const id of [...opts.only, ...opts.skip]) {
    if (!ids.has(id) && !all.some((c) => c.area === id || c.requirements.includes(id)))
      throw new HarnessError('UNKNOWN_CHECK', `unknown check "${id}" (see \`gw-conformance list\` for check ids, areas and requirement ids)`);
  }
  const matches = (c: CheckDef, sel: string) => c.id === sel || c.area === sel || c.requirements.includes(sel);
  const inProfile = (c: CheckDef) => (opts.profile === 'service' || opts.profile === 'apps' || opts.profile === 'client' ? c.profile === opts.profile : c.profile === 'default' || (opts.profile === 'slow' && c.profile === 'slow'));
  // A check named by id runs whatever its profile; an area or requirement id keeps to the profile.
  const picked = (c: CheckDef) => opts.only.some((s) => s === c.id || (matches(c, s) && inProfile(c)));
  return all.filter((c) => (opts.only.length ? picked(c) : inProfile(c)) && !opts.skip.some((s) => matches(c, s)));
}
