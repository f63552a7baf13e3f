// The transport table's words, shared by the reports: the traffic beyond request and response
// (the WebSocket routes, MCP, A2A) read back from a run's results. A sockets check names the
// route it judged in its evidence (`route`, or `routes[].route` when it judged several), so one
// cell is one check on one route with that check's outcome; a route a check did not judge has no
// cell (most sockets checks judge the first served route only). MCP and A2A are one line each:
// declared or not, and their checks' outcomes. Imports only core.
import { SOCKET_ROUTES } from './protocols.js';

/** The area of the WebSocket checks (suites/sockets/). */
export const SOCKETS_AREA = 'sockets';
/** The areas judged as one transport each, beside the sockets. */
export const TRANSPORT_AREAS = ['mcp', 'a2a'] as const;

export interface TransportResult {
  id: string;
  area: string;
  outcome: string;
  message: string;
  evidence: Record<string, unknown>;
}

export interface SocketRow {
  check: string;
  /** The outcome on each route the check judged (route name → outcome). */
  cells: Map<string, string>;
  /** The check's message, for a cell that did not pass. */
  message: string;
}

export interface AreaLine {
  area: (typeof TRANSPORT_AREAS)[number];
  declared: boolean;
  counts: Record<string, number>;
  /** The checks whose outcome is not pass, with it. */
  notPassing: Array<{ id: string; outcome: string }>;
}

export interface TransportTable {
  /** The routes as columns: every socket route, in their fixed order. */
  routes: string[];
  /** The routes the run declared served (--websockets). */
  served: string[];
  rows: SocketRow[];
  areas: AreaLine[];
}

/** The routes a sockets check's evidence names: `route`, or the `route` of each of `routes`. */
export function routesOfEvidence(e: Record<string, unknown>): string[] {
  if (typeof e.route === 'string') return [e.route];
  if (!Array.isArray(e.routes)) return [];
  return e.routes.flatMap((r) => (r && typeof r === 'object' && typeof (r as { route?: unknown }).route === 'string' ? [(r as { route: string }).route] : []));
}

/** The table of a run's results; null when no sockets, MCP or A2A check ran. */
export function transportTable(results: readonly TransportResult[], declared: { protocols: readonly string[]; websockets?: readonly string[] }): TransportTable | null {
  const sockets = results.filter((r) => r.area === SOCKETS_AREA);
  const areas = TRANSPORT_AREAS.flatMap((area): AreaLine[] => {
    const rs = results.filter((r) => r.area === area);
    if (!rs.length) return [];
    const counts: Record<string, number> = {};
    for (const r of rs) counts[r.outcome] = (counts[r.outcome] ?? 0) + 1;
    return [{ area, declared: declared.protocols.includes(area), counts, notPassing: rs.filter((r) => r.outcome !== 'pass').map((r) => ({ id: r.id, outcome: r.outcome })) }];
  });
  if (!sockets.length && !areas.length) return null;
  const rows = sockets.map((r) => ({ check: r.id, message: r.message, cells: new Map(routesOfEvidence(r.evidence).filter((x) => (SOCKET_ROUTES as readonly string[]).includes(x)).map((x) => [x, r.outcome] as const)) }));
  return { routes: [...SOCKET_ROUTES], served: [...(declared.websockets ?? [])], rows, areas };
}

/** One cell: a check's outcome on one route, keyed by the two (what two runs' cells pair by). */
export interface SocketCell {
  key: string;
  check: string;
  route: string;
  outcome: string;
}

/** Every cell of a table, row by row; none without a table. */
export function socketCells(t: TransportTable | null): SocketCell[] {
  return (t?.rows ?? []).flatMap((row) => [...row.cells].map(([route, outcome]) => ({ key: `${row.check}\u0000${route}`, check: row.check, route, outcome })));
}

/** An outcome as a cell's short text. */
export const OUTCOME_GLYPH: Record<string, string> = { pass: 'ok', fail: 'FAIL', warn: 'warn', info: 'info', skip: 'skip', error: 'ERROR', timeout: 'TIMEOUT', waived: 'waived', flaky: 'flaky' };

/** The counts of an area line as text: `13 pass, 1 fail`, in the outcomes' order. */
export function countsText(counts: Record<string, number>): string {
  return Object.keys(OUTCOME_GLYPH)
    .filter((o) => counts[o])
    .map((o) => `${counts[o]} ${o}`)
    .join(', ');
}

/**
 * A protocol's WebSocket carriage in one word, from the table's cells on its socket routes
 * (`routes`): '-' when it has none or no socket check ran, 'n/s' when none is served, else the
 * worst outcome of the checks on its served routes (FAIL over warn over skip over ok).
 */
export function socketWord(t: TransportTable | null, routes: readonly string[]): string {
  if (!t || !routes.length || !t.rows.length) return '-';
  const served = routes.filter((r) => t.served.includes(r));
  if (!served.length) return 'n/s';
  const outcomes = t.rows.flatMap((row) => served.flatMap((r) => (row.cells.has(r) ? [row.cells.get(r)!] : [])));
  if (!outcomes.length) return '-';
  for (const [o, word] of [['fail', 'FAIL'], ['error', 'FAIL'], ['timeout', 'FAIL'], ['warn', 'warn'], ['skip', 'skip']] as const) if (outcomes.includes(o)) return word;
  return 'ok';
}
