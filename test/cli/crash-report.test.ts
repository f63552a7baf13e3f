// Every run that starts writes its reports, whatever happens after: a harness crash
// outside any check (an uncaught exception from a socket no one listens to, say) ends the run
// with the checks that finished, the others marked as the harness's error, and every report
// file written; exit 2 (the harness broke, not the gateway).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

// Runs in its own process: the crash is a real uncaught exception, which the test runner's own
// handlers must not see. Two checks: one passes, one crashes the process from a timer.
const SCRIPT = `
import { RecordingUpstream } from '${ROOT}/dist/mocks/upstream/server.js';
import { ReferenceGateway } from '${ROOT}/dist/reference/gateway.js';
import { runSuite } from '${ROOT}/dist/src/runner/run.js';
import { finishRun } from '${ROOT}/dist/src/runner/finish.js';
import { resolveConfig } from '${ROOT}/dist/src/config/config.js';
import { pass } from '${ROOT}/dist/src/check/check.js';
const base = { requirements: ['MSG-RESP-1'], level: 'MUST', area: 'messages', profile: 'default', protocol: 'messages', requirement: 'x' };
const checks = [
  { ...base, id: 'a.passes', title: 'passes', run: async () => pass('fine') },
  { ...base, id: 'b.crashes', title: 'crashes the process', run: () => new Promise(() => setTimeout(() => { throw new Error('boom outside any check'); }, 50)) },
];
const upstream = new RecordingUpstream();
await upstream.start('127.0.0.1', 0);
const gw = new ReferenceGateway({ upstream: upstream.url, upstreamTimeoutMs: 2000 });
const target = await gw.start('127.0.0.1', 0);
const cfg = resolveConfig({ seed: '1', out: process.argv[1], concurrency: '1' }, {}, {});
const report = await runSuite(checks, { ...cfg, only: [] }, target, upstream, (s) => process.stdout.write(s + '\\n'));
const code = finishRun(report, cfg, { out: (s) => process.stdout.write(s + '\\n'), err: (s) => process.stderr.write(s + '\\n') }, checks);
await gw.stop();
await upstream.stop();
process.exit(code);
`;

describe('a crashed run still reports', () => {
  it('writes report.json, junit.xml and report.html with what finished and the error for the rest; exit 2', () => {
    const out = mkdtempSync(join(tmpdir(), 'gwc-crash-'));
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT, out], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(2);
    for (const f of ['report.json', 'junit.xml', 'report.html']) expect(existsSync(join(out, f)), f).toBe(true);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    const byId = Object.fromEntries(report.results.map((x: { id: string }) => [x.id, x]));
    expect(byId['a.passes'].outcome).toBe('pass');
    expect(byId['b.crashes'].outcome).toBe('error');
    expect(byId['b.crashes'].message).toMatch(/the run stopped on a harness error: Error: boom outside any check/);
    expect(r.stderr).toMatch(/the harness broke on b\.crashes/);
  });
});
