// Shards and merged reports: --shard i/n picks a stable slice of the checks;
// merge-reports puts the shards' JSON reports back together, and refuses runs that do not add up.
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordingUpstream } from '../../../mocks/upstream/server.js';
import { DEMO_UPSTREAM_TIMEOUT_MS, ReferenceGateway } from '../../../reference/gateway.js';
import { faultByName } from '../../../reference/faults/index.js';
import { runSuite } from '../../../src/runner/run.js';
import { resolveConfig } from '../../../src/config/config.js';
import { hashSlice, shardIds } from '../../../src/runner/shard.js';
import { mergeConflicts, mergeReports } from '../../../src/report/run/merge.js';
import type { RunReport } from '../../../src/report/shared/types.js';
import { NOT_RUN } from '../../../src/report/shared/policy.js';
import { CHECKS } from '../../../suites/index.js';
import { cliInProcess } from '../../helpers/in-process.js';
import { TIME_JUDGED } from '../../helpers/untimed.js';

const ids = CHECKS.filter((c) => c.profile === 'default').map((c) => c.id);

describe('shard selection', () => {
  it('the slices of n cover every check exactly once, and a check keeps its slice whatever else is selected', () => {
    for (const n of [1, 2, 4, 7]) {
      const slices = Array.from({ length: n }, (_, i) => shardIds(ids, i + 1, n));
      expect(slices.reduce((t, s) => t + s.size, 0)).toBe(ids.length);
      expect(new Set(slices.flatMap((s) => [...s]))).toEqual(new Set(ids));
    }
    const some = ids.filter((_, i) => i % 3 === 0);
    for (const id of some) expect(shardIds(some, hashSlice(id, 4) + 1, 4).has(id)).toBe(true);
  });

  it('with durations the slices are balanced: no slice exceeds the ideal by more than the longest check', () => {
    const durations = Object.fromEntries(ids.map((id, i) => [id, ((i * 7919) % 97) * 10 + 5]));
    const total = Object.values(durations).reduce((a, b) => a + b, 0);
    const longest = Math.max(...Object.values(durations));
    const loads = [1, 2, 3, 4].map((i) => [...shardIds(ids, i, 4, durations)].reduce((t, id) => t + durations[id], 0));
    expect(loads.reduce((a, b) => a + b, 0)).toBe(total);
    for (const l of loads) expect(l).toBeLessThanOrEqual(total / 4 + longest);
    // By hash alone the same durations are less even (the reason for --shard-durations).
    const hashLoads = [1, 2, 3, 4].map((i) => [...shardIds(ids, i, 4)].reduce((t, id) => t + durations[id], 0));
    expect(Math.max(...loads) - Math.min(...loads)).toBeLessThan(Math.max(...hashLoads) - Math.min(...hashLoads));
  });

  it('rejects a malformed --shard', () => {
    expect(() => resolveConfig({ shard: '5/4' }, {}, {})).toThrow(/--shard: expected i\/n with 1 <= i <= n <= 1000/);
    expect(() => resolveConfig({ shard: 'two' }, {}, {})).toThrow(/--shard/);
  });
});

/** Runs against one reference gateway (with a fault, so some checks fail): unsharded, then four shards. */
async function runs(): Promise<{ whole: RunReport; shards: RunReport[] }> {
  const upstream = new RecordingUpstream();
  await upstream.start('127.0.0.1', 0);
  const gw = new ReferenceGateway({ upstream: upstream.url, fault: faultByName('drop-unknown-fields'), upstreamTimeoutMs: DEMO_UPSTREAM_TIMEOUT_MS });
  try {
    const target = await gw.start('127.0.0.1', 0);
    // Without the checks that judge time (test/helpers/untimed.ts): the slicing and merging are
    // tested, on verdicts that do not depend on the machine's load.
    const run = (flags: Record<string, string>) => runSuite(CHECKS, resolveConfig({ seed: '3', reporter: ['json'], skip: TIME_JUDGED, ...flags }, {}, {}), target, upstream, () => {});
    const whole = await run({});
    const shards: RunReport[] = [];
    for (const i of [1, 2, 3, 4]) shards.push(await run({ shard: `${i}/4` }));
    return { whole, shards };
  } finally {
    await gw.stop();
    await upstream.stop();
  }
}

describe('four shards merged equal the unsharded run', () => {
  it('same verdicts, same order, same exit code; merge-reports writes every reporter and refuses a mismatched run', { timeout: 150_000 }, async () => {
    const { whole, shards } = await runs();
    expect(shards.map((s) => s.shard)).toEqual([1, 2, 3, 4].map((index) => ({ index, count: 4, balancedBy: 'id-hash' })));
    expect(shards.every((s) => s.results.length > 0)).toBe(true);
    const { report: merged, notes } = mergeReports(
      shards.map((report, i) => ({ name: `shard-${i + 1}`, report })),
      { order: CHECKS.map((c) => c.id) },
    );
    expect(notes).toEqual([]);
    const verdicts = (r: RunReport) => r.results.map((x) => [x.id, x.outcome]);
    expect(verdicts(merged)).toEqual(verdicts(whole));
    expect(whole.results.some((x) => x.outcome === 'fail')).toBe(true);
    expect(merged.summary).toEqual(whole.summary);
    expect(merged.exitCode).toBe(whole.exitCode);

    // The CLI: write the shard reports as CI would, merge them.
    const root = mkdtempSync(join(tmpdir(), 'gwc-shards-'));
    const dirs = shards.map((s, i) => {
      const d = join(root, `shard-${i + 1}`);
      mkdirSync(d);
      writeFileSync(join(d, 'report.json'), JSON.stringify(s));
      return d;
    });
    const out = join(root, 'merged');
    const ok = await cliInProcess(['merge-reports', ...dirs, '--out', out]);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(whole.exitCode);
    const written = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunReport;
    expect(verdicts(written)).toEqual(verdicts(whole));
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toContain(`tests="${whole.results.length}"`);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('<!DOCTYPE html>');
    expect(ok.stdout).toMatch(/Result: FAILED/);

    // A shard of another seed and target is refused, and the refusal says why; --force merges it.
    const odd = join(root, 'odd');
    mkdirSync(odd);
    writeFileSync(join(odd, 'report.json'), JSON.stringify({ ...shards[3], seed: 99, target: 'http://127.0.0.1:1' }));
    const refused = await cliInProcess(['merge-reports', dirs[0], dirs[1], dirs[2], odd, '--out', join(root, 'no')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/refusing to merge: different seeds: 3 in .*shard-1.*; 99 in .*odd; different targets: /);
    const forced = await cliInProcess(['merge-reports', dirs[0], dirs[1], dirs[2], odd, '--out', join(root, 'forced'), '--force', '--reporter', 'json']);
    expect(forced.code).toBe(whole.exitCode);
    expect(forced.stderr).toMatch(/--force: different seeds/);

    // One shard stopped by Ctrl-C: the merged run has no verdict either (130, interrupted).
    const stopped = { ...shards[1], interrupted: true, exitCode: 130 as const, results: shards[1].results.map((x, k) => (k === 0 ? { ...x, outcome: 'skip' as const, message: NOT_RUN } : x)) };
    const part = mergeReports([{ name: 'a', report: shards[0] }, { name: 'b', report: stopped }, { name: 'c', report: shards[2] }, { name: 'd', report: shards[3] }]).report;
    expect([part.interrupted, part.exitCode]).toEqual([true, 130]);
  });

  it('names each conflict: harness version, seed, target, and a check in two reports', () => {
    const base = { schemaVersion: '1.5.0', harness: { name: 'gw-conformance', version: '1' }, target: 't', upstream: null, profile: 'default', declared: { protocols: [] }, seed: 1, strict: false, startedAt: '', finishedAt: '', durationMs: 0, summary: {}, exitCode: 0, unmatchedRequests: [] };
    const r = (over: object, results: string[]) => ({ ...base, ...over, results: results.map((id) => ({ id })) }) as unknown as RunReport;
    expect(mergeConflicts([{ name: 'a', report: r({}, ['x.y']) }, { name: 'b', report: r({ harness: { name: 'gw-conformance', version: '2' } }, ['x.y']) }])).toEqual([
      'different harness versions: "1" in a; "2" in b',
      'check x.y is in both a and b',
    ]);
  });
});
