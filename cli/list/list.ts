// `gw-conformance list`: every check and the coverage of the requirement catalog.
import type { CheckDef } from '../../src/check/check.js';
import { CAPABILITY_AREA } from '../../src/core/capabilities.js';
import { readText } from '../../src/core/paths.js';
import { plural } from '../../src/core/words.js';

export interface CatalogEntry {
  id: string;
  level: string;
  section: string;
}

export function catalog(): CatalogEntry[] {
  return (JSON.parse(readText('catalog', 'requirements.json')) as { requirements: CatalogEntry[] }).requirements;
}

/** Requirements checked outside the suite, e.g. by the rules of `lint-config`. */
export interface OtherCoverage {
  id: string;
  requirements: string[];
}

export function coverage(checks: CheckDef[], other: OtherCoverage[] = []) {
  const entries = catalog();
  const by = [...checks, ...other];
  const covered = entries.map((e) => ({ ...e, checks: by.filter((c) => c.requirements.includes(e.id)).map((c) => c.id) }));
  const n = covered.filter((c) => c.checks.length).length;
  return { covered, total: entries.length, withChecks: n, percent: Math.round((1000 * n) / entries.length) / 10 };
}

/** The option that adds a check to its profile's run, when the profile alone does not pick it (the capability matrix). */
const optInFlag = (c: CheckDef): string | null => (c.area === CAPABILITY_AREA ? '--capabilities' : null);

export function listText(checks: CheckDef[], other: OtherCoverage[] = []): string {
  const lines = [plural(checks.length, 'check'), ''];
  lines.push(`${'id'.padEnd(36)} ${'level'.padEnd(6)} ${'profile'.padEnd(8)} ${'requirements'.padEnd(14)} title`);
  for (const c of checks) lines.push(`${c.id.padEnd(36)} ${c.level.padEnd(6)} ${(optInFlag(c) ? `${c.profile}*` : c.profile).padEnd(8)} ${c.requirements.join(',').padEnd(14)} ${c.title}`);
  if (checks.some(optInFlag)) lines.push('', '* opt-in: runs only with --capabilities or --require-capability (or when --only names it)');
  const cov = coverage(checks, other);
  lines.push('', `Catalog coverage: ${cov.withChecks} of ${cov.total} requirements have checks (${cov.percent}%)`);
  let section = '';
  for (const e of cov.covered) {
    if (e.section !== section) {
      section = e.section;
      lines.push(`  ${section}`);
    }
    lines.push(`    ${e.checks.length ? 'covered ' : 'MISSING '} ${e.id.padEnd(13)} ${e.level.padEnd(6)} ${e.checks.join(', ')}`);
  }
  return lines.join('\n');
}

/**
 * The version of `list --json`'s document (semantic: a new field is a minor, a changed or
 * removed one a major), so a script can tell which shape it reads. Stated in the --json flag's
 * help (src/config/commands.ts, docs/cli.md).
 */
export const LIST_SCHEMA_VERSION = '1.0.0';

export function listJson(checks: CheckDef[], other: OtherCoverage[] = []) {
  return {
    schemaVersion: LIST_SCHEMA_VERSION,
    checks: checks.map((c) => ({ id: c.id, title: c.title, area: c.area, level: c.level, profile: c.profile, optIn: optInFlag(c), protocol: c.protocol ?? null, requirements: c.requirements, requirement: c.requirement })),
    coverage: coverage(checks, other),
  };
}
