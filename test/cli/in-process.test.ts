// The CLI called in this process (test/helpers/in-process.ts): each call is a run of its own.
// Two calls that would meet if they shared what a process holds for the life of one: a fault's
// state, the secrets the harness remembered, the environment, and the listeners a run adds to
// the process. Each test runs the calls that would interfere and holds them apart.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess, startInProcess } from '../helpers/in-process.js';
import { freePort, ROOT } from '../helpers/cli.js';
import type { RunReport } from '../../src/report/shared/types.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'gwc-in-process-'));
const ID = 'messages.count-tokens.passthrough';

/** A demo run of one check with `args`; its report. */
async function demoReport(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; report: RunReport; text: string }> {
  const out = tmp();
  const r = await cliInProcess(['demo', '--seed', '3', '--reporter', 'json', '--out', out, ...args], { env });
  expect(r.code === 0 || r.code === 1, r.stdout + r.stderr).toBe(true);
  const text = readFileSync(join(out, 'report.json'), 'utf8');
  return { code: r.code, report: JSON.parse(text) as RunReport, text };
}

const PROCESS_LISTENERS = ['SIGINT', 'SIGTERM', 'exit', 'uncaughtException', 'unhandledRejection'] as const;
const listeners = () => Object.fromEntries(PROCESS_LISTENERS.map((e) => [e, process.listenerCount(e)]));

describe('the CLI in this process: each call is a run of its own', () => {
  it('a fault\'s state is its gateway\'s: flaky-count-tokens counts anew in each of two runs one after the other', async () => {
    // It replaces the 1st, 3rd, ... answer per body: counts kept across runs would shift the second run's attempts.
    const runs = [await demoReport(['--fault', 'flaky-count-tokens', '--only', ID, '--repeat', '3']), await demoReport(['--fault', 'flaky-count-tokens', '--only', ID, '--repeat', '3'])];
    const attempts = runs.map(({ report }) => (report.results[0].evidence.attempts as Array<{ outcome: string }>).map((a) => a.outcome));
    expect(attempts[0]).toEqual(['fail', 'pass', 'fail']);
    expect(attempts[1]).toEqual(attempts[0]);
  });

  it('the secrets a run remembers are its own: a mock\'s capture after a demo with a token shows that token as it was sent', async () => {
    const token = 'sk-gwc-in-process-7f3a9c';
    await demoReport(['--token', token, '--only', 'messages.headers.version']);
    const port = await freePort();
    const file = join(tmp(), 'capture.jsonl');
    const mock = startInProcess(['mock', '--listen', `127.0.0.1:${port}`, '--capture', file]);
    await mock.line(/^recording upstream listening on /);
    // Not a credential of the mock's run: a body (not JSON: the capture keeps its text through the masking cut) that holds the demo's token.
    await (await fetch(`http://127.0.0.1:${port}/v1/messages`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: `note ${token}` })).text();
    expect((await mock.stop()).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain(`note ${token}`);
  });

  it('the environment is the call\'s own: two runs at once, each with its variable, and this process\'s environment unchanged', async () => {
    const run = (value: string) => demoReport(['--header', 'x-gw-key=${GWC_IN_PROCESS_KEY}', '--only', 'messages.headers.version'], { GWC_IN_PROCESS_KEY: value });
    const [a, b] = await Promise.all([run('key-one-4d1e8b'), run('key-two-9c2f5a')]);
    expect(process.env.GWC_IN_PROCESS_KEY).toBeUndefined();
    // Each report masks the value its own run expanded, and holds neither.
    for (const r of [a, b]) expect(r.text).not.toMatch(/key-(one|two)-/);
    expect([a.code, b.code]).toEqual([0, 0]);
  });

  it('what a run adds to the process (Ctrl-C, crash listeners, a started gateway\'s) is gone when it ends', async () => {
    const before = listeners();
    const bin = `"${process.execPath}" "${join(ROOT, 'bin/gw-conformance.js')}"`;
    const r = await cliInProcess(['run', '--gateway-cmd', `${bin} reference --listen 127.0.0.1:{listen_port} --upstream {upstream_url}`, '--only', 'messages.headers.version', '--reporter', 'json', '--out', tmp()]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/started the gateway \(--gateway-cmd\)/);
    expect(listeners()).toEqual(before);
  });
});
