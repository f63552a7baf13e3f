// The load shards of one run, side by side: merge-reports refuses shards of different harness
// builds or load settings and a shard given twice (saying which), and shows each shard's
// calibration, flagging a shard whose calibration is far from the others' (its machine was slow
// or busy, so its figures say more of that machine than of the gateway) or saying it could not
// judge when the figures are too noisy (src/report/run/load-calibration.ts).
import type { LoadCalibration, LoadRunInfo, RunReport } from '../shared/types.js';
import { cpuText } from '../../load/calibrate.js';
import { judgeCalibration } from './load-calibration.js';

type Named = Array<{ name: string; report: RunReport }>;

/** Why the load shards do not make one run: other builds, other settings, a shard twice (empty when they do). */
export function loadConflicts(named: Named): string[] {
  const out: string[] = [];
  const group = (of: (r: RunReport) => unknown) => {
    const m = new Map<string, string[]>();
    for (const n of named) m.set(JSON.stringify(of(n.report) ?? null), [...(m.get(JSON.stringify(of(n.report) ?? null)) ?? []), `${n.report.shard?.index ?? '?'} (${n.name})`]);
    return m;
  };
  const builds = group((r) => r.load?.build);
  if (builds.size > 1) out.push(`load shards of different harness builds: ${[...builds].map(([b, s]) => `${JSON.parse(b) ?? 'none recorded'} in shard ${s.join(', ')}`).join('; ')}`);
  const settings = group((r) => r.load?.settings);
  if (settings.size > 1) out.push(`load shards with different load settings: ${[...settings].map(([v, s]) => `${v} in shard ${s.join(', ')}`).join('; ')}`);
  const byIndex = new Map<number, string[]>();
  for (const n of named) if (n.report.shard) byIndex.set(n.report.shard.index, [...(byIndex.get(n.report.shard.index) ?? []), n.name]);
  for (const [i, names] of byIndex) if (names.length > 1) out.push(`load shard ${i}/${named[0].report.shard!.count} is given ${names.length} times (in ${names.join(' and ')})`);
  return out;
}

/** The merged report's load part: the first shard's build and settings, and each shard's calibration, start and flag. */
export function mergedLoad(named: Named): LoadRunInfo | undefined {
  const sorted = [...named].filter((n) => n.report.load).sort((a, b) => a.report.shard!.index - b.report.shard!.index);
  if (!sorted.length) return undefined;
  const cal = sorted.map((n) => n.report.load!.calibration ?? null);
  const shards = sorted.map((n, i) => {
    const c = cal[i];
    const others = cal.filter((x, j): x is LoadCalibration => j !== i && x !== null);
    const judged = c ? judgeCalibration(c, others) : {};
    const { start, firstRequestAt } = n.report.load!;
    return { shard: n.report.shard!.index, calibration: c, ...(start ? { start } : {}), ...(firstRequestAt ? { firstRequestAt } : {}), ...judged };
  });
  return { build: sorted[0].report.load!.build, settings: sorted[0].report.load!.settings, shards };
}

/** The spread (ms) of the shards' first load requests, when each recorded one. */
export function firstRequestSpreadMs(info: LoadRunInfo): number | null {
  const at = (info.shards ?? []).map((s) => (s.firstRequestAt ? Date.parse(s.firstRequestAt) : NaN));
  return at.length && at.every(Number.isFinite) ? Math.max(...at) - Math.min(...at) : null;
}

/** One line per shard for the console: its calibration, its start, its flag. */
export function loadShardLines(report: RunReport): string[] {
  const info = report.load;
  if (!info?.shards) return [];
  const lines = info.shards.map((s) => {
    const c = s.calibration;
    const cal = c ? `calibration straight p50 ${c.latencyMs.p50} ms, p99 ${c.latencyMs.p99} ms at ${c.achieved}/s of ${c.rate}/s, CPU work ${cpuText(c)}` : 'no calibration recorded';
    const start = `${s.start ? `; waited ${s.start.waitedMs} ms at the barrier for ${s.start.registered} shards` : ''}${s.firstRequestAt ? `; first load request ${s.firstRequestAt}` : ''}`;
    return `shard ${s.shard}: ${cal}${start}${s.flagged ? `; FLAGGED: ${s.flagged}` : ''}${s.unjudged ? `; ${s.unjudged}` : ''}${s.noted ? `; ${s.noted}` : ''}`;
  });
  const spread = firstRequestSpreadMs(info);
  return spread === null ? lines : [...lines, `first load requests of the shards within ${spread} ms of each other`];
}
