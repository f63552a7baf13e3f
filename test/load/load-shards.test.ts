// Load beyond one process: three `run --profile load --shard i/3` processes of the built CLI attach
// to one `gw-conformance mock` and load the reference gateway each from its own process (the mock
// only records), each writes its shard report, and
// merge-reports (called in this process) combines them: histograms merged exactly (checked here against hdr-histogram-js
// itself), counts summed, verdicts the worst of the shards'. Small rates: the machine is shared.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as hdr from 'hdr-histogram-js';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeEvidence, sumSeries, combineShardResults } from '../../src/report/run/load-merge.js';
import { mergeConflicts } from '../../src/report/run/merge.js';
import { encodeHistogram, newHistogram, recordMs } from '../../src/core/histogram.js';
import type { CheckResult, RunReport } from '../../src/report/shared/types.js';
import { cli, freePort, ROOT } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/in-process.js';

const started: ChildProcess[] = [];
afterAll(() => {
  for (const p of started) p.kill('SIGTERM');
});

/**
 * Starts a long-running command of the CLI and waits for its first line naming `ready`. Returns a
 * wait for its output to hold `n` matches of a pattern (its output comes through a pipe, which may
 * be read after another process's exit), bounded: what it wrote by then.
 */
async function serve(args: string[], ready: string): Promise<(re: RegExp, n: number) => Promise<string>> {
  const p = spawn(process.execPath, [`${ROOT}/bin/gw-conformance.js`, ...args]);
  started.push(p);
  let buf = '';
  await new Promise<void>((resolve, reject) => {
    p.stdout!.on('data', (d) => {
      buf += d;
      if (buf.includes(ready)) resolve();
    });
    p.on('exit', () => reject(new Error(`${args[0]} exited: ${buf}`)));
  });
  return (re, n) =>
    new Promise((resolve) => {
      const done = () => (buf.match(re)?.length ?? 0) >= n;
      if (done()) return resolve(buf);
      const t = setTimeout(() => resolve(buf), 10_000);
      p.stdout!.on('data', () => {
        if (!done()) return;
        clearTimeout(t);
        resolve(buf);
      });
    });
}

/** The exact merge and its percentiles, computed here with hdr-histogram-js alone. */
function independent(encoded: string[]) {
  const all = hdr.build({ bitBucketSize: 32, lowestDiscernibleValue: 1, highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: 3, useWebAssembly: false });
  for (const e of encoded) all.add(hdr.decodeFromCompressedBase64(e, 32, false));
  const ms = (p: number) => Math.round(all.getValueAtPercentile(p)) / 1000;
  return { count: all.totalCount, p50: ms(50), p95: ms(95), p99: ms(99), p999: ms(99.9) };
}

/** A running mock and a reference gateway in front of it, each a process of its own, on free ports; a fresh folder for the shards' reports. */
async function mockAndGateway(prefix: string) {
  const [up, gw] = [await freePort(), await freePort()];
  const mockOut = await serve(['mock', '--listen', `127.0.0.1:${up}`], 'listening');
  await serve(['reference', '--listen', `127.0.0.1:${gw}`, '--upstream', `http://127.0.0.1:${up}`], 'listening');
  return { up, gw, mockOut, dir: mkdtempSync(join(tmpdir(), prefix)) };
}

const RANK = ['skip', 'pass', 'waived', 'info', 'warn', 'flaky', 'fail', 'timeout', 'error'];

describe('load shards: three processes, one mock, one gateway', () => {
  it('each shard reports, and merge-reports adds them up exactly', { timeout: 180_000 }, async () => {
    const { up, gw, mockOut, dir } = await mockAndGateway('gwc-load-shards-');
    const load = ['--profile', 'load', '--only', 'load.perf.cost', '--only', 'load.concurrency.attribution', '--load-rate', '20', '--load-duration-s', '1', '--load-requests', '20', '--load-clients', '2', '--seed', '5', '--reporter', 'json'];
    // Two find the mock on the address they would listen on, one is told its URL (--attach, as a load process on another machine is).
    const where = (i: number) => (i === 3 ? ['--attach', `http://127.0.0.1:${up}`] : ['--upstream-listen', `127.0.0.1:${up}`]);
    const runs = await Promise.all([1, 2, 3].map((i) => cli(['run', '--target', `http://127.0.0.1:${gw}`, ...where(i), '--shard', `${i}/3`, '--out', join(dir, `s${i}`), ...load], { timeoutMs: 150_000 })));
    for (const r of runs) {
      expect(r.stdout + r.stderr).toMatch(/attached to the running `gw-conformance mock` at http:\/\/127\.0\.0\.1:\d+: this process sends its own load, the mock records/);
      expect([0, 1], r.stdout + r.stderr).toContain(r.code);
    }
    // The mock only recorded: three runs attached and left, and it carried out none itself.
    const said = await mockOut(/load run from 127\.0\.0\.1 detached/g, 3);
    expect(said.match(/load run attached from 127\.0\.0\.1/g)).toHaveLength(3);
    expect(said.match(/load run from 127\.0\.0\.1 detached/g)).toHaveLength(3);
    expect(said).not.toMatch(/run requested/);
    const shards = [1, 2, 3].map((i) => JSON.parse(readFileSync(join(dir, `s${i}`, 'report.json'), 'utf8')) as RunReport);
    expect(shards.map((s) => s.shard)).toEqual([1, 2, 3].map((index) => ({ index, count: 3, balancedBy: 'load' })));
    const m = await cliInProcess(['merge-reports', ...[1, 2, 3].map((i) => join(dir, `s${i}`)), '--out', join(dir, 'merged'), '--reporter', 'json']);
    expect(m.stderr).toBe('');
    const merged = JSON.parse(readFileSync(join(dir, 'merged', 'report.json'), 'utf8')) as RunReport;
    const result = (r: RunReport, id: string) => r.results.find((x) => x.id === id)!;
    for (const id of ['load.perf.cost', 'load.concurrency.attribution']) {
      const parts = shards.map((s) => result(s, id));
      const whole = result(merged, id);
      // The worst of the shards' verdicts.
      expect(whole.outcome).toBe(RANK[Math.max(...parts.map((p) => RANK.indexOf(p.outcome)))]);
      expect(whole.evidence.requests).toBe(parts.reduce((t, p) => t + (p.evidence.requests as number), 0));
      const hist = whole.evidence.histograms as Record<string, string>;
      expect(Object.keys(hist).length).toBeGreaterThan(0);
      for (const [key, text] of Object.entries(hist)) {
        const ex = independent(parts.map((p) => (p.evidence.histograms as Record<string, string>)[key]));
        const own = independent([text]);
        expect(own.count).toBe(parts.reduce((t, p) => t + independent([(p.evidence.histograms as Record<string, string>)[key]]).count, 0));
        expect(own).toEqual(ex);
        const shown = whole.evidence[key] as Record<string, number> | undefined;
        if (shown) expect({ count: shown.count, p50: shown.p50, p95: shown.p95, p99: shown.p99, p999: shown.p999 }).toEqual(ex);
      }
    }
    // No cross-talk: every answer in every shard carried its own request's token, once.
    for (const r of [...shards, merged]) expect(result(r, 'load.concurrency.attribution').outcome).toBe('pass');
    expect(result(merged, 'load.concurrency.attribution').evidence.misattributed).toBe(0);
    expect(merged.exitCode).toBe(Math.max(...shards.map((s) => s.exitCode)));
    // In GitHub Actions merge-reports adds the github reporter, as run does: the job summary is written.
    const summary = join(dir, 'step-summary.md');
    const gh = await cliInProcess(['merge-reports', ...[1, 2, 3].map((i) => join(dir, `s${i}`)), '--out', join(dir, 'merged-gh'), '--reporter', 'json'], { env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } });
    expect(gh.code, gh.stderr).toBe(merged.exitCode);
    expect(existsSync(summary) ? readFileSync(summary, 'utf8') : '').toMatch(/gw-conformance/);
  });
});

describe('load shards that start together (--start-together)', () => {
  it('two shards started apart wait at the mock for each other, record their calibration and start, and merge; a shard whose partner never comes is one line', { timeout: 180_000 }, async () => {
    const { up, gw, mockOut, dir } = await mockAndGateway('gwc-load-together-');
    const load = (i: number, n: number, wait: string) => ['run', '--target', `http://127.0.0.1:${gw}`, '--attach', `http://127.0.0.1:${up}`, '--shard', `${i}/${n}`, '--start-together', wait, '--profile', 'load', '--only', 'load.concurrency.attribution', '--load-rate', '20', '--load-duration-s', '1', '--load-requests', '20', '--load-clients', '2', '--seed', '5', '--reporter', 'json', '--out', join(dir, `s${i}of${n}`)];
    const first = cli(load(1, 2, '150'), { timeoutMs: 170_000 });
    // The second starts only once the first waits at the barrier: without the barrier their load would not overlap.
    await mockOut(/start barrier: shard 1\/2 from 127\.0\.0\.1 registered/g, 1);
    const second = await cli(load(2, 2, '150'), { timeoutMs: 170_000 });
    const one = await first;
    for (const r of [one, second]) expect([0, 1], r.stdout + r.stderr).toContain(r.code);
    expect(await mockOut(/all 2 shards registered/g, 1)).toMatch(/start barrier: all 2 shards registered; they start in 250 ms/);
    const reports = [1, 2].map((i) => JSON.parse(readFileSync(join(dir, `s${i}of2`, 'report.json'), 'utf8')) as RunReport);
    for (const r of reports) {
      expect(r.load!.calibration!.requests).toBeGreaterThan(0);
      expect(r.load!.start).toMatchObject({ registered: 2, expected: 2 });
      expect(r.load!.firstRequestAt).toBeDefined();
    }
    expect(reports[0].load!.start!.startAt).toBe(reports[1].load!.start!.startAt);
    const m = await cliInProcess(['merge-reports', join(dir, 's1of2'), join(dir, 's2of2'), '--out', join(dir, 'merged'), '--reporter', 'json']);
    expect(m.stdout).toMatch(/merge-reports: shard 1: calibration straight p50 [\d.]+ ms, p99 [\d.]+ ms .* waited \d+ ms at the barrier for 2 shards/);
    expect(m.stdout).toMatch(/first load requests of the shards within \d+ ms of each other/);
    // Alone at a barrier for two, with a wait of a second: one line naming the missing shard, exit 2.
    const alone = await cli(load(1, 2, '1'), { timeoutMs: 60_000 });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/^gw-conformance: (?:error GWC-[A-Z-]+: )?--start-together: only 1 of 2 load shards registered within 1 s \(registered: 1; missing: 2\)$/m);
    // Without --attach and --shard the flag is refused before anything starts.
    const bad = await cliInProcess(['run', '--profile', 'load', '--target', 'http://127.0.0.1:9', '--start-together', '10']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--start-together needs --profile load, --attach <mock URL> and --shard i\/n/);
  });
});

describe('load shard merge', () => {
  const hist = (values: number[]) => {
    const h = newHistogram();
    for (const v of values) recordMs(h, v);
    return encodeHistogram(h);
  };
  const check = (outcome: CheckResult['outcome'], evidence: Record<string, unknown>): CheckResult => ({ id: 'load.x', title: 't', area: 'load', requirements: ['LOAD-1'], level: 'MUST', outcome, message: outcome, expected: null, actual: null, evidence, durationMs: 5 });

  it('a fail in any shard fails the merged check, and its message leads', () => {
    const r = combineShardResults([check('pass', {}), check('fail', {}), check('pass', {})], [1, 2, 3]);
    expect(r.outcome).toBe('fail');
    expect(r.message).toMatch(/\(shard 1 pass, shard 2 fail, shard 3 pass\): shard 2: fail$/);
  });

  it('throughput is summed second by second when every shard has it, and left out otherwise', () => {
    const a = { requests: 3, throughput: { direct: [1, 2], through: [1, 1, 1] } };
    const b = { requests: 4, throughput: { direct: [3], through: [2, 2] } };
    expect(mergeEvidence([a, b]).throughput).toEqual({ direct: [4, 2], through: [3, 3, 1] });
    expect(mergeEvidence([a, { requests: 4 }]).throughput).toBeUndefined();
    // The failures per second, which the HTML chart draws beside the answers, add up the same way.
    expect(mergeEvidence([{ failuresPerSecond: { direct: [0, 1], through: [2] } }, { failuresPerSecond: { direct: [1], through: [0, 3] } }]).failuresPerSecond).toEqual({ direct: [1, 1], through: [2, 3] });
    expect(sumSeries([])).toEqual([]);
  });

  it('percentiles beside a histogram come from the merged histogram, not an average', () => {
    const fast = Array.from({ length: 99 }, () => 1);
    const e = mergeEvidence([
      { through: { count: 99, p50: 1, p95: 1, p99: 1, p999: 1, max: 1 }, histograms: { through: hist(fast) } },
      { through: { count: 1, p50: 500, p95: 500, p99: 500, p999: 500, max: 500 }, histograms: { through: hist([500]) } },
    ]);
    // An average of the shards' p50 would say 250.5 ms.
    expect((e.through as { p50: number; count: number }).p50).toBe(1);
    expect((e.through as { count: number }).count).toBe(100);
  });

  it('load shards given twice, or of different counts, are refused', () => {
    const rep = (index: number, count: number) => ({ name: `s${index}`, report: { harness: { version: '1' }, seed: 1, target: 't', profile: 'load', declared: { protocols: [] }, shard: { index, count, balancedBy: 'load' }, results: [] } as unknown as RunReport });
    expect(mergeConflicts([rep(1, 2), rep(2, 2)])).toEqual([]);
    expect(mergeConflicts([rep(1, 2), rep(1, 2)]).join()).toMatch(/load shard 1\/2 is given 2 times \(in s1 and s1\)/);
    expect(mergeConflicts([rep(1, 2), rep(2, 3)]).join()).toMatch(/different shard counts/);
  });
});
