// The WebSocket routes as rows of the matrix: one row per sockets check and socket route any run
// judged, a run per column, each cell that check's outcome on that route in that run (read back
// from the results by src/core/transports.ts; '-' where the run did not judge the route with the
// check). The one list of those rows, which the JSON, Markdown and HTML matrices all carry.
import { socketCells, transportTable, type TransportResult } from '../../core/transports.js';

export interface MatrixSocketRow {
  check: string;
  route: string;
  /** One per run, in the order of the runs: the outcome, or null where the run did not judge it. */
  cells: Array<string | null>;
}

type Results = ReadonlyArray<{ id: string; area?: string; outcome: string; message?: string; evidence?: Record<string, unknown> }>;

/** The rows of these runs' results (in the runs' order); none when no run has a socket cell. */
export function socketRows(runs: ReadonlyArray<{ results: Results }>): MatrixSocketRow[] {
  const rows = new Map<string, MatrixSocketRow>();
  runs.forEach((r, i) => {
    const results: TransportResult[] = r.results.map((x) => ({ id: x.id, area: x.area ?? x.id.split('.')[0], outcome: x.outcome, message: x.message ?? '', evidence: x.evidence ?? {} }));
    for (const c of socketCells(transportTable(results, { protocols: [] }))) {
      if (!rows.has(c.key)) rows.set(c.key, { check: c.check, route: c.route, cells: runs.map(() => null) });
      rows.get(c.key)!.cells[i] = c.outcome;
    }
  });
  return [...rows.values()];
}
