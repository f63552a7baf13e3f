// The CI integrations: action.yml (GitHub composite action) and the workflow examples.
// The action's shell steps are run here with bash -e, as the runner would, with `npx` replaced by
// a stand-in on PATH: one records the command line, the other runs this checkout's CLI.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ReferenceGateway } from '../reference/gateway.js';
import { cli, freePort, ROOT } from './helpers/cli.js';

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  if?: string;
}
const action = YAML.parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
};
const step = (id: string) => action.runs.steps.find((s) => s.id === id)!;
/** Inputs that are not flags of `gw-conformance run`. */
const NOT_FLAGS = ['args', 'version', 'node-version'];
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;

/** Runs one `run:` step of the action with bash; `npx` is the given script. */
async function runStep(s: Step, env: Record<string, string>, npx: string) {
  const dir = mkdtempSync(join(tmpdir(), 'gwc-action-'));
  writeFileSync(join(dir, 'npx'), `#!/usr/bin/env bash\n${npx}\n`);
  chmodSync(join(dir, 'npx'), 0o755);
  const output = join(dir, 'github-output');
  writeFileSync(output, '');
  const p = spawn('bash', ['-e', '-c', s.run!], {
    cwd: dir,
    env: { PATH: `${dir}:${process.env.PATH}`, HOME: process.env.HOME ?? dir, GITHUB_OUTPUT: output, GITHUB_WORKSPACE: dir, GWC_ACTION_PATH: ROOT, ...env },
  });
  let stdout = '';
  let stderr = '';
  p.stdout.on('data', (d) => (stdout += d));
  p.stderr.on('data', (d) => (stderr += d));
  const [code] = (await once(p, 'close')) as [number];
  const outputs = Object.fromEntries(
    readFileSync(output, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  return { code, stdout, stderr, dir, outputs };
}

/** The env: block of a step with each `${{ inputs.NAME }}` replaced by `values[NAME]` ('' when absent). */
function stepEnv(s: Step, values: Record<string, string>, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(s.env ?? {})) {
    const m = /^\$\{\{ inputs\.([a-z-]+) \}\}$/.exec(v);
    if (m) env[k] = values[m[1]] ?? action.inputs[m[1]]?.default ?? '';
  }
  return { ...env, ...extra };
}

describe('action.yml', () => {
  it("is a composite action that runs npx gw-conformance on the job's Node, setting up Node only when asked", () => {
    expect(action.runs.using).toBe('composite');
    // setup-node changes Node for every later step of the job: only with a node-version input.
    expect(action.runs.steps[0].uses).toMatch(/^actions\/setup-node@v\d+$/);
    expect(action.runs.steps[0].if).toBe("${{ inputs.node-version != '' }}");
    expect(action.inputs['node-version'].default).toBe('');
    expect(step('run').run).toMatch(/npx --yes -- "gw-conformance@\$version"/);
    expect(Object.keys(action.outputs).sort()).toEqual(['failed', 'html', 'junit', 'passed', 'report-dir', 'result']);
    expect(action.outputs.junit.value).toBe('${{ steps.paths.outputs.junit }}');
    expect(action.outputs.result.value).toBe('${{ steps.run.outputs.result }}');
    expect(action.inputs.reporter.default).toBe('console,junit,json,html');
  });

  it("its inputs are the CLI's flags (checked against `gw-conformance run --help-all`), plus args, version, node-version", async () => {
    const help = await cli(['run', '--help-all']);
    expect(help.code).toBe(0);
    const flags = new Set([...help.stdout.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]));
    const inputs = Object.keys(action.inputs);
    expect(inputs.filter((i) => !NOT_FLAGS.includes(i) && !flags.has(i))).toEqual([]);
    expect(NOT_FLAGS.every((i) => inputs.includes(i))).toBe(true);
    for (const f of ['target', 'config', 'profile', 'reporter', 'out']) expect(inputs).toContain(f);
    // Every input reaches the run step (except node-version, which setup-node takes).
    const used = JSON.stringify(step('run').env) + JSON.stringify(step('paths').env);
    expect(inputs.filter((i) => i !== 'node-version' && !used.includes(`inputs.${i} }}`))).toEqual([]);
  });

  it('turns the inputs into flags; the token goes through the environment, not the command line', async () => {
    const paths = await runStep(step('paths'), stepEnv(step('paths'), { out: 'rep' }), 'exit 9');
    expect(paths.code, paths.stderr).toBe(0);
    expect(paths.outputs).toEqual({ 'report-dir': join(paths.dir, 'rep'), junit: join(paths.dir, 'rep', 'junit.xml'), html: join(paths.dir, 'rep', 'report.html') });

    // args: one argument per line, kept whole (spaces and quotes included); blank lines and surrounding blanks dropped.
    const args5 = '--runs\n5\n\n  --timeout-ms  \n100\n--header\nmessages:x-note=two words, \'quoted\' $HOME\n';
    const values = { target: 'http://127.0.0.1:9', 'gateway-cmd': 'my-gateway --port {listen_port} --name "a b"', config: 'my gwc.yaml', profile: 'slow', reporter: 'junit, json', only: 'messages,MSG-PATH-1', skip: 'streaming', 'upstream-listen': '127.0.0.1:1', seed: '7', strict: 'true', args: args5, token: 'sk-ACTION-SECRET' };
    const r = await runStep(step('run'), stepEnv(step('run'), values, { GWC_IN_OUT: '/reports/x' }), 'printf "%s\\n" "$@" > args.txt; echo "$GWC_TOKEN" > token.txt');
    expect(r.code, r.stderr).toBe(0);
    const args = readFileSync(join(r.dir, 'args.txt'), 'utf8').trimEnd().split('\n');
    expect(args).toEqual([
      '--yes', '--', `gw-conformance@${VERSION}`, 'run',
      '--target', 'http://127.0.0.1:9', '--gateway-cmd', 'my-gateway --port {listen_port} --name "a b"', '--config', 'my gwc.yaml', '--profile', 'slow', '--upstream-listen', '127.0.0.1:1', '--seed', '7', '--strict',
      '--reporter', 'junit', '--reporter', 'json', '--only', 'messages', '--only', 'MSG-PATH-1', '--skip', 'streaming',
      '--out', '/reports/x', '--runs', '5', '--timeout-ms', '100', '--header', "messages:x-note=two words, 'quoted' $HOME",
    ]);
    // No report.json: the run's exit code alone gives the result, the counts are empty.
    expect(r.outputs).toEqual({ result: 'pass', passed: '', failed: '' });
    expect(readFileSync(join(r.dir, 'token.txt'), 'utf8').trim()).toBe('sk-ACTION-SECRET');
    expect(r.stdout + r.stderr).not.toContain('sk-ACTION-SECRET');

    // Nothing set: only the defaults (all four reporters), the version given is used.
    const d = await runStep(step('run'), stepEnv(step('run'), { version: '9.9.9' }, { GWC_IN_OUT: '/r' }), 'printf "%s\\n" "$@" > args.txt; echo "${GWC_TOKEN-unset}" > token.txt');
    expect(d.code, d.stderr).toBe(0);
    expect(readFileSync(join(d.dir, 'args.txt'), 'utf8').trimEnd().split('\n')).toEqual(['--yes', '--', 'gw-conformance@9.9.9', 'run', '--reporter', 'console', '--reporter', 'junit', '--reporter', 'json', '--reporter', 'html', '--out', '/r']);
    expect(readFileSync(join(d.dir, 'token.txt'), 'utf8').trim()).toBe('unset');
  });

  it('sets result, passed and failed from the exit code and report.json, and fails the step with the exit code', async () => {
    const out = mkdtempSync(join(tmpdir(), 'gwc-action-out-'));
    const summary = { total: 6, pass: 3, fail: 1, warn: 0, info: 0, skip: 0, error: 0, timeout: 1, waived: 0, flaky: 1 };
    writeFileSync(join(out, 'report.json'), JSON.stringify({ summary, exitCode: 1 }));
    const failing = await runStep(step('run'), stepEnv(step('run'), {}, { GWC_IN_OUT: out }), 'exit 1');
    expect(failing.code).toBe(1);
    expect(failing.outputs).toEqual({ result: 'fail', passed: '3', failed: '3' });
    const broken = await runStep(step('run'), stepEnv(step('run'), {}, { GWC_IN_OUT: join(out, 'none') }), 'exit 2');
    expect(broken.code).toBe(2);
    expect(broken.outputs).toEqual({ result: 'error', passed: '', failed: '' });
  });

  it("run with this checkout's CLI against the reference gateway: the junit output names a file that exists", async () => {
    const upstreamPort = await freePort();
    const gw = new ReferenceGateway({ upstream: `http://127.0.0.1:${upstreamPort}` });
    const target = await gw.start('127.0.0.1', 0);
    try {
      const paths = await runStep(step('paths'), stepEnv(step('paths'), {}), 'exit 9');
      const values = { target, 'upstream-listen': `127.0.0.1:${upstreamPort}`, only: 'messages.path.preserved', reporter: 'junit,json', token: 'sk-ACTION-SECRET-2' };
      const npx = `shift 3; exec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'bin', 'gw-conformance.js'))} "$@"`;
      const r = await runStep(step('run'), stepEnv(step('run'), values, { GWC_IN_OUT: paths.outputs['report-dir'] }), npx);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.outputs).toEqual({ result: 'pass', passed: '1', failed: '0' });
      expect(existsSync(paths.outputs.junit)).toBe(true);
      const xml = readFileSync(paths.outputs.junit, 'utf8');
      expect(xml).toMatch(/<testsuites [^>]*tests="1" failures="0" errors="0"/);
      expect(xml + readFileSync(join(paths.outputs['report-dir'], 'report.json'), 'utf8')).not.toContain('sk-ACTION-SECRET-2');
    } finally {
      await gw.stop();
    }
  });
});

describe('workflow examples', () => {
  it('GitHub: uses the action with its own inputs and publishes its junit output even when checks fail', () => {
    const wf = YAML.parse(readFileSync(join(ROOT, 'examples', 'github', 'workflow.yml'), 'utf8')) as { jobs: Record<string, { steps: Step[] }> };
    const steps = Object.values(wf.jobs)[0].steps;
    const gwc = steps.find((s) => s.uses?.includes('/gw-conformance@'))!;
    expect(Object.keys(gwc.with ?? {}).filter((k) => !(k in action.inputs))).toEqual([]);
    const publish = steps.find((s) => JSON.stringify(s.with ?? {}).includes(`steps.${gwc.id}.outputs.junit`))!;
    expect(publish.uses).toMatch(/junit-report@v\d+$/);
    expect(publish.if).toBe('${{ !cancelled() }}');
  });

  it('GitLab: artifacts:reports:junit names the junit.xml of the run, kept when the job fails', () => {
    const ci = YAML.parse(readFileSync(join(ROOT, 'examples', 'gitlab', '.gitlab-ci.yml'), 'utf8')) as Record<string, { script: string[]; artifacts: { when: string; paths: string[]; reports: { junit: string } } }>;
    const job = Object.values(ci)[0];
    const run = job.script.find((l) => l.includes('gw-conformance@'))!;
    const out = /--out (\S+)/.exec(run)![1];
    expect(run).toMatch(/--reporter junit/);
    expect(run).toMatch(/--reporter html/);
    expect(job.artifacts.reports.junit).toBe(`${out}/junit.xml`);
    // The report folder (report.html) is kept as an artifact too.
    expect(job.artifacts.paths).toContain(`${out}/`);
    expect(job.artifacts.when).toBe('always');
  });
});
