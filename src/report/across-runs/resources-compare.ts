// compare on the launched gateway's resources (report.launched.resources): memory and cold start
// of BASE and NEW side by side. A figure that grew past its threshold, both as a share and as an
// amount, is a regression like a check that passed and now fails.
import type { GatewayResources } from '../../core/resources.js';
import type { RunReport } from '../shared/types.js';

export interface ResourceRow {
  figure: string;
  unit: 'bytes' | 'ms';
  base: number | null;
  now: number | null;
  regression: boolean;
}

export interface ResourceComparison {
  rows: ResourceRow[];
  regressions: number;
  thresholds: { memoryShare: number; memoryBytes: number; coldStartShare: number; coldStartMs: number };
}

/**
 * Memory: more than a quarter and more than 10 MB up. Runs of one gateway under one profile differ
 * by when its garbage was collected: the clean reference gateway's peak moved by up to a sixth
 * between runs here; a leak or a new cache shows as much more.
 */
export const MEMORY_SHARE = 0.25;
export const MEMORY_BYTES = 10_000_000;
/**
 * Cold start: more than half and more than 500 ms up. The reference gateway's start (a Node
 * process loading its code) varied by up to 15 % between runs on a loaded machine.
 */
export const COLD_START_SHARE = 0.5;
export const COLD_START_MS = 500;

const FIGURES: Array<{ figure: string; unit: 'bytes' | 'ms'; of: (r: GatewayResources) => number | null | undefined; judged: boolean }> = [
  { figure: 'memory idle', unit: 'bytes', of: (r) => r.memory.idle, judged: true },
  { figure: 'memory steady', unit: 'bytes', of: (r) => r.memory.steady, judged: true },
  { figure: 'memory peak', unit: 'bytes', of: (r) => r.memory.peak, judged: true },
  { figure: 'memory after the load', unit: 'bytes', of: (r) => r.memory.afterLoad, judged: true },
  { figure: 'memory growth per 10,000 requests', unit: 'bytes', of: (r) => r.memory.growthPer10k, judged: true },
  { figure: 'cold start to listening', unit: 'ms', of: (r) => r.coldStart.readyMs, judged: true },
  { figure: 'cold start to the first good answer', unit: 'ms', of: (r) => r.coldStart.firstAnswerMs, judged: true },
  { figure: 'image size', unit: 'bytes', of: (r) => r.imageBytes, judged: false },
];

/** Whether `now` is past its threshold over `base`. */
export function regressed(unit: 'bytes' | 'ms', base: number | null, now: number | null): boolean {
  if (base === null || now === null) return false;
  const [share, amount] = unit === 'bytes' ? [MEMORY_SHARE, MEMORY_BYTES] : [COLD_START_SHARE, COLD_START_MS];
  return now - base > amount && now > base * (1 + share);
}

/** The resource figures of two runs; null when neither launched its gateway with readings. */
export function compareResources(base: RunReport, now: RunReport): ResourceComparison | null {
  const [b, n] = [base.launched?.resources, now.launched?.resources];
  if (!b && !n) return null;
  const rows = FIGURES.map((f) => {
    const [bv, nv] = [b ? (f.of(b) ?? null) : null, n ? (f.of(n) ?? null) : null];
    return { figure: f.figure, unit: f.unit, base: bv, now: nv, regression: f.judged && regressed(f.unit, bv, nv) };
  }).filter((r) => r.base !== null || r.now !== null);
  return { rows, regressions: rows.filter((r) => r.regression).length, thresholds: { memoryShare: MEMORY_SHARE, memoryBytes: MEMORY_BYTES, coldStartShare: COLD_START_SHARE, coldStartMs: COLD_START_MS } };
}

const shown = (unit: 'bytes' | 'ms', v: number | null) => (v === null ? '-' : unit === 'bytes' ? `${(v / 1e6).toFixed(1)} MB` : `${Math.round(v)} ms`);

/** The console's lines: one per figure, a regression marked. */
export function resourceLines(c: ResourceComparison | undefined): string[] {
  if (!c) return [];
  return ['', 'gateway resources (launched by the harness):', ...c.rows.map((r) => `${r.regression ? 'REGRESSION' : '          '} ${r.figure}: ${shown(r.unit, r.base)} -> ${shown(r.unit, r.now)}`)];
}
