// The calibration flag on recorded figures: the calibrations of 60 sets of four load shards run at
// once on a loaded machine (calibration-recorded.json, from `npm run bench:calibration`), 30 of
// them with one shard held to a tenth of a core. Judged as merge-reports judges them, the held
// shard is flagged in every set and no other shard is, in any set; and the spread the CPU bound
// is set against (src/report/run/load-calibration.ts) is the one these figures show.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CPU_FLAG_RATIO, judgeCalibration } from '../../../src/report/run/load-calibration.js';
import type { LoadCalibration } from '../../../src/report/shared/types.js';

interface RecordedSet {
  weight: number;
  constrained: number | null;
  calibrations: LoadCalibration[];
}
const recorded = JSON.parse(readFileSync(new URL('./calibration-recorded.json', import.meta.url), 'utf8')) as { sets: RecordedSet[] };
const others = (cal: LoadCalibration[], k: number) => cal.filter((_, j) => j !== k);
const flaggedIn = (cal: LoadCalibration[]) => cal.flatMap((c, k) => (judgeCalibration(c, others(cal, k)).flagged ? [k + 1] : []));
/** A shard's CPU figure (its tries' lower quartile) over the median of its three partners'. */
const overPartners = (cal: LoadCalibration[], k: number) => cal[k].cpu!.lowerQuartileMs / others(cal, k).map((c) => c.cpu!.lowerQuartileMs).sort((a, b) => a - b)[1];

describe('the calibration flag on recorded sets of shards', () => {
  const held = recorded.sets.filter((s) => s.constrained);
  const free = recorded.sets.filter((s) => !s.constrained);

  it('holds 30 sets of each kind, four shards each, as ordinary processes and weighted', () => {
    expect([held.length, free.length]).toEqual([30, 30]);
    for (const s of recorded.sets) expect(s.calibrations).toHaveLength(4);
    expect(recorded.sets.filter((s) => s.weight === 1)).toHaveLength(28);
  });

  it('flags the held shard, and only it, in every set with one', () => {
    expect(held.map((s) => flaggedIn(s.calibrations))).toEqual(held.map((s) => [s.constrained]));
  });

  it('flags no shard of a set with none held', () => {
    expect(free.map((s) => flaggedIn(s.calibrations))).toEqual(free.map(() => []));
  });

  it('sets the CPU bound past the spread of the shards not held, with a margin of 1.25 at least', () => {
    const spread = recorded.sets.flatMap((s) => s.calibrations.flatMap((_, k) => (k + 1 === s.constrained ? [] : [overPartners(s.calibrations, k)])));
    expect(spread).toHaveLength(210);
    expect(Math.max(...spread) * 1.25).toBeLessThan(CPU_FLAG_RATIO);
    // The held shards stand past the bound by their own figures.
    expect(Math.min(...held.map((s) => overPartners(s.calibrations, s.constrained! - 1)))).toBeGreaterThan(CPU_FLAG_RATIO);
  });
});
