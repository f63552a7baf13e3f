// The setup is checked before any check runs, and the run ends well when it is cut short: an
// unusable --out, an empty credential, a selection or fault that names nothing are one line and
// exit 2 at once; --no-token skips the credential checks; a gateway whose upstream points
// elsewhere is named at the readiness gate; Ctrl-C writes an interrupted report and exits 130.
// The CLI is called in this process (test/helpers/in-process.ts), but for Ctrl-C: a signal to a process.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import http from 'node:http';
import net from 'node:net';
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { freePort, ROOT } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/in-process.js';
import { NO_TIMING_CHECKS } from '../helpers/untimed.js';
import { Interrupt, NOT_RUN } from '../../cli/shared/interrupt.js';
import { recordedSettings } from '../../cli/certify/certify.js';
import { resolveConfig } from '../../src/config/config.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'gwc-setup-'));
const servers: net.Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

/** One line on stderr, no stack trace, nothing run (no check line on stdout). */
/** Refused before anything started: exit 2, one line, no stack, no gateway started, no check run (shown by the output, not by a wall-clock bound). */
function refusedAtOnce(r: { code: number | null; stdout: string; stderr: string }): string {
  expect(r.code, r.stdout + r.stderr).toBe(2);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at |internal error/);
  expect(r.stdout).not.toMatch(/reference gateway at|checks, target/);
  return r.stderr.trim();
}

describe('--out is checked before any check runs', () => {
  const file = join(tmp(), 'a-file');
  writeFileSync(file, 'x');
  it.each([
    ['under a device', '/dev/null/x', /--out \/dev\/null\/x: \/dev\/null is not a folder/],
    ['a file', file, /: not a folder/],
    ['under a file', join(file, 'sub'), /a-file is not a folder/],
    ['on /proc', '/proc/self/gwc-reports', /is a kernel file system, not storage/],
  ])('%s: one line, exit 2', async (_what, out, message) => {
    expect(refusedAtOnce(await cliInProcess(['demo', '--out', out]))).toMatch(message);
  });

  it('a folder that does not exist yet is made; only console output needs none', async () => {
    const out = join(tmp(), 'new', 'reports');
    const r = await cliInProcess(['demo', '--out', out, '--only', 'messages.headers.version', '--reporter', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(out, 'report.json'))).toBe(true);
    const console = await cliInProcess(['demo', '--out', '/dev/null/x', '--only', 'messages.headers.version', '--reporter', 'console']);
    expect(console.code, console.stderr).toBe(0);
  });
});

describe('the credential', () => {
  it('an empty --token (an unset variable) is one line saying how to declare none', async () => {
    expect(refusedAtOnce(await cliInProcess(['demo', '--token', '']))).toBe(
      "gw-conformance: error GWC-BAD-FLAG: --token is empty (an unset variable?): give the gateway's credential, or, if the gateway takes no credential, --no-token (`token: none` in gwc.yaml)",
    );
  });

  it('--no-token sends none: the credential checks are skipped with the reason, the bad-key check still runs', async () => {
    const out = tmp();
    const r = await cliInProcess(['demo', '--no-token', '--only', '*.auth.*', '--reporter', 'json', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    const by = Object.fromEntries(report.results.map((x: { id: string; outcome: string; message: string }) => [x.id, x]));
    for (const id of ['messages.auth.credential', 'native.auth.credential', 'chat.auth.bearer']) {
      expect(by[id], id).toMatchObject({ outcome: 'skip' });
      expect(by[id].message).toMatch(/^no credential: the gateway takes none \(--no-token/);
    }
    expect(by['errors.auth.bad-key']).toMatchObject({ outcome: 'pass' });
  });

  it('certify records that there was none (never the credential), so verify sends none either', () => {
    const none = recordedSettings(resolveConfig({ token: false }, {}, {}));
    expect(none.token).toBe('none');
    expect(resolveConfig({}, none, {}).token).toBe('');
    expect(recordedSettings(resolveConfig({ token: 'sk-SECRET' }, {}, {}))).not.toHaveProperty('token');
  });
});

describe('invalid values: one short line with the closest names', () => {
  it.each([
    [['demo', '--fault', 'buffr-stream'], 'gw-conformance: error GWC-UNKNOWN-FAULT: unknown fault "buffr-stream"; did you mean "buffer-stream"? (`gw-conformance list --faults` names them)'],
    [['demo', '--profile', 'slwo'], 'gw-conformance: error GWC-BAD-FLAG: --profile: unknown profile "slwo"; did you mean "slow"? (default, slow, service, apps, client, load)'],
    [['demo', '--reporter', 'jsno'], 'gw-conformance: error GWC-BAD-FLAG: --reporter: unknown reporter "jsno"; did you mean "json"? (console, junit, json, html, github)'],
  ])('%j', async (args, line) => {
    expect(refusedAtOnce(await cliInProcess(args))).toBe(line);
  });

  it('--only and --skip: a typo gets the closest ids, before anything starts', async () => {
    const line = refusedAtOnce(await cliInProcess(['demo', '--only', 'mesages.auth.credential']));
    expect(line).toMatch(/^gw-conformance: error GWC-UNKNOWN-CHECK: --only: unknown check "mesages.auth.credential"; did you mean "messages.auth.credential"\?/);
    expect(line.length).toBeLessThan(300);
    expect(refusedAtOnce(await cliInProcess(['demo', '--skip', 'streaming.*.nothing']))).toMatch(/--skip: unknown check "streaming\.\*\.nothing"/);
  });
});

describe('the readiness gate', () => {
  it('a gateway that answers but forwards elsewhere: named with the address its upstream should have', async () => {
    const s = http.createServer((req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html>502 Bad Gateway</html>');
    });
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const port = await freePort();
    const r = await cliInProcess(['--target', `http://127.0.0.1:${(s.address() as net.AddressInfo).port}`, '--upstream-listen', `127.0.0.1:${port}`, '--ready-timeout-s', '2', '--reporter', 'console'], { timeoutMs: 30_000 });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(new RegExp(`the gateway answers \\(\\w+ canary .*the last 502 text/html .*\\) but nothing reached the recording upstream at http://127\\.0\\.0\\.1:${port}: is its upstream set to http://127\\.0\\.0\\.1:${port}\\?`));
  });
});

describe('Ctrl-C', () => {
  it('during a run: an interrupted report of what finished, the rest not run, exit 130', async () => {
    const out = tmp();
    // The idle probes (10 s, and 16 s with pings) start first and is still running when the first check has passed.
    const p = spawn(process.execPath, [`${ROOT}/bin/gw-conformance.js`, 'demo', '--out', out, '--seed', '4', ...NO_TIMING_CHECKS]);
    let stdout = '';
    let stderr = '';
    p.stderr.on('data', (d) => (stderr += d));
    const code = new Promise<number | null>((resolve) => p.on('close', resolve));
    await new Promise<void>((resolve) =>
      p.stdout.on('data', (d) => {
        stdout += d;
        if (/^PASS/m.test(stdout)) resolve();
      }),
    );
    const t0 = Date.now();
    p.kill('SIGINT');
    expect(await code).toBe(130);
    // The idle probes it cut off would have held the run up to 16 s.
    expect(Date.now() - t0).toBeLessThan(12_000);
    expect(stderr).toMatch(/interrupted: \d+ of \d+ checks finished/);
    expect(stdout).toMatch(/^Result: INTERRUPTED/m);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.interrupted).toBe(true);
    const notRun = report.results.filter((x: { message: string }) => x.message === NOT_RUN);
    expect(notRun.map((x: { id: string }) => x.id)).toContain('streaming.idle.default');
    expect(notRun.every((x: { outcome: string }) => x.outcome === 'skip')).toBe(true);
    expect(report.results.some((x: { outcome: string }) => x.outcome === 'pass')).toBe(true);
    // Every report says the run was interrupted, none that it passed.
    expect(report.exitCode).toBe(130);
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(junit.match(/<error [^>]*type="interrupted"/g)?.length).toBe(notRun.length);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toMatch(/class="verdict bad">INTERRUPTED</);
    expect(html).not.toMatch(/>PASSED</);
    expect(html).toMatch(/exit code <b>130</);
    // A check the Ctrl-C ended is not judged on the console either.
    for (const x of notRun) expect(stdout).not.toMatch(new RegExp(`^\\w+ +${x.id.replace(/\./g, '\\.')} `, 'm'));
  });

  it('the first SIGINT while checks run stops them; a second, or one outside the checks, exits at once', async () => {
    const listeners = process.listenerCount('SIGINT');
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const said: string[] = [];
    const i = new Interrupt((l) => said.push(l));
    try {
      process.emit('SIGINT');
      expect(exit).toHaveBeenCalledWith(130);
      exit.mockClear();
      await i.during(async () => {
        process.emit('SIGINT');
        expect(i.signal.aborted).toBe(true);
        expect(said).toEqual([expect.stringMatching(/interrupted: writing the reports/)]);
        expect(exit).not.toHaveBeenCalled();
        process.emit('SIGINT');
        expect(exit).toHaveBeenCalledWith(130);
      });
    } finally {
      i.dispose();
      exit.mockRestore();
    }
    expect(process.listenerCount('SIGINT')).toBe(listeners);
  });
});
