// compare on the transport table (src/core/transports.ts): each WebSocket check's outcome on each
// socket route it judged, BASE and NEW side by side, where they differ. The checks themselves
// are compared (and counted as regressions) by compare.ts; this names the route a change is on,
// and a change of route under one outcome (a check that failed on realtime now fails on
// responses). MCP and A2A are areas of checks: compare.ts lists them check by check.
import { socketCells, transportTable, type SocketCell } from '../../core/transports.js';
import type { RunReport } from '../shared/types.js';

export interface TransportCellChange {
  check: string;
  route: string;
  /** The outcome on that route, or null where the run did not judge the route with that check. */
  base: string | null;
  now: string | null;
}

export interface TransportComparison {
  /** Cells of either run: how many were compared, and those that differ. */
  cells: number;
  changed: TransportCellChange[];
  /** The routes each run declared served (--websockets), when they differ. */
  served?: { base: string[]; now: string[] };
}

const cells = (r: RunReport): Map<string, SocketCell> => new Map(socketCells(transportTable(r.results, r.declared)).map((c) => [c.key, c]));

/** The socket cells of both runs paired by check and route; undefined when neither has one. */
export function compareTransports(base: RunReport, now: RunReport): TransportComparison | undefined {
  const [b, n] = [cells(base), cells(now)];
  const keys = [...new Set([...b.keys(), ...n.keys()])].sort();
  if (!keys.length) return undefined;
  const changed = keys.flatMap((k): TransportCellChange[] => {
    const [x, y] = [b.get(k), n.get(k)];
    if (x?.outcome === y?.outcome) return [];
    const c = (x ?? y)!;
    return [{ check: c.check, route: c.route, base: x?.outcome ?? null, now: y?.outcome ?? null }];
  });
  const [sb, sn] = [base.declared.websockets ?? [], now.declared.websockets ?? []];
  const served = sb.join() !== sn.join() ? { base: [...sb], now: [...sn] } : undefined;
  return { cells: keys.length, changed, ...(served ? { served } : {}) };
}

const state = (s: string | null) => s ?? '(not judged)';

/** The console's lines (none when neither run has socket cells). */
export function transportCompareLines(c: TransportComparison | undefined): string[] {
  if (!c) return [];
  const lines = ['', `websocket routes (each check's outcome per route): ${c.changed.length ? `${c.changed.length} of ${c.cells} cells differ` : `the ${c.cells} cells the same`}`];
  if (c.served) lines.push(`           served: ${c.served.base.join(', ') || 'none'} -> ${c.served.now.join(', ') || 'none'}`);
  for (const x of c.changed) lines.push(`           ${x.check} · ${x.route}: ${state(x.base)} -> ${state(x.now)}`);
  return lines;
}
