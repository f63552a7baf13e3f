// A check is whole in its own file: suites/<area>/<id>.ts states its fix beside the rest of its
// definition, and states neither what follows from where it lives (its area is its folder, the
// id's first segment) nor the default profile, which defineCheck fills in. Fails when a check has
// no fix, lives outside its area's folder, or a file under suites/ restates either literal.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { areaOf, defineCheck, pass } from '../../../src/check/check.js';
import { CHECKS } from '../../../suites/index.js';
import { ROOT } from '../../helpers/cli.js';

const SUITES = join(ROOT, 'suites');

/** Every .ts file under suites/, with the folder it sits in directly under suites/. */
function suiteFiles(dir = SUITES): Array<{ path: string; folder: string }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return suiteFiles(path);
    return e.name.endsWith('.ts') ? [{ path, folder: relative(SUITES, path).split('/')[0] }] : [];
  });
}

/** The literals of a file in suites/<folder>/ that say what defineCheck derives: `area: '<folder>'`, `profile: 'default'`. */
function redundantLiterals(folder: string, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\barea\s*:\s*(['"`])([^'"`]*)\1/g)) if (m[2] === folder) found.push(m[0]);
  for (const m of text.matchAll(/\bprofile\s*:\s*(['"`])default\1/g)) found.push(m[0]);
  return found;
}

describe('a check is whole in its own file', () => {
  it('every check has its fix: one paragraph of advice', () => {
    const bad = CHECKS.filter((c) => typeof c.fix !== 'string' || c.fix.trim().length <= 20 || /\n\s*\n/.test(c.fix)).map((c) => c.id);
    expect(bad, 'checks without a fix of one paragraph').toEqual([]);
  });

  it("every check's area is its folder and its id's first segment: the check is suites/<area>/<id>.ts", () => {
    const away = CHECKS.filter((c) => c.area !== areaOf(c.id) || !existsSync(join(SUITES, c.area, `${c.id}.ts`))).map((c) => `${c.id} (area ${c.area})`);
    expect(away).toEqual([]);
  });

  it("no file under suites/ states an area equal to its folder, or profile 'default'", () => {
    const files = suiteFiles();
    expect(files.length).toBeGreaterThan(CHECKS.length);
    const found = files.flatMap(({ path, folder }) => redundantLiterals(folder, readFileSync(path, 'utf8')).map((l) => `${relative(ROOT, path)}: ${l}`));
    expect(found, 'literals that defineCheck derives').toEqual([]);
  });

  it('the scan finds a planted area of the folder and a default profile, and lets other values be', () => {
    const planted = "  level: 'MUST',\n  area: 'messages',\n  profile: 'default',\n";
    expect(redundantLiterals('messages', planted)).toEqual(["area: 'messages'", "profile: 'default'"]);
    expect(redundantLiterals('translate', "{ level: 'MUST', area: \"translate\", profile: \"default\" }")).toEqual(['area: "translate"', 'profile: "default"']);
    expect(redundantLiterals('messages', "  area: 'capabilities',\n  profile: 'apps',\n")).toEqual([]);
  });
});

describe('defineCheck', () => {
  const spec = { id: 'messages.x', title: 'x', requirements: ['X-1'], level: 'MUST' as const, requirement: 'x', fix: 'Do it.', run: async () => pass('ok') };

  it("fills the area from the id and the profile 'default', in the keys' old order", () => {
    const c = defineCheck({ ...spec, protocol: 'messages' });
    expect([c.area, c.profile]).toEqual(['messages', 'default']);
    expect(Object.keys(c).slice(0, 7)).toEqual(['id', 'title', 'requirements', 'level', 'area', 'profile', 'requirement']);
  });

  it('keeps a profile or an area the spec states', () => {
    const c = defineCheck({ ...spec, profile: 'apps', area: 'other' });
    expect([c.area, c.profile]).toEqual(['other', 'apps']);
  });
});
