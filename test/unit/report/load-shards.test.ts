// Load shards side by side in merge-reports: other builds, other settings and a shard given twice
// refused with the shards named; a shard whose calibration is far from the others' flagged.
import { describe, expect, it } from 'vitest';
import { flagOf, loadConflicts, loadShardLines, mergedLoad } from '../../../src/report/run/load-shards.js';
import { mergeConflicts } from '../../../src/report/run/merge.js';
import type { LoadCalibration, RunReport } from '../../../src/report/shared/types.js';

const cal = (cpuMs: number, p99: number, achieved = 100): LoadCalibration => ({ rate: 100, requests: 100, achieved, failures: 0, latencyMs: { p50: p99 / 3, p99 }, histogram: '', cpuMs });
const settings = { rate: 100, requests: 100, durationS: 1, clients: 2, protocols: ['messages'] };
const shard = (index: number, over: Partial<NonNullable<RunReport['load']>> = {}, count = 4): { name: string; report: RunReport } => ({
  name: `s${index}`,
  report: { schemaVersion: '1', harness: { name: 'gw-conformance', version: '1.0.0' }, target: 'http://t', upstream: null, profile: 'load', declared: { protocols: ['messages'] }, seed: 1, strict: false, startedAt: '', finishedAt: '', durationMs: 0, summary: {} as RunReport['summary'], exitCode: 0, results: [], unmatchedRequests: [], shard: { index, count, balancedBy: 'load' }, load: { build: '1.0.0+aaaa', settings, calibration: cal(60, 3), ...over } } as RunReport,
});

describe('load shards in merge-reports', () => {
  it('four matching shards make one run', () => {
    expect(mergeConflicts([1, 2, 3, 4].map((i) => shard(i)))).toEqual([]);
  });

  it('refuses another build, other settings, a shard twice and a missing one, and says which', () => {
    const mixed = [shard(1), shard(2, { build: '1.0.0+bbbb' }), shard(3, { settings: { ...settings, rate: 200 } }), shard(3)];
    const why = mergeConflicts(mixed).join('\n');
    expect(why).toMatch(/different harness builds: 1\.0\.0\+aaaa in shard 1 \(s1\), 3 \(s3\), 3 \(s3\); 1\.0\.0\+bbbb in shard 2 \(s2\)/);
    expect(why).toMatch(/different load settings: .*"rate":200.* in shard 3 \(s3\)/);
    expect(why).toMatch(/load shard 3\/4 is given 2 times \(in s3 and s3\)/);
    expect(why).toMatch(/shard 4\/4 is missing/);
    expect(loadConflicts([shard(1), shard(2, { build: undefined as unknown as string })]).join()).toMatch(/none recorded in shard 2/);
  });

  it('flags the shard whose CPU work or straight p99 is far from the others, and no other', () => {
    const named = [shard(1), shard(2), shard(3, { calibration: cal(150, 3) }), shard(4)];
    const m = mergedLoad(named)!;
    expect(m.shards!.map((s) => s.flagged === undefined)).toEqual([true, true, false, true]);
    expect(m.shards![2].flagged).toMatch(/CPU work took 150 ms against the others' 60 ms/);
    expect(flagOf(cal(60, 12), [cal(60, 3), cal(61, 4)])).toMatch(/p99 straight to the upstream was 12 ms/);
    // Within the margins: 1.4 times the CPU, a p99 2 ms up, is the noise of one machine.
    expect(flagOf(cal(84, 5), [cal(60, 3), cal(60, 3)])).toBeUndefined();
    expect(flagOf(cal(60, 3, 50), [cal(60, 3), cal(60, 3)])).toMatch(/reached 50\/s of 100\/s/);
    const lines = loadShardLines({ ...named[0].report, load: m });
    expect(lines).toHaveLength(4);
    expect(lines[2]).toMatch(/^shard 3: .*FLAGGED/);
  });

  it('shows how far apart the shards sent their first load request', () => {
    const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
    const m = mergedLoad([1, 2, 3, 4].map((i) => shard(i, { firstRequestAt: at(i * 7) })))!;
    expect(loadShardLines({ ...shard(1).report, load: m }).at(-1)).toBe('first load requests of the shards within 21 ms of each other');
  });
});
