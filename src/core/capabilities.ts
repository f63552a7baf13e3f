// The capability matrix's words, shared by the options, the checks and the reports: the features
// a gateway may or may not carry beyond protocol compatibility (which protocol offers which is
// its record's `features`, src/protocols/), a cell of the matrix (protocol, route, feature,
// streaming or not: pass, fail or not offered), and how the cells are read back from a run's
// results. Imports nothing.

/** Every feature the matrix probes; a protocol probes the ones its record offers (its `features`). */
export const CAPABILITIES = ['tools', 'images', 'documents', 'thinking', 'cache-5m', 'cache-1h', 'json-mode', 'web-search', 'context-1m', 'citations', 'server-tools', 'tool-search'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** The area of the capability checks: they run only when the matrix is asked for. */
export const CAPABILITY_AREA = 'capabilities';

export type CellState = 'pass' | 'fail' | 'not-offered';
export type CellMode = 'json' | 'stream';

export interface CapabilityCell {
  protocol: string;
  /** The requested model: the protocol's default, or a model the run declares routed elsewhere. */
  route: string;
  feature: Capability;
  mode: CellMode;
  state: CellState;
  /** The user requires this feature (--require-capability): a fail or not-offered cell fails the run. */
  required: boolean;
  /** What broke (fail) or how the gateway refused (not offered); empty when it passed. */
  evidence: string[];
}

/** The cells a capability check put in its evidence. */
export function cellsOf(results: ReadonlyArray<{ area: string; evidence: Record<string, unknown> }>): CapabilityCell[] {
  return results.filter((r) => r.area === CAPABILITY_AREA).flatMap((r) => (Array.isArray(r.evidence.cells) ? (r.evidence.cells as CapabilityCell[]) : []));
}

/** One row per protocol and route, one column per feature: the cell's json and stream states joined. */
export function matrixRows(cells: readonly CapabilityCell[]): { features: Capability[]; rows: Array<{ protocol: string; route: string; cells: Map<Capability, CapabilityCell[]> }> } {
  const features = CAPABILITIES.filter((f) => cells.some((c) => c.feature === f));
  const rows = new Map<string, { protocol: string; route: string; cells: Map<Capability, CapabilityCell[]> }>();
  for (const c of cells) {
    const key = `${c.protocol}\u0000${c.route}`;
    if (!rows.has(key)) rows.set(key, { protocol: c.protocol, route: c.route, cells: new Map() });
    const row = rows.get(key)!;
    row.cells.set(c.feature, [...(row.cells.get(c.feature) ?? []), c]);
  }
  return { features, rows: [...rows.values()] };
}

/** The worst state of a feature's cells (fail over not offered over pass), for a one-glyph view. */
export function worstState(cells: readonly CapabilityCell[]): CellState {
  return cells.some((c) => c.state === 'fail') ? 'fail' : cells.some((c) => c.state === 'not-offered') ? 'not-offered' : 'pass';
}

export const STATE_GLYPH: Record<CellState, string> = { pass: 'ok', fail: 'FAIL', 'not-offered': 'n/o' };

/** The capability matrix as a Markdown table (one row per protocol and route), or nothing. */
export function capabilityMarkdown(cells: readonly CapabilityCell[]): string[] {
  if (!cells.length) return [];
  const { features, rows } = matrixRows(cells);
  const cell = (cs: CapabilityCell[] | undefined) => (cs?.length ? `${worstState(cs)}${cs.some((c) => c.required) ? ' (required)' : ''}` : '-');
  return ['## Capability matrix', '', `| protocol | route | ${features.join(' | ')} |`, `|---|---|${features.map(() => '---|').join('')}`, ...rows.map((r) => `| ${r.protocol} | ${r.route} | ${features.map((f) => cell(r.cells.get(f))).join(' | ')} |`), '', 'Each cell: pass (intact both ways, JSON and streamed), fail, or not-offered (refused explicitly); the evidence is in `conformance-report.yaml` and `report.json`.', ''];
}
