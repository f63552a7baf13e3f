// The CLI as a user runs it: exit codes, one-line errors, reports on disk. Called in this process
// (test/helpers/in-process.ts) but where the process is the subject: a pipe's reader, and gwc.yaml
// read from the working directory.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import net from 'node:net';
import http from 'node:http';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { cli, freePort, ROOT } from '../helpers/cli.js';
import { cliInProcess, startInProcess } from '../helpers/in-process.js';
import { TIME_JUDGED, UNTIMED } from '../helpers/untimed.js';
import { CAPABILITY_AREA } from '../../src/core/capabilities.js';
import { PROTOCOLS } from '../../src/core/protocols.js';
import { CHECKS } from '../../suites/index.js';
import { SCHEMA_VERSION } from '../../src/report/shared/types.js';

/**
 * The checks a run without --profile selects (slow and service checks need their profile), but
 * those that judge time: these runs test the CLI, not timing (UNTIMED, test/helpers/untimed.ts).
 */
// The capability matrix runs only when asked for (--capabilities): not a check of the default run.
// The checks of translated routes are not picked on the reference gateway's pass-through.
const DEFAULT_CHECKS = CHECKS.filter((c) => c.profile === 'default' && c.area !== CAPABILITY_AREA && !c.translatedRoute && !TIME_JUDGED.includes(c.id));

const tmp = () => mkdtempSync(join(tmpdir(), 'gwc-cli-'));
const servers: Array<net.Server> = [];
afterAll(() => servers.forEach((s) => s.close()));

function oneLine(stderr: string) {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
  return lines[0];
}

describe('gw-conformance CLI', () => {
  it('demo: every check passes, exit 0, reports written and valid', async () => {
    const out = tmp();
    const r = await cliInProcess(['demo', '--seed', '5', '--out', out, '--token', 'sk-gwc-SECRET-123', ...UNTIMED]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`${DEFAULT_CHECKS.length} pass, 0 fail`));
    const json = readFileSync(join(out, 'report.json'), 'utf8');
    const xml = readFileSync(join(out, 'junit.xml'), 'utf8');
    // The credential given to the harness never reaches a report.
    expect(json).not.toContain('SECRET');
    expect(xml).not.toContain('SECRET');
    const report = JSON.parse(json);
    const ajv = new Ajv({ allErrors: true });
    addFormats.default(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'src/report/shared/run-report.schema.json'), 'utf8')));
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report).toMatchObject({ schemaVersion: SCHEMA_VERSION, seed: 5, exitCode: 0, declared: { protocols: [...PROTOCOLS] } });
    expect(xml.match(/<testcase /g)).toHaveLength(DEFAULT_CHECKS.length);
    if (spawnSync('xmllint', ['--version']).status === 0) {
      const f = join(out, 'junit.xml');
      const v = spawnSync('xmllint', ['--noout', '--schema', join(ROOT, 'test/schemas/jenkins-junit.xsd'), f], { encoding: 'utf8' });
      expect(v.status, v.stderr).toBe(0);
    } else expect(process.env.GWC_REQUIRE_TOOLS, 'xmllint is required in CI (apt-get install libxml2-utils)').not.toBe('1');
  });

  it('demo --fault: exit 1, the failing check named with its evidence', async () => {
    const out = tmp();
    const r = await cliInProcess(['demo', '--fault', 'drop-anthropic-beta', '--seed', '5', '--out', out, ...UNTIMED]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL\s+messages\.headers\.beta /);
    expect(r.stdout).toMatch(/anthropic-beta lost claude-code-20250219/);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(/<failure message="[^"]*anthropic-beta lost/);
  });

  it('--seed reproduces the shrunk counterexample of a failed property', async () => {
    const runs = await Promise.all([1, 2].map(async () => {
      const out = tmp();
      await cliInProcess(['demo', '--fault', 'reserialize-body', '--seed', '42', '--only', 'messages.body.bytes', '--reporter', 'json', '--out', out]);
      return JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).results[0].evidence.property;
    }));
    expect(runs[0].counterexample).toBeTypeOf('string');
    expect(runs[0].seed).toBe(42);
    expect(runs[1].counterexample).toBe(runs[0].counterexample);
    expect(runs[1].path).toBe(runs[0].path);
  });

  it('list: every check and the catalog coverage', async () => {
    const r = await cliInProcess(['list', '--json']);
    expect(r.code).toBe(0);
    const l = JSON.parse(r.stdout);
    expect(l.checks.map((c: { id: string }) => c.id)).toEqual(CHECKS.map((c) => c.id));
    // The catalog's size, from the catalog itself (catalog/requirements.json), never typed here.
    const total = (JSON.parse(readFileSync(join(ROOT, 'catalog', 'requirements.json'), 'utf8')) as { requirements: unknown[] }).requirements.length;
    expect(total).toBeGreaterThan(0);
    expect(l.coverage.total).toBe(total);
    const text = await cliInProcess(['list']);
    expect(text.stdout).toMatch(new RegExp(`Catalog coverage: \\d+ of ${total}\\b`));
    expect(text.stdout).toMatch(/covered\s+CFG-SECRET-1\s+MUST\s+lint-config:CFG-SECRET-1/);
    expect(text.stdout).toMatch(/covered\s+APP-DISC-1\s+MUST\s+apps.disc.models/);
    expect(text.stdout).toMatch(/covered\s+SSE-LAT-1/);
    // The capability matrix is opt-in: marked in the text, named in the JSON; others are not.
    expect(text.stdout).toMatch(/capabilities\.messages\s+INFO\s+default\*/);
    expect(text.stdout).toMatch(/^\* opt-in: runs only with --capabilities/m);
    expect(text.stdout).toMatch(/messages\.path\.preserved\s+MUST\s+default\s/);
    // list --faults names every fault demo takes, the load and apps profiles' too.
    const faults = JSON.parse((await cliInProcess(['list', '--faults', '--json'])).stdout).map((f: { name: string }) => f.name);
    for (const f of ['drop-anthropic-beta', 'load-added-delay', 'limit-503-html', 'apps-device-code-reused']) expect(faults, f).toContain(f);
    const optIn = Object.fromEntries(l.checks.map((c: { id: string; optIn: string | null }) => [c.id, c.optIn]));
    expect(optIn['capabilities.chat']).toBe('--capabilities');
    expect(optIn['messages.path.preserved']).toBeNull();
  });

  it('list --json through a pipe: the whole document, however slowly the reader takes it; a reader that leaves early is no error', () => {
    const bin = `"${process.execPath}" "${ROOT}/bin/gw-conformance.js"`;
    const file = join(mkdtempSync(join(tmpdir(), 'gwc-pipe-')), 'list.json');
    expect(spawnSync('sh', ['-c', `${bin} list --json > "${file}"`]).status).toBe(0);
    const whole = readFileSync(file, 'utf8');
    expect(whole.length).toBeGreaterThan(65536); // more than a pipe holds: the exit must wait for the reader
    expect(JSON.parse(whole).checks.length).toBe(CHECKS.length);
    // wc reads in its own time; before the exit waited for stdout to drain, it counted 65536.
    const counted = spawnSync('sh', ['-c', `${bin} list --json | wc -c`], { encoding: 'utf8' });
    expect(Number(counted.stdout.trim())).toBe(Buffer.byteLength(whole));
    const early = spawnSync('sh', ['-c', `${bin} list --json | head -c 10 > /dev/null`], { encoding: 'utf8' });
    expect(early.stderr).toBe('');
  });

  it('unreachable target: exit 2, one line, well before the readiness gate (30 s) would give up', async () => {
    const port = await freePort();
    const r = await cliInProcess(['--target', `http://127.0.0.1:${port}`, '--upstream-listen', '127.0.0.1:0']);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(/unreachable \(ECONNREFUSED\)/);
    // The preflight's refusal, not the 30 s gate: one connect (and, on a loaded machine, seconds of waiting for the cores).
    expect(r.ms).toBeLessThan(20_000);
  });

  it('a target that is not HTTP: exit 2, one line, well before the readiness gate (30 s) would give up', async () => {
    const s = net.createServer((c) => c.end('SSH-2.0-OpenSSH_9.2\r\n'));
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const r = await cliInProcess(['--target', `http://127.0.0.1:${(s.address() as net.AddressInfo).port}`, '--upstream-listen', '127.0.0.1:0']);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(/did not answer HTTP \(\w+\)/);
    // The parser's refusal of the first answer, not a time-out and not the 30 s gate.
    expect(r.ms).toBeLessThan(20_000);
  });

  it('an invalid config key: exit 2 naming the key (gwc.yaml of the working directory: a process started there)', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'gwc.yaml'), 'target: http://127.0.0.1:1\nupstream_listen: 127.0.0.1:18080\n');
    const r = await cli([], { cwd: dir });
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(/gwc\.yaml: unknown key "upstream_listen"/);
  });

  it('an upstream port in use: exit 2, one line', async () => {
    const s = net.createServer();
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const port = (s.address() as net.AddressInfo).port;
    const r = await cliInProcess(['--target', 'http://127.0.0.1:9', '--upstream-listen', `127.0.0.1:${port}`]);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(/already in use/);
  });

  it('an unknown check id in --only, an unknown flag, an unknown fault: exit 2, one line', async () => {
    for (const args of [['demo', '--only', 'messages.nope'], ['demo', '--bogus'], ['demo', '--fault', 'nope'], ['--upstream-listen', '127.0.0.1:1']]) {
      const r = await cliInProcess(args);
      expect(r.code, args.join(' ')).toBe(2);
      oneLine(r.stderr);
    }
  });

  it('a misspelt command, a host without its port, a port over 65535, a binary configuration: exit 2 and one line that names the mistake', async () => {
    const bin = join(tmp(), 'binary.yaml');
    writeFileSync(bin, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0xff, 0xfe, 0x00, 0x00]));
    const cases: Array<[string[], string]> = [
      [['lsit'], "gw-conformance: error GWC-USAGE: unknown command 'lsit' (did you mean list?); `gw-conformance --help` lists the commands"],
      [['demoo', '--seed', '1'], "unknown command 'demoo' (did you mean demo?)"],
      [['verfy'], "unknown command 'verfy' (did you mean verify?)"],
      [['demo', '--upstream-listen', '127.0.0.1'], '--upstream-listen: expected host:port (e.g. 127.0.0.1:18080) or a port, got "127.0.0.1": no port'],
      [['--target', 'http://127.0.0.1:70000'], '--target: expected a URL whose port is from 1 to 65535, got "http://127.0.0.1:70000"'],
      [['lint-config', bin], `${bin}: not a text file (it is not UTF-8: a binary file, or another encoding)`],
    ];
    for (const [args, line] of cases) {
      const r = await cliInProcess(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(oneLine(r.stderr)).toContain(line);
    }
  });

  it('--dry-run lists the selection with what would be skipped, needs no --target, starts and sends nothing', async () => {
    const r = await cliInProcess(['--dry-run', '--only', 'vertex.body.unchanged', '--only', 'messages.headers.beta*', '--protocols', 'messages']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.map((l) => l.split(/\s+/)[0])).toEqual(['messages.headers.beta', 'messages.headers.beta-with-body', 'vertex.body.unchanged', 'dry']);
    expect(lines[2]).toMatch(/^vertex\.body\.unchanged\s+MUST\s+VTX-BODY-1 {2}\(would be skipped: not declared: vertex /);
    expect(lines[3]).toBe('dry run: 2 checks would run, 1 would be skipped as not declared (profile default); nothing was started or sent');
  });

  it('a gateway that hangs: the readiness gate says so within its time-out (exit 2, one line), no check runs', async () => {
    // Answers HEAD / (the start-up probe) and never answers anything else.
    const s = http.createServer((req, res) => {
      if (req.method === 'HEAD') res.end();
    });
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const out = tmp();
    const r = await cliInProcess(['--target', `http://127.0.0.1:${(s.address() as net.AddressInfo).port}`, '--upstream-listen', '127.0.0.1:0', '--ready-timeout-s', '2', '--reporter', 'json', '--out', out], { timeoutMs: 30_000 });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/gateway not ready: in 2 s no \w+ canary .*the last answered no answer \(time-out\)/);
    // The 2 s gate (and seconds on a loaded machine), not a time-out per check (minutes).
    expect(r.ms).toBeLessThan(25_000);
    expect(existsSync(join(out, 'report.json'))).toBe(false);
    s.closeAllConnections();
  });

  it('a setup mistake that answers the same every time (a 404 for a wrong base path) is diagnosed in seconds, not after the gate', async () => {
    const s = http.createServer((req, res) => {
      req.resume();
      if (req.method === 'HEAD') return void res.end();
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no route"}');
    });
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const r = await cliInProcess(['--target', `http://127.0.0.1:${(s.address() as net.AddressInfo).port}/v1`, '--upstream-listen', '127.0.0.1:0', '--protocols', 'messages', '--ready-timeout-s', '120'], { timeoutMs: 90_000 });
    expect(r.code).toBe(2);
    const line = oneLine(r.stderr);
    expect(line).toMatch(/^gw-conformance: error GWC-NOT-READY: gateway not ready: in [5-9] s no messages canary \(POST http:\/\/127\.0\.0\.1:\d+\/v1\/v1\/messages\) reached the recording upstream; \d+ tries, the last answered 404 application\/json .*; the same answer every time, so the gate stopped before its 120 s;/);
    // Well before the 120 s it would otherwise wait out (start-up and the 5 s of identical answers included).
    expect(r.ms).toBeLessThan(60_000);
    s.closeAllConnections();
  }, 100_000);

  it('mock, then run: the run uses the mock already holding the port', async () => {
    const port = await freePort();
    const mock = startInProcess(['mock', '--listen', `127.0.0.1:${port}`]);
    try {
      await mock.line(/listening/);
      const { ReferenceGateway, DEMO_UPSTREAM_TIMEOUT_MS } = await import('../../reference/gateway.js');
      const gw = new ReferenceGateway({ upstream: `http://127.0.0.1:${port}`, upstreamTimeoutMs: DEMO_UPSTREAM_TIMEOUT_MS });
      const target = await gw.start();
      const out = tmp();
      const r = await cliInProcess(['run', '--target', target, '--upstream-listen', `127.0.0.1:${port}`, '--out', out, '--seed', '3', ...UNTIMED]);
      await gw.stop();
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toMatch(/using the recording upstream of the running `gw-conformance mock`/);
      expect(existsSync(join(out, 'report.json'))).toBe(true);
    } finally {
      expect((await mock.stop()).code).toBe(0);
    }
  });
});
