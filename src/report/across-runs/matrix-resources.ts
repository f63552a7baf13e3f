// The launched gateways' memory, CPU and cold start as rows of the matrix (a figure per row, a run
// per column): the one list of those rows, which the Markdown and HTML matrices both draw.
import { mb } from '../../core/resources.js';
import type { Matrix, MatrixRun } from './matrix.js';

/** One figure of the resources: its name, and its text in each run's column ('' when the run has none). */
export interface ResourceRow {
  name: string;
  cells: string[];
}

/** The resource rows, or none when no run launched its gateway with resources recorded. */
export function resourceRows(m: Matrix): ResourceRow[] {
  if (!m.runs.some((r) => r.resources)) return [];
  const row = (name: string, of: (r: NonNullable<MatrixRun['resources']>) => string): ResourceRow => ({ name, cells: m.runs.map((r) => (r.resources ? of(r.resources) : '')) });
  const ms = (x: number | null) => (x === null ? '-' : `${x} ms`);
  const pct = (x: number | null) => (x === null ? '-' : `${x} %`);
  return [
    row('memory idle / steady / peak', (r) => `${mb(r.memory.idle)} / ${mb(r.memory.steady)} / ${mb(r.memory.peak)}`),
    row('memory after the load', (r) => mb(r.memory.afterLoad)),
    row('growth per 10,000 requests', (r) => mb(r.memory.growthPer10k)),
    row('CPU idle / steady / peak (of one core)', (r) => `${pct(r.cpu.idle)} / ${pct(r.cpu.steady)} / ${pct(r.cpu.peak)}`),
    row('cold start: listening / first good answer', (r) => `${ms(r.coldStart.readyMs)} / ${ms(r.coldStart.firstAnswerMs)}`),
    row('image size', (r) => (r.imageBytes === undefined ? '' : mb(r.imageBytes))),
    row('measured by', (r) => r.source),
  ];
}
