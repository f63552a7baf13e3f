// A gateway that is gone mid-run (src/runner/gone.ts): its launched process exited, or the target
// stopped accepting connections. The check during which it went names the exit or the refusal and
// the time; the later checks are not run, citing it; the run exits 1 and says it is incomplete.
// Both gateways crash on the same traffic: an upstream reset (errors.upstream.reset's), whatever
// check order, so the check named is that one.
import http from 'node:http';
import type net from 'node:net';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, freePort } from '../../helpers/cli.js';
import { cliInProcess } from '../../helpers/in-process.js';
import { cleanupAfterAll } from '../../helpers/cleanup.js';
import { GoneBreaker } from '../../../src/runner/gone.js';
import type { CheckResult } from '../../../src/report/shared/types.js';

const { tempDir } = cleanupAfterAll();
const CRASH_CMD = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'test/helpers/crash-gateway.mjs'))} {listen_port} {upstream_url}`;
// The reset check among checks that pass against a plain proxy; one at a time, so none runs beside the reset.
const ONLY = ['messages.path.preserved', 'chat.path.preserved', 'errors.upstream.reset', 'messages.headers.version', 'messages.body.arrays', 'chat.body.semantic'].flatMap((id) => ['--only', id]);
const readReport = (dir: string) => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { results: CheckResult[]; exitCode: number };

/** What every such run shows: the reset check names how the gateway went, every later check cites it, none says "connection refused". */
function expectGone(r: { code: number | null; stdout: string; stderr: string }, report: { results: CheckResult[] }, how: RegExp) {
  const at = report.results.find((x) => x.id === 'errors.upstream.reset')!;
  expect(at.outcome, at.message).toBe('fail');
  expect(at.message).toMatch(new RegExp(`^the gateway is gone: ${how.source} at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z, during this check`));
  const after = report.results.filter((x) => x.outcome === 'skip');
  for (const x of after) expect(x.message).toMatch(new RegExp(`^not run: the gateway is gone since errors\\.upstream\\.reset \\(${how.source} at `));
  for (const x of report.results) if (x !== at && x.outcome !== 'skip') expect(x.outcome, `${x.id}: ${x.message}`).toBe('pass');
  // Only the check it went during keeps the refusal, as its own evidence.
  expect(JSON.stringify(report.results.filter((x) => x !== at))).not.toMatch(/ECONNREFUSED|connection refused/i);
  expect(r.code).toBe(1);
  expect(r.stdout + r.stderr).toMatch(/FAILED, INCOMPLETE: \d+ checks? not run because the gateway is gone/);
}

describe('a gateway that is gone mid-run', () => {
  const servers: http.Server[] = [];
  afterEach(() => void servers.splice(0).forEach((s) => s.close()));

  it('a launched gateway that exits on an upstream reset: the reset check names the exit, the rest are not run', async () => {
    const out = tempDir('gwc-gone-');
    const r = await cliInProcess(['run', '--gateway-cmd', CRASH_CMD, '--token', 'sk-gone-1234567890', '--concurrency', '1', ...ONLY, '--reporter', 'json', '--reporter', 'console', '--out', out], { timeoutMs: 90_000 });
    const report = readReport(out);
    expectGone(r, report, /the gateway process exited with code 1(; its port refused connections)?/);
    expect(report.results.some((x) => x.outcome === 'skip'), 'the reset check is not last in the run order').toBe(true);
  }, 120_000);

  it('a target that stops listening mid-run: the reset check names the refusal', async () => {
    const upstreamPort = await freePort();
    const upstream = `http://127.0.0.1:${upstreamPort}`;
    const sockets = new Set<net.Socket>();
    const server = http.createServer((req, res) => {
      const up = http.request(new URL(req.url!, upstream), { method: req.method, headers: { ...req.headers, host: `127.0.0.1:${upstreamPort}` } }, (ures) => {
        res.writeHead(ures.statusCode ?? 502, ures.headers);
        ures.pipe(res);
      });
      // On an upstream reset this gateway stops listening and drops every connection.
      up.on('error', () => {
        server.close();
        for (const s of sockets) s.destroy();
      });
      req.pipe(up);
    });
    server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
    servers.push(server);
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const target = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    const out = tempDir('gwc-gone-');
    const r = await cliInProcess(['run', '--target', target, '--upstream-listen', `127.0.0.1:${upstreamPort}`, '--token', 'sk-gone-1234567890', '--concurrency', '1', ...ONLY, '--reporter', 'json', '--reporter', 'console', '--out', out], { timeoutMs: 90_000 });
    expectGone(r, readReport(out), /the target refused connections \(it had accepted them before\)/);
  }, 120_000);
});

describe('GoneBreaker', () => {
  const result = (id: string, outcome: CheckResult['outcome'] = 'pass'): CheckResult => ({ id, title: id, area: 'errors', requirements: [], level: 'MUST', outcome, message: 'as measured', expected: null, actual: null, evidence: {}, durationMs: 5 });

  it('judges the checks running at an exit by it, a failed connection after it as not run, and a finished verdict as its own', () => {
    const b = new GoneBreaker(new URL('http://127.0.0.1:1'), { onExit: (f) => ((exit = f), () => undefined) });
    b.started('a');
    b.started('b');
    exit('the gateway process exited with code 1');
    expect(b.ended(result('a')).message).toMatch(/^the gateway is gone: the gateway process exited with code 1 at .*Z, during this check \(also running: b\)/);
    b.started('c');
    b.connectionFailed('c');
    expect(b.ended(result('c', 'fail'))).toMatchObject({ outcome: 'skip', message: expect.stringMatching(/^not run: the gateway is gone since a, b \(the gateway process exited with code 1 at /) });
    expect(b.notRun({ id: 'd', title: 'd', area: 'errors', requirements: [], level: 'MUST' } as never).outcome).toBe('skip');
  });

  it('names nothing before the gateway went', () => {
    const b = new GoneBreaker(new URL('http://127.0.0.1:1'));
    b.started('a');
    b.connectionFailed('a');
    expect(b.ended(result('a', 'fail')).message).toBe('as measured');
    expect(b.tripped).toBeNull();
  });
});
let exit: (how: string) => void = () => undefined;
