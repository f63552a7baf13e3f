// Picks checks by profile, --only and --skip. A selector is a check id, an area, a requirement
// id, a prefix of either (`messages.auth` takes `messages.auth.*`, `MSG-AUTH` takes `MSG-AUTH-*`)
// or a glob over both (`messages.*`, `*.stream.*`; `*` any text, `?` one character). A selector
// that matches no check is a harness error (exit 2) naming the closest ids. The capability matrix's
// checks run only when it is asked for (withCapabilities).
import type { CheckDef } from '../check/check.js';
import { PROFILE_FACTS, type Profile, type Protocol } from '../core/features.js';
import type { Readiness } from '../report/shared/readiness.js';
import { CAPABILITY_AREA } from '../core/capabilities.js';
import { FEATURES_OF } from '../protocols/index.js';
import { HarnessError } from '../core/errors.js';
import { didYouMean } from '../core/suggest.js';

const isGlob = (sel: string) => /[*?]/.test(sel);
const globRe = (sel: string) => new RegExp(`^${sel.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);

/** Whether `sel` (an id, area, requirement, prefix or glob) names check `c`. */
export function matchesSelector(c: CheckDef, sel: string): boolean {
  if (isGlob(sel)) {
    const re = globRe(sel);
    return re.test(c.id) || c.requirements.some((r) => re.test(r));
  }
  return c.id === sel || c.area === sel || c.id.startsWith(`${sel}.`) || c.requirements.some((r) => r === sel || r.startsWith(`${sel}-`));
}

/** What a selector could have meant: every id, its dotted prefixes (areas among them) and every requirement id. */
function selectable(all: readonly CheckDef[]): string[] {
  const names = new Set<string>();
  for (const c of all) {
    const parts = c.id.split('.');
    for (let i = 1; i <= parts.length; i++) names.add(parts.slice(0, i).join('.'));
    names.add(c.area);
    for (const r of c.requirements) names.add(r);
  }
  return [...names];
}

/** Throws one line for the first selector that names no check, with the closest names. */
export function assertSelectors(all: readonly CheckDef[], selectors: readonly string[], flag = '--only/--skip'): void {
  for (const sel of selectors) {
    if (all.some((c) => matchesSelector(c, sel))) continue;
    throw new HarnessError('UNKNOWN_CHECK', `${flag}: unknown check "${sel}"${didYouMean(sel, selectable(all))} (\`gw-conformance list\` shows check ids, areas and requirement ids; a prefix or a glob such as "messages.*" works too)`);
  }
}

export function selectChecks(all: CheckDef[], opts: { profile: Profile; only: string[]; skip: string[]; capabilities?: { run: boolean; required: readonly string[] } }): CheckDef[] {
  assertSelectors(all, opts.only, '--only');
  assertSelectors(all, opts.skip, '--skip');
  const inProfile = (c: CheckDef) => PROFILE_FACTS[opts.profile].picks.includes(c.profile);
  // A check named by id runs whatever its profile; an area, requirement, prefix or glob keeps to the profile.
  const picked = (c: CheckDef) => opts.only.some((s) => s === c.id || (matchesSelector(c, s) && inProfile(c)));
  const selected = all.filter((c) => (opts.only.length ? picked(c) : inProfile(c)) && !opts.skip.some((s) => matchesSelector(c, s)));
  return withCapabilities(selected, opts);
}

/**
 * The capability matrix costs a request per feature, route and mode, so its checks run only
 * with --capabilities or --require-capability (or when --only names one: its id, the area, a glob). A check whose
 * protocol has a required feature is MUST: its required cells then decide the run.
 */
function withCapabilities(checks: CheckDef[], opts: { only: string[]; capabilities?: { run: boolean; required: readonly string[] } }): CheckDef[] {
  const run = opts.capabilities?.run === true;
  const required = new Set(opts.capabilities?.required ?? []);
  return checks
    .filter((c) => c.area !== CAPABILITY_AREA || run || opts.only.some((sel) => matchesSelector(c, sel)))
    .map((c) => (c.area === CAPABILITY_AREA && c.protocol && FEATURES_OF[c.protocol].some((f) => required.has(f)) ? { ...c, level: 'MUST' as const } : c));
}

/** The protocols whose readiness canary reached the upstream in another protocol: the gateway translates them. */
export function translatedProtocols(readiness: Readiness | null): Protocol[] {
  return Object.keys(routesOfCanaries(readiness)) as Protocol[];
}

/**
 * Checks of translated routes (`translatedRoute`) only where the gateway translates their
 * protocol (the readiness canary of it reached the upstream in another), unless named with
 * --only (they then skip by themselves where nothing is translated).
 */
export function onRoutes(checks: CheckDef[], translated: readonly Protocol[], only: readonly string[]): CheckDef[] {
  return checks.filter((c) => !c.translatedRoute || (c.protocol !== undefined && translated.includes(c.protocol)) || only.some((s) => s === c.id));
}

/** Per protocol, the protocol its readiness canary reached the upstream in, where that is another (the gateway translates it). */
export function routesOfCanaries(readiness: Readiness | null): Partial<Record<Protocol, Protocol>> {
  return Object.fromEntries((readiness?.protocols ?? []).filter((p) => p.upstreamProtocol && p.upstreamProtocol !== p.protocol).map((p) => [p.protocol, p.upstreamProtocol]));
}
