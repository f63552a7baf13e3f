// The release command's pieces (scripts/release.mjs: the CHANGELOG section, the pinned
// references, the build it ships) and the facts a release keeps in one place: package.json's
// repository address, with homepage and bugs agreeing; the docs' pinned tag and the CHANGELOG
// following package.json's version. Bad input: one line, exit 2. (test/project/action.test.ts
// cuts a whole release in a copy and runs the Action from its tag.)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changelogWith, pinned, shippedBuild, UNRELEASED } from '../../scripts/release.mjs';
import { REPOSITORY } from '../../src/core/links.js';
import { ROOT } from '../helpers/cli.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; files: string[]; repository: { url: string }; homepage: string; bugs: { url: string }; engines: { node: string } };
const read = (f: string) => readFileSync(join(ROOT, f), 'utf8');

describe('release', () => {
  it('package.json names one repository address; homepage and bugs agree with it', () => {
    expect(pkg.repository.url).toBe(`git+${REPOSITORY}.git`);
    expect(pkg.homepage).toBe(`${REPOSITORY}#readme`);
    expect(pkg.bugs.url).toBe(`${REPOSITORY}/issues`);
  });

  it("the docs pin the Action and the links to package.json's version, and the CHANGELOG has its section", () => {
    const pins = ['docs/ci.md', 'examples/github/workflow.yml', 'README.md'].flatMap((f) => [...read(f).matchAll(/gw-conformance@v([\d.]+[\w.-]*)|\/blob\/v([\d.]+[\w.-]*)\//g)].map((m) => m[1] ?? m[2]));
    expect(pins.length).toBeGreaterThan(3);
    expect(new Set(pins)).toEqual(new Set([pkg.version]));
    expect(read('CHANGELOG.md')).toContain(`\n## ${pkg.version} (`);
    expect(read('CHANGELOG.md')).toContain(`\n${UNRELEASED}\n`);
  });

  it('moves the Unreleased section under the version, or lists the commits when it is empty', () => {
    const text = `# Changelog\n\nintro\n\n${UNRELEASED}\n\n- a change\n\n## 0.1.0 (2026-01-01)\n\n- old\n`;
    expect(changelogWith(text, '0.2.0', '2026-02-02', () => ['never'])).toBe(`# Changelog\n\nintro\n\n${UNRELEASED}\n\n## 0.2.0 (2026-02-02)\n\n- a change\n\n## 0.1.0 (2026-01-01)\n\n- old\n`);
    const empty = changelogWith(`# Changelog\n\n${UNRELEASED}\n`, '0.2.0', '2026-02-02', () => ['one', 'two']);
    expect(empty).toBe(`# Changelog\n\n${UNRELEASED}\n\n## 0.2.0 (2026-02-02)\n\n- one\n- two\n`);
    expect(() => changelogWith('# Changelog\n', '0.2.0', 'd', () => [])).toThrow(/no "## Unreleased" section/);
    // Cut again (the tag moved to a later commit): the version's section stays as it is.
    expect(changelogWith(text, '0.1.0', '2026-03-03', () => ['never'])).toBe(text);
  });

  it('moves pinned references and ships the build the package ships', () => {
    expect(pinned('uses: OWNER/gw-conformance@v0.1.0 # x\nhttps://h/o/n/blob/v0.1.0/docs/checks.md#a\nnpx gw-conformance@0.1.0', '1.2.3')).toBe('uses: OWNER/gw-conformance@v1.2.3 # x\nhttps://h/o/n/blob/v1.2.3/docs/checks.md#a\nnpx gw-conformance@0.1.0');
    expect(shippedBuild(pkg)).toEqual(pkg.files.filter((f) => f.startsWith('dist/')).map((f) => f.replace(/\/$/, '')));
    expect(shippedBuild(pkg)).toContain('dist/src');
  });

  it.each([[[]], [['1.2']], [['v1.2.3']], [['1.2.3; rm -rf /']]])('refuses a version that is not X.Y.Z (%j) in one line, exit 2', (args) => {
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'release.mjs'), ...args], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^release: give the version as X\.Y\.Z \(got .*\): npm run release -- 0\.2\.0\n$/);
    expect(r.stdout).toBe('');
  });
});
