// The CI integrations: action.yml (GitHub composite action) and the workflow examples.
// The action's shell steps are run here with bash -e, as the runner would, with the action's path
// a folder holding scripts/action-run.mjs and a stand-in bin/gw-conformance.js that records its
// arguments and credential. test/project/action.test.ts runs the whole action from a checkout, for real.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { parseOutputFile, readAction, type ActionStep as Step } from '../helpers/action-runner.js';
import { UPDATE_COMMAND, UPDATE_ENV } from '../helpers/baselines.js';
import { updating } from '../../scripts/baselines.mjs';
import { ROOT } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/in-process.js';
import { OPTIONS, PROTOCOLS, REPORTER_NAMES } from '../../src/config/options.js';

const action = readAction(join(ROOT, 'action.yml'));
const step = (id: string) => action.runs.steps.find((s) => s.id === id)!;
/** Inputs that are not flags of `gw-conformance run`. */
const NOT_FLAGS = ['args', 'node-version'];

/** An action path whose CLI is a stand-in: it writes its arguments and GWC_TOKEN to calls.json and exits with FAKE_EXIT. */
function fakeActionPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gwc-action-path-'));
  mkdirSync(join(dir, 'scripts'));
  mkdirSync(join(dir, 'bin'));
  symlinkSync(join(ROOT, 'scripts', 'action-run.mjs'), join(dir, 'scripts', 'action-run.mjs'));
  const record = 'require("node:fs").writeFileSync("calls.json", JSON.stringify({ args: process.argv.slice(2), token: process.env.GWC_TOKEN ?? "unset" })); process.exit(Number(process.env.FAKE_EXIT ?? 0));';
  writeFileSync(join(dir, 'bin', 'gw-conformance.js'), record);
  writeFileSync(join(dir, 'bin', 'package.json'), '{"type":"commonjs"}');
  return dir;
}

/** Runs one `run:` step of the action with bash in a fresh workspace (holding `files`). */
async function runStep(s: Step, env: Record<string, string>, files: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'gwc-action-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const output = join(dir, 'github-output');
  writeFileSync(output, '');
  const p = spawn('bash', ['-e', '-c', s.run!], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME ?? dir, GITHUB_OUTPUT: output, GITHUB_WORKSPACE: dir, ...env },
  });
  let stdout = '';
  let stderr = '';
  p.stdout.on('data', (d) => (stdout += d));
  p.stderr.on('data', (d) => (stderr += d));
  const [code] = (await once(p, 'close')) as [number];
  const calls = (() => {
    try {
      return JSON.parse(readFileSync(join(dir, 'calls.json'), 'utf8')) as { args: string[]; token: string };
    } catch {
      return null;
    }
  })();
  return { code, stdout, stderr, dir, outputs: parseOutputFile(readFileSync(output, 'utf8')), calls };
}

/** The env: block of a step with each `${{ inputs.NAME }}` replaced by `values[NAME]` (its default when absent). */
function stepEnv(s: Step, values: Record<string, string>, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(s.env ?? {})) {
    const m = /^\$\{\{ inputs\.([a-z-]+) \}\}$/.exec(v);
    if (m) env[k] = values[m[1]] ?? action.inputs[m[1]]?.default ?? '';
  }
  return { GWC_ACTION_PATH: fakeActionPath(), ...env, ...extra };
}

describe('action.yml', () => {
  it("is a composite action that builds the harness from its own checkout, on the job's Node, setting up Node only when asked", () => {
    expect(action.runs.using).toBe('composite');
    // setup-node changes Node for every later step of the job: only with a node-version input.
    expect(action.runs.steps[0].uses).toMatch(/^actions\/setup-node@v\d+$/);
    expect(action.runs.steps[0].if).toBe("${{ inputs.node-version != '' }}");
    expect(action.inputs['node-version'].default).toBe('');
    expect(action.runs.steps.map((s) => s.id ?? s.uses)).toEqual(['actions/setup-node@v4', 'paths', 'build', 'run']);
    expect(step('build').run).toMatch(/npm ci /);
    expect(step('run').run?.trim()).toBe('node "$GWC_ACTION_PATH/scripts/action-run.mjs"');
    // Nothing comes from the registry under the harness's name; no input is expanded by a shell.
    for (const s of action.runs.steps.filter((x) => x.run)) {
      expect(s.run).not.toMatch(/npx|gw-conformance@|npm install/);
      expect(s.run, `step ${s.id}: an expression in run: is pasted into the script`).not.toContain('${{');
    }
    expect(Object.keys(action.outputs).sort()).toEqual(['failed', 'html', 'junit', 'passed', 'report-dir', 'result']);
    expect(action.outputs.junit.value).toBe('${{ steps.paths.outputs.junit }}');
    expect(action.outputs.result.value).toBe('${{ steps.run.outputs.result }}');
    expect(action.inputs.reporter.default).toBe('console,junit,json,html');
  });

  it("its descriptions name what the option table allows (src/config/options.ts), no more and no less", () => {
    const list = (text: string, re: RegExp) => re.exec(text)?.[1].split(/, | \| /) ?? [];
    // The protocols are listed in one place (docs/checks.md, from their records): the description names none.
    for (const p of PROTOCOLS) expect(action.description, p).not.toMatch(new RegExp(`\\b${p}\\b`));
    // Every input named like an option with fixed values lists those values.
    const fixed = OPTIONS.filter((o) => 'values' in o && o.values && action.inputs[o.name]);
    expect(fixed.map((o) => o.name)).toEqual(expect.arrayContaining(['profile', 'reporter']));
    expect(action.inputs.reporter.description).toContain(REPORTER_NAMES.join(' | '));
    for (const o of fixed) expect(list(action.inputs[o.name].description, /^[^:]*: ([a-z-]+(?: \| [a-z-]+)*)/), o.name).toEqual([...(o as { values: readonly string[] }).values]);
  });

  it("its inputs are the CLI's flags (checked against `gw-conformance run --help-all`), plus args and node-version", async () => {
    const help = await cliInProcess(['run', '--help-all']);
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

  it('turns the inputs into arguments without a shell (no splitting, no glob); the token goes through the environment', async () => {
    const paths = await runStep(step('paths'), stepEnv(step('paths'), { out: 'rep' }));
    expect(paths.code, paths.stderr).toBe(0);
    expect(paths.outputs).toEqual({ 'report-dir': join(paths.dir, 'rep'), junit: join(paths.dir, 'rep', 'junit.xml'), html: join(paths.dir, 'rep', 'report.html') });

    // args: one argument per line, kept whole (spaces and quotes included); blank lines and surrounding blanks dropped.
    const args5 = '--runs\n5\n\n  --timeout-ms  \n100\n--header\nmessages:x-note=two words, \'quoted\' $HOME *\n';
    const values = { target: 'http://127.0.0.1:9', 'gateway-cmd': 'my-gateway --port {listen_port} --name "a b" *', config: 'my gwc.yaml', profile: 'slow', reporter: 'junit, json', only: 'messages.*,MSG-PATH-1\n  streaming.?ouble', skip: 'streaming [a]*', 'upstream-listen': '127.0.0.1:1', seed: '7', strict: 'true', args: args5, token: 'sk-ACTION-SECRET' };
    // Files a shell glob would match: messages.* and [a]* and streaming.?ouble.
    const traps = { 'messages.x': '', a: '', 'streaming.double': '' };
    const r = await runStep(step('run'), stepEnv(step('run'), values, { GWC_IN_OUT: '/reports/x' }), traps);
    expect(r.code, r.stderr).toBe(0);
    expect(r.calls!.args).toEqual([
      'run', '--target', 'http://127.0.0.1:9', '--gateway-cmd', 'my-gateway --port {listen_port} --name "a b" *', '--config', 'my gwc.yaml', '--profile', 'slow', '--upstream-listen', '127.0.0.1:1', '--seed', '7', '--strict',
      '--reporter', 'junit', '--reporter', 'json', '--only', 'messages.*', '--only', 'MSG-PATH-1', '--only', 'streaming.?ouble', '--skip', 'streaming', '--skip', '[a]*',
      '--out', '/reports/x', '--runs', '5', '--timeout-ms', '100', '--header', "messages:x-note=two words, 'quoted' $HOME *",
    ]);
    // No report.json: the run's exit code alone gives the result, the counts are empty.
    expect(r.outputs).toEqual({ result: 'pass', passed: '', failed: '' });
    expect(r.calls!.token).toBe('sk-ACTION-SECRET');
    expect(r.stdout + r.stderr).not.toContain('sk-ACTION-SECRET');
    expect(r.stdout).not.toContain('::notice');

    // Nothing set: the defaults (all four reporters), and no credential: --no-token, with a notice.
    const d = await runStep(step('run'), stepEnv(step('run'), {}, { GWC_IN_OUT: '/r' }));
    expect(d.code, d.stderr).toBe(0);
    expect(d.calls).toEqual({ args: ['run', '--reporter', 'console', '--reporter', 'junit', '--reporter', 'json', '--reporter', 'html', '--out', '/r', '--no-token'], token: 'unset' });
    expect(d.stdout).toMatch(/^::notice title=gw-conformance::The token input is empty, so the gateway gets no credential \(--no-token/m);
  });

  it('an empty token leaves the credential to args, GWC_TOKEN or the gwc.yaml when one of them names it', async () => {
    const viaArgs = await runStep(step('run'), stepEnv(step('run'), { args: '--token\nsk-FROM-ARGS' }, { GWC_IN_OUT: '/r' }));
    expect(viaArgs.calls!.args.slice(-2)).toEqual(['--token', 'sk-FROM-ARGS']);
    expect(viaArgs.stdout).toMatch(/^gw-conformance run .* --token \*\*\*$/m);
    expect(viaArgs.stdout).not.toContain('sk-FROM-ARGS');
    const viaEnv = await runStep(step('run'), stepEnv(step('run'), {}, { GWC_IN_OUT: '/r', GWC_TOKEN: 'sk-FROM-JOB-ENV' }));
    expect(viaEnv.calls).toMatchObject({ token: 'sk-FROM-JOB-ENV' });
    expect(viaEnv.calls!.args).not.toContain('--no-token');
    const viaConfig = await runStep(step('run'), stepEnv(step('run'), {}, { GWC_IN_OUT: '/r' }), { 'gwc.yaml': 'token-env: MY_KEY\n' });
    expect(viaConfig.calls!.args).not.toContain('--no-token');
    for (const r of [viaArgs, viaEnv, viaConfig]) expect(r.stdout).not.toContain('::notice');
  });

  it('sets result, passed and failed from the exit code and report.json, and fails the step with the exit code', async () => {
    const out = mkdtempSync(join(tmpdir(), 'gwc-action-out-'));
    const summary = { total: 6, pass: 3, fail: 1, warn: 0, info: 0, skip: 0, error: 0, timeout: 1, waived: 0, flaky: 1 };
    writeFileSync(join(out, 'report.json'), JSON.stringify({ summary, exitCode: 1 }));
    const failing = await runStep(step('run'), stepEnv(step('run'), {}, { GWC_IN_OUT: out, FAKE_EXIT: '1' }));
    expect(failing.code).toBe(1);
    expect(failing.outputs).toEqual({ result: 'fail', passed: '3', failed: '3' });
    const broken = await runStep(step('run'), stepEnv(step('run'), {}, { GWC_IN_OUT: join(out, 'none'), FAKE_EXIT: '2' }));
    expect(broken.code).toBe(2);
    expect(broken.outputs).toEqual({ result: 'error', passed: '', failed: '' });
    const badStrict = await runStep(step('run'), stepEnv(step('run'), { strict: 'yes' }, { GWC_IN_OUT: out }));
    expect([badStrict.code, badStrict.calls, badStrict.stderr.trim()]).toEqual([2, null, 'gw-conformance action: strict: expected true or false, got "yes"']);
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
    const run = job.script.find((l) => l.startsWith('gw-conformance run '))!;
    const out = /--out (\S+)/.exec(run)![1];
    expect(run).toMatch(/--reporter junit/);
    expect(run).toMatch(/--reporter html/);
    expect(job.artifacts.reports.junit).toBe(`${out}/junit.xml`);
    // The report folder (report.html) is kept as an artifact too.
    expect(job.artifacts.paths).toContain(`${out}/`);
    expect(job.artifacts.when).toBe('always');
  });

  it('no CI recipe installs gw-conformance from the npm registry, where it is not published', () => {
    const recipes = ['examples/github/workflow.yml', 'examples/gitlab/.gitlab-ci.yml', 'docs/ci.md', 'docs/load-profile.md'].map((f) => [f, readFileSync(join(ROOT, f), 'utf8')] as const);
    // `npx gw-conformance`, `npx -- gw-conformance@1`, `npm install --global gw-conformance`: the bare name is the registry's.
    const fromRegistry = /\b(?:npx(?: --yes)?(?: --)?|npm (?:install|i)(?: --global| -g)?)\s+"?gw-conformance\b/;
    expect(recipes.filter(([, text]) => fromRegistry.test(text)).map(([f]) => f)).toEqual([]);
    // What they use instead: the Action at a ref, or the repository from git at a tag.
    expect(recipes.filter(([, text]) => /uses: OWNER\/gw-conformance@|OWNER\/gw-conformance(?:\.git)?#/.test(text)).map(([f]) => f)).toEqual(recipes.map(([f]) => f));
    expect(fromRegistry.test('npx --yes -- gw-conformance@0.1.0 run')).toBe(true);
  });
});

describe('the baselines\' update mode stays out of CI', () => {
  it('.ci/run, `npm test`, the vitest config and the action never set GWC_UPDATE_BASELINES: there a stale baseline fails', () => {
    // The name the writer reads (test/helpers/baselines.ts), not a copy of it typed here.
    expect(updating({ [UPDATE_ENV]: '1' })).toBe(true);
    expect(updating({})).toBe(false);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const sources: Array<[string, string]> = [
      ['.ci/run', readFileSync(join(ROOT, '.ci', 'run'), 'utf8')],
      ['vitest.config.ts', readFileSync(join(ROOT, 'vitest.config.ts'), 'utf8')],
      ['action.yml', readFileSync(join(ROOT, 'action.yml'), 'utf8')],
      ...Object.entries(pkg.scripts).filter(([name]) => name !== 'baselines:update').map(([name, s]): [string, string] => [`npm script ${name}`, s]),
    ];
    expect(sources.filter(([, text]) => text.includes(UPDATE_ENV)).map(([f]) => f)).toEqual([]);
    // The one script that sets it runs the real gateways' tests and regenerates their docs table.
    expect(pkg.scripts['baselines:update']).toMatch(new RegExp(`${UPDATE_ENV}=1 vitest run test/real/nginx/nginx.test.ts test/real/haproxy/haproxy.test.ts && node scripts/docs-matrix.mjs`));
    expect(UPDATE_COMMAND).toBe('npm run baselines:update');
  });
});
