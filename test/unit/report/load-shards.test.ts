// Load shards side by side in merge-reports: other builds, other settings and a shard given twice
// refused with the shards named; a shard whose calibration is far from the others' flagged.
import { describe, expect, it } from 'vitest';
import { loadConflicts, loadShardLines, mergedLoad } from '../../../src/report/run/load-shards.js';
import { judgeCalibration, stand } from '../../../src/report/run/load-calibration.js';
import { mergeConflicts } from '../../../src/report/run/merge.js';
import type { LoadCalibration, RunReport } from '../../../src/report/shared/types.js';

/** A calibration whose least CPU try is cpuMs, its tries' lower quartile (the figure judged) `spread` ms above it and their median 2 × `spread` above. */
const cal = (cpuMs: number, p99: number, achieved = 100, spread = 2): LoadCalibration => ({ rate: 100, requests: 100, achieved, failures: 0, latencyMs: { p50: p99 / 3, p99 }, histogram: '', cpuMs, cpu: { tries: 12, minMs: cpuMs, lowerQuartileMs: cpuMs + spread, medianMs: cpuMs + 2 * spread, maxMs: cpuMs + 4 * spread } });
const flagOf = (c: LoadCalibration, others: LoadCalibration[]) => judgeCalibration(c, others).flagged;
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

  it('flags the shard whose CPU tries\' lower quartile is far beyond the others\' noise, and no other; a straight p99 far off alone is a note', () => {
    const named = [shard(1), shard(2), shard(3, { calibration: cal(150, 3) }), shard(4)];
    const m = mergedLoad(named)!;
    expect(m.shards!.map((s) => s.flagged === undefined)).toEqual([true, true, false, true]);
    expect(m.shards!.map((s) => s.unjudged)).toEqual([undefined, undefined, undefined, undefined]);
    // The margin is written beside the flag: the others' lower quartile 62 ms, their noise 0 ms, the bound 124 ms (2 × 62).
    expect(m.shards![2].flagged).toMatch(/the lower quartile of its CPU tries took 152 ms against the others' 62 ms \(bound 124 ms: their 62 ms \+ 3 × their noise 0 ms, and at least 2 times theirs\)/);
    // A tail far off with CPU tries within the others' is one slow answer: noted, not flagged.
    expect(judgeCalibration(cal(60, 17), [cal(60, 3), cal(61, 4)])).toEqual({ noted: expect.stringMatching(/^not flagged: its p99 straight to the upstream was 17 ms against the others' 3\.5 ms \(bound 15\.8 ms: .*at least 4\.5 times theirs.*; one slow answer makes the p99/) });
    expect(judgeCalibration(cal(60, 15), [cal(60, 3), cal(61, 4)])).toEqual({});
    // Beside a CPU figure past its bound, the tail is part of the flag.
    expect(flagOf(cal(150, 17), [cal(60, 3), cal(61, 4)])).toMatch(/CPU tries took 152 ms .*; its p99 straight to the upstream was 17 ms/);
    // Within the margins: 1.2 times the others' lower quartile, a p99 2 ms up, is the noise of one machine.
    expect(flagOf(cal(75, 5), [cal(60, 3), cal(60, 3)])).toBeUndefined();
    expect(flagOf(cal(60, 3, 50), [cal(60, 3), cal(60, 3)])).toMatch(/reached 50\/s of 100\/s/);
    // A shortfall of a second's calibration whose slowest answers take a third of it is not judged.
    const slowReach = judgeCalibration(cal(60, 300, 75), [cal(60, 300), cal(60, 250)]);
    expect(slowReach.flagged).toBeUndefined();
    expect(slowReach.unjudged).toMatch(/it reached 75\/s of 100\/s, but the straight p99 of 3 shard\(s\) took over 10 % of the calibration's 1000 ms/);
    const lines = loadShardLines({ ...named[0].report, load: m });
    expect(lines).toHaveLength(4);
    expect(lines[2]).toMatch(/^shard 3: .*CPU work least 150 ms of 12 tries \(lower quartile 152, median 154, most 158 ms\).*FLAGGED/);
  });

  it('one busy shard among the others does not move their middle or their noise', () => {
    // Judging shard 1 against a busy shard 2 and two quiet ones: the middle is 64 ms, the noise 1 ms, the bound 2 × 64 ms.
    const s = stand(62, [152, 63, 64], 2);
    expect(s).toEqual({ value: 62, middle: 64, noise: 1, bound: 128, verdict: 'within' });
    expect(judgeCalibration(cal(60, 3), [cal(150, 3), cal(61, 3), cal(62, 3)])).toEqual({});
  });

  it('says "could not judge" when the others stray too far to tell a busy machine from noise', () => {
    // The others' lower quartiles 22, 62 and 102 ms: they stray by 40 ms around 62 ms, over half of it.
    const far = [cal(20, 3), cal(60, 3), cal(100, 3)];
    const j = judgeCalibration(cal(300, 3), far);
    expect(j.flagged).toBeUndefined();
    expect(j.unjudged).toMatch(/^could not judge: the other shards' CPU tries \(lower quartile\) stray by 40 ms around 62 ms \(over 0\.5 of it\), so its 302 ms cannot tell a busy machine from noise$/);
    // How far a shard's own tries spread is not the shards' noise: partners whose least tries do not repeat still judge by their lower quartile.
    expect(judgeCalibration(cal(300, 3), [cal(60, 3, 100, 40), cal(60, 3, 100, 40)])).toEqual({ flagged: expect.stringMatching(/the lower quartile of its CPU tries took 302 ms against the others' 100 ms/) });
    // A p99 among wildly different p99s says nothing: no flag, no note.
    expect(judgeCalibration(cal(60, 90), [cal(60, 2), cal(60, 30), cal(60, 60)])).toEqual({});
    const m = mergedLoad([shard(1, { calibration: cal(20, 3) }), shard(2, { calibration: cal(60, 3) }), shard(3, { calibration: cal(100, 3) }), shard(4, { calibration: cal(300, 3) })])!;
    expect(loadShardLines({ ...shard(1).report, load: m })[3]).toMatch(/^shard 4: .*; could not judge: /);
  });

  it('reads older calibrations that recorded only the least CPU try', () => {
    const old = (cpuMs: number): LoadCalibration => ({ ...cal(cpuMs, 3), cpu: undefined });
    expect(judgeCalibration(old(150), [old(60), old(60), old(61)]).flagged).toMatch(/least CPU try took 150 ms against the others' 60 ms/);
    expect(loadShardLines({ ...shard(1).report, load: mergedLoad([shard(1, { calibration: old(60) }), shard(2, { calibration: old(60) })])! })[0]).toMatch(/CPU work 60 ms/);
  });

  it('shows how far apart the shards sent their first load request', () => {
    const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
    const m = mergedLoad([1, 2, 3, 4].map((i) => shard(i, { firstRequestAt: at(i * 7) })))!;
    expect(loadShardLines({ ...shard(1).report, load: m }).at(-1)).toBe('first load requests of the shards within 21 ms of each other');
  });
});
