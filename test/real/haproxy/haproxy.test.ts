// The harness against a real HAProxy (Debian's package) with each config of examples/haproxy/ in
// front of the recording upstream: the outcome of every check of the default suite, and the exit
// code, must be those recorded beside it (haproxy.cfg: expected.json; streaming.cfg:
// expected-streaming.json; json-errors.cfg: expected-json-errors.json), observed with a real
// HAProxy (GWC_UPDATE_BASELINES=1, `npm run baselines:update`, rewrites them from the run:
// test/helpers/baselines.ts). And the load profile's limit checks through a request-rate limit per credential as
// HAProxy's examples show it (limit.cfg: its default 429 page, HTML without retry-after, fails
// LIMIT-1; limit-429.cfg, a JSON error and retry-after 2, passes LIMIT-1 and LIMIT-2).
//
// Needs `haproxy` on PATH and the built CLI (`npx tsc -p .`). Without HAProxy the test is
// skipped, unless GWC_REQUIRE_HAPROXY=1 (CI), where it fails.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { baselineProtocols, checkBaseline, observedOutcomes, protocolArgs } from '../../helpers/baselines.js';
import { cli, ROOT } from '../../helpers/cli.js';
import { cleanupAfterAll } from '../../helpers/cleanup.js';
import { loadRun } from '../../helpers/load-run.js';

const { tempDir } = cleanupAfterAll();
const TEST_TIMEOUT_MS = 120_000;
const available = spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0;
const required = process.env.GWC_REQUIRE_HAPROXY === '1';

/** The --gateway-cmd that starts HAProxy from a config of examples/haproxy/ on the harness's ports. */
const haproxyCmd = (cfg: string) => `sh ${path.join(ROOT, 'scripts', 'haproxy-gateway.sh')} ${path.join(ROOT, 'examples', 'haproxy', cfg)} {listen_port} {upstream_port} {workdir}`;

const CONFIGS = [
  { cfg: 'haproxy.cfg', expected: 'expected.json' },
  { cfg: 'streaming.cfg', expected: 'expected-streaming.json' },
  { cfg: 'json-errors.cfg', expected: 'expected-json-errors.json' },
];

describe('HAProxy (examples/haproxy/*.cfg) in front of the recording upstream', () => {
  for (const { cfg, expected: file } of CONFIGS) {
    it.skipIf(!available && !required)(
      `${cfg}: every check has the outcome recorded in examples/haproxy/${file}`,
      async () => {
        if (!available) expect.fail('haproxy is required (GWC_REQUIRE_HAPROXY=1): apt-get install haproxy');
        if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) expect.fail('the CLI is not built: run `npx tsc -p .` first');
        const out = tempDir('gwc-haproxy-out-');
        const baseline = path.join(ROOT, 'examples', 'haproxy', file);
        const protocols = baselineProtocols(baseline);
        const r = await cli(['run', '--gateway-cmd', haproxyCmd(cfg), '--seed', '1', '--reporter', 'json', '--out', out, ...protocolArgs(protocols)], { timeoutMs: TEST_TIMEOUT_MS - 10_000 });
        const reportFile = path.join(out, 'report.json');
        const context = `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
        if (!existsSync(reportFile)) expect.fail(`no report\n${context}`);
        const report = JSON.parse(readFileSync(reportFile, 'utf8')) as { results: Array<{ id: string; outcome: string; message: string }>; launched?: { logTail: string[] } };
        const outcomes = observedOutcomes(report.results, protocols);
        const notPassed = report.results.filter((x) => x.outcome !== 'pass').map((x) => `  ${x.id}: ${x.outcome}: ${x.message}`);
        const detail = `checks that did not pass:\n${notPassed.join('\n')}\n${context}\nHAProxy log:\n${report.launched?.logTail.join('\n') ?? ''}`;
        checkBaseline(baseline, { protocols, exitCode: r.code, outcomes }, { test: 'test/real/haproxy/haproxy.test.ts', detail });
      },
      TEST_TIMEOUT_MS,
    );
  }
});

describe('declared limits through HAProxy (examples/haproxy/limit*.cfg, --declared-limit rps=5)', () => {
  const limitRun = (cfg: string) => {
    if (!available) expect.fail('haproxy is required (GWC_REQUIRE_HAPROXY=1): apt-get install haproxy');
    return loadRun(haproxyCmd(cfg), ['--declared-limit', 'rps=5'], tempDir('gwc-haproxy-limit-'), TEST_TIMEOUT_MS - 10_000);
  };

  it.skipIf(!available && !required)('limit.cfg: HAProxy\'s default 429 page (HTML, no retry-after) fails LIMIT-1; LIMIT-2 has no retry-after to wait', async () => {
    const r = await limitRun('limit.cfg');
    expect(r.by['load.limit.refused'].outcome, r.detail).toBe('fail');
    expect(r.by['load.limit.refused'].message, r.detail).toMatch(/over the limit: request \d+: a 429 whose body is not JSON \(an HTML page\)$/);
    expect(r.by['load.limit.retry-after'].outcome, r.detail).toBe('skip');
    expect(r.code, r.detail).toBe(1);
  }, TEST_TIMEOUT_MS);

  it.skipIf(!available && !required)('limit-429.cfg: a JSON 429 with retry-after 2 passes LIMIT-1 and LIMIT-2', async () => {
    const r = await limitRun('limit-429.cfg');
    expect(r.by['load.limit.refused'].outcome, r.detail).toBe('pass');
    expect(r.by['load.limit.retry-after'].outcome, r.detail).toBe('pass');
    expect(r.by['load.limit.retry-after'].message, r.detail).toBe('retried after the 2 s the 429 asked for, the request was served');
    expect(r.code, r.detail).toBe(0);
  }, TEST_TIMEOUT_MS);
});
