// The GitHub Action as a workflow gets it: a copy of the repository as a ref holds it (its files
// known to git, or the tree without what .gitignore names: no dist/, no node_modules), action.yml's steps run as GitHub's runner runs them
// (test/helpers/action-runner.ts), in a workspace holding files a glob in an input would match,
// against the reference gateway. The first use builds the harness in the copy for real (its
// node_modules is linked from this checkout instead of `npm ci`, which needs the registry); the
// second reuses that build. The list inputs reach the harness as typed (a shell would have
// expanded `messages.path.*` to the workspace's files), and an empty token means --no-token.
// Then a release: scripts/release.mjs cuts one in a git copy of the repository, the tag is taken
// as GitHub takes an action's ref (its files only: `git archive`, no .git, no node_modules), and
// the Action runs from it: it installs the runtime dependencies only (npm ci --omit=dev, from
// npm's cache: no network) and compiles nothing. The test needs no tag in this repository.
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReferenceGateway } from '../../reference/gateway.js';
import { readAction, runAction } from '../helpers/action-runner.js';
import { freePort, ROOT } from '../helpers/cli.js';
import { VERSION } from '../../src/core/paths.js';

/** Names a fresh clone never holds (.gitignore), left out when there is no git to ask. */
const IGNORED = new Set(['.git', 'node_modules', 'dist', 'reports', '.cache']);

/** The files of this checkout a commit of it holds: those git knows (tracked, and new ones not ignored), or the tree without IGNORED. */
function repositoryFiles(): string[] {
  try {
    return execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\0').filter(Boolean);
  } catch {
    const walk = (dir: string): string[] => readdirSync(join(ROOT, dir), { withFileTypes: true }).filter((e) => !IGNORED.has(e.name) && !e.name.endsWith('.log')).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : []));
    return walk('.');
  }
}

/** A copy of the repository as a ref holds it (no dist/), with this checkout's node_modules linked in. */
function checkoutCopy(): string {
  const dest = join(mkdtempSync(join(tmpdir(), 'gwc-action-ref-')), 'gw-conformance');
  for (const f of repositoryFiles()) {
    if (!existsSync(join(ROOT, f))) continue; // deleted in the work tree
    mkdirSync(dirname(join(dest, f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(dest, f));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dest, 'node_modules'));
  return dest;
}

const action = readAction(join(ROOT, 'action.yml'));
const jobEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), LANG: 'C.UTF-8' };

describe('the GitHub Action from a checkout of its repository, steps run as the runner runs them', () => {
  let actionPath: string;
  let workspace: string;
  let gw: ReferenceGateway;
  let target: string;
  let upstreamPort: number;

  beforeAll(async () => {
    actionPath = checkoutCopy();
    workspace = mkdtempSync(join(tmpdir(), 'gwc-action-ws-'));
    // Glob traps: an unquoted messages.path.* in the step's shell would become these two names.
    writeFileSync(join(workspace, 'messages.path.preserved'), '');
    writeFileSync(join(workspace, 'messages.path.zz-not-a-check'), '');
    upstreamPort = await freePort();
    gw = new ReferenceGateway({ upstream: `http://127.0.0.1:${upstreamPort}` });
    target = await gw.start('127.0.0.1', 0);
  });
  afterAll(async () => {
    await gw?.stop();
  });

  it('builds on first use, runs the glob as typed, reports, and the token stays out of every output', { timeout: 300_000 }, async () => {
    expect(existsSync(join(actionPath, 'dist'))).toBe(false);
    const inputs = { target, 'upstream-listen': `127.0.0.1:${upstreamPort}`, only: 'messages.path.*', reporter: 'console, junit,json', token: 'sk-ACTION-SECRET-3' };
    const r = await runAction(action, { actionPath, workspace, inputs, env: jobEnv });
    expect(r.code, r.log).toBe(0);
    // setup-node is skipped (no node-version); every run: step ran.
    expect(r.ran).toEqual(['paths', 'build', 'run']);
    expect(r.log).toContain(`gw-conformance: building ${actionPath}`);
    expect(existsSync(join(actionPath, 'dist', 'cli', 'program.js'))).toBe(true);
    // The harness got the glob as typed, one argument; the files it would have matched were not passed.
    expect(r.log).toContain("--only 'messages.path.*'");
    expect(r.log).not.toContain('messages.path.zz-not-a-check');
    const report = join(workspace, 'gw-conformance-report');
    expect(r.outputs).toEqual({ result: 'pass', passed: '1', failed: '0', junit: join(report, 'junit.xml'), html: join(report, 'report.html'), 'report-dir': report });
    const xml = readFileSync(r.outputs.junit, 'utf8');
    expect(xml).toMatch(/<testsuites [^>]*tests="1" failures="0" errors="0"/);
    expect(xml).toContain('messages.path.preserved');
    // GITHUB_ACTIONS=true adds the github reporter: the job summary is written.
    expect(r.summary).toContain('gw-conformance');
    expect(r.log + xml + r.summary + readFileSync(join(report, 'report.json'), 'utf8')).not.toContain('sk-ACTION-SECRET-3');
  });

  it('reuses the build on a second use; an empty token runs with --no-token and says so', { timeout: 120_000 }, async () => {
    const inputs = { target, 'upstream-listen': `127.0.0.1:${upstreamPort}`, only: 'messages.path.preserved', reporter: 'json', out: 'second run', token: '' };
    const r = await runAction(action, { actionPath, workspace, inputs, env: jobEnv });
    expect(r.log).toContain(`gw-conformance: using the build in ${actionPath}`);
    expect(r.log).not.toContain('building');
    expect(r.log).toMatch(/::notice title=gw-conformance::The token input is empty, so the gateway gets no credential \(--no-token/);
    expect(r.log).toMatch(/^gw-conformance run .* --no-token$/m);
    expect(r.outputs['report-dir']).toBe(join(workspace, 'second run'));
    const report = JSON.parse(readFileSync(join(workspace, 'second run', 'report.json'), 'utf8')) as { summary: { total: number } };
    expect(report.summary.total).toBe(1);
    // The reference gateway takes any credential or none: the check passes without one.
    expect(r.code, r.log).toBe(0);
    expect([r.outputs.result, r.outputs.passed, r.outputs.failed]).toEqual(['pass', '1', '0']);
  });
});

/** Packages npm installed in a folder (its node_modules/.package-lock.json, written last by a finished install). */
const installedPackages = (dir: string) => Object.keys((JSON.parse(readFileSync(join(dir, 'node_modules', '.package-lock.json'), 'utf8')) as { packages: object }).packages);
/** The packages the harness needs at run time: those of the lock file not marked dev. */
const runtimePackages = () => Object.entries((JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> }).packages).filter(([k, v]) => k && !v.dev).map(([k]) => k);
const du = (dir: string) => Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split('\t')[0]) / 1024;

describe('the GitHub Action from a release tag, as GitHub checks the tag out', () => {
  const identity = { GIT_AUTHOR_NAME: 'release test', GIT_AUTHOR_EMAIL: 'release@example.invalid', GIT_COMMITTER_NAME: 'release test', GIT_COMMITTER_EMAIL: 'release@example.invalid' };
  let gw: ReferenceGateway;
  let target: string;
  let upstreamPort: number;
  beforeAll(async () => {
    upstreamPort = await freePort();
    gw = new ReferenceGateway({ upstream: `http://127.0.0.1:${upstreamPort}` });
    target = await gw.start('127.0.0.1', 0);
  });
  afterAll(async () => {
    await gw?.stop();
  });

  it('the tag carries the build; the Action installs only the runtime dependencies and compiles nothing', { timeout: 600_000 }, async () => {
    const repo = checkoutCopy();
    const git = (...args: string[]) => execFileSync('git', ['-c', 'commit.gpgsign=false', '-c', 'tag.gpgsign=false', ...args], { cwd: repo, encoding: 'utf8', env: { ...process.env, ...identity } }).trim();
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'the checkout');
    const [major, minor, patch] = VERSION.split(/[.-]/).map(Number);
    const next = `${major}.${minor}.${patch + 1}`;
    const released = execFileSync(process.execPath, ['scripts/release.mjs', next], { cwd: repo, encoding: 'utf8', env: { ...process.env, ...identity, GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'tag.gpgsign', GIT_CONFIG_VALUE_0: 'false' } });
    expect(released).toMatch(new RegExp(`^release: v${next} tags [0-9a-f]{12} \\(main plus the Action's build\\)`, 'm'));
    // The branch has the version and no build; the tag's commit is its child with the build.
    expect(JSON.parse(git('show', 'HEAD:package.json')).version).toBe(next);
    expect(git('ls-tree', '-r', '--name-only', 'HEAD').split('\n').filter((f) => f.startsWith('dist/'))).toEqual([]);
    expect(git('rev-parse', `v${next}^{commit}^`)).toBe(git('rev-parse', 'HEAD'));
    const tagged = git('ls-tree', '-r', '--name-only', `v${next}`).split('\n');
    expect(tagged).toEqual(expect.arrayContaining(['dist/RELEASE', 'dist/cli/main.js', 'action.yml', 'scripts/action-run.mjs', 'package-lock.json']));
    expect(tagged.filter((f) => f.endsWith('.map') || f.startsWith('dist/bench/'))).toEqual([]);
    expect(git('show', 'HEAD:CHANGELOG.md')).toContain(`\n## ${next} (`);

    // GitHub's runner takes the files of the ref: no .git, no node_modules.
    const actionPath = join(mkdtempSync(join(tmpdir(), 'gwc-action-tag-')), 'gw-conformance');
    mkdirSync(actionPath);
    execFileSync('sh', ['-c', `git archive v${next} | tar -x -C "$0"`, actionPath], { cwd: repo });
    expect(existsSync(join(actionPath, 'node_modules'))).toBe(false);
    const workspace = mkdtempSync(join(tmpdir(), 'gwc-action-ws-'));
    const inputs = { target, 'upstream-listen': `127.0.0.1:${upstreamPort}`, only: 'messages.path.preserved', reporter: 'junit,json', token: '' };
    const started = performance.now();
    // npm's cache holds the packages (npm ci of this checkout put them there): no registry.
    const r = await runAction(readAction(join(actionPath, 'action.yml')), { actionPath, workspace, inputs, env: { ...jobEnv, npm_config_offline: 'true' } });
    const seconds = (performance.now() - started) / 1000;
    expect(r.code, r.log).toBe(0);
    expect(r.ran).toEqual(['paths', 'build', 'run']);
    expect(r.log).toContain(`gw-conformance: installing the runtime dependencies of release ${next}`);
    expect(r.log).not.toContain('building');
    expect(existsSync(join(actionPath, 'dist', '.action-built'))).toBe(false);
    // Exactly the runtime dependencies: no compiler, no test runner.
    const installed = installedPackages(actionPath);
    expect(installed.sort()).toEqual(runtimePackages().sort());
    expect(installed.filter((p) => /typescript|vitest|dependency-cruiser/.test(p))).toEqual([]);
    expect(r.outputs).toMatchObject({ result: 'pass', passed: '1', failed: '0' });
    console.log(`the Action from release v${next}: ${installed.length} packages installed (${du(join(actionPath, 'node_modules')).toFixed(1)} MB), paths + install + one check in ${seconds.toFixed(1)} s; outputs ${JSON.stringify(r.outputs)}`);

    // A second use in the job installs nothing.
    const again = await runAction(readAction(join(actionPath, 'action.yml')), { actionPath, workspace, inputs: { ...inputs, out: 'second' }, env: { ...jobEnv, npm_config_offline: 'true' } });
    expect(again.code, again.log).toBe(0);
    expect(again.log).not.toContain('installing');
    expect(again.log).toContain(`gw-conformance: using the release build in ${actionPath}`);
  });
});
