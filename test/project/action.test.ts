// The GitHub Action as a workflow gets it: a copy of the repository as a ref holds it (its files
// known to git, or the tree without what .gitignore names: no dist/, no node_modules), action.yml's steps run as GitHub's runner runs them
// (test/helpers/action-runner.ts), in a workspace holding files a glob in an input would match,
// against the reference gateway. The first use builds the harness in the copy for real (its
// node_modules is linked from this checkout instead of `npm ci`, which needs the registry); the
// second reuses that build. The list inputs reach the harness as typed (a shell would have
// expanded `messages.path.*` to the workspace's files), and an empty token means --no-token.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReferenceGateway } from '../../reference/gateway.js';
import { readAction, runAction } from '../helpers/action-runner.js';
import { freePort, ROOT } from '../helpers/cli.js';

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
