// The matrix across many runs: gateways (one column per run) × checks, and gateways × capability
// cells (protocol, route, feature, JSON or streamed). A pure model built from finished reports (or
// from committed verdicts, src/report/across-runs/matrix-examples.ts); the HTML, Markdown and JSON outputs are
// functions of it. Its JSON shape is published as src/report/across-runs/matrix.schema.json.
// A check a run has no result for (not selected, not in that harness) is `not-applicable`, which
// is not a skip: a skip is a verdict the run gave.
import { socketRows, type MatrixSocketRow } from './matrix-sockets.js';
import type { GatewayResources } from '../../core/resources.js';
import { cellsOf, type CellMode, type CellState } from '../../core/capabilities.js';
import type { Level, Outcome } from '../../core/outcome.js';
import type { RunReport } from '../shared/types.js';

export const MATRIX_SCHEMA_VERSION = '1.1.0';
export const NOT_APPLICABLE = 'not-applicable';
export type CheckCell = Outcome | typeof NOT_APPLICABLE;
export type CapabilityValue = CellState | typeof NOT_APPLICABLE;

/** What names a run: its gateway and the versions its verdicts depend on. */
export interface MatrixRun {
  /** Column id, unique in the matrix (`r1`, `r2`, ...). */
  id: string;
  gateway: { name: string; version: string | null };
  /** The real clients' versions of a client-profile run (`openai 6.49.0`); empty otherwise. */
  clients: string[];
  harness: string;
  catalog: string;
  /** The day the run started (YYYY-MM-DD), or null when the verdicts carry no date. */
  date: string | null;
  profile: string;
  /** Gateway name and version, clients, harness, catalog and date in one line: what the run is keyed by. */
  key: string;
  /** Where the run came from (a folder, a file). */
  source: string;
  /** The run's HTML report, relative to the matrix (its checks are anchored `#<check-id>`), or null. */
  evidence: string | null;
  exitCode: number | null;
  /** The gateway's memory, CPU and cold start when the harness launched it (report.launched.resources). */
  resources?: GatewayResources;
}

export interface MatrixCheckRow {
  id: string;
  title: string;
  area: string;
  level: Level | string;
  /** One per run, in the order of `runs`. */
  cells: Array<{ value: CheckCell; message: string }>;
}

export interface MatrixCapabilityRow {
  protocol: string;
  route: string;
  feature: string;
  mode: CellMode;
  cells: Array<{ value: CapabilityValue; required: boolean }>;
}

export interface Matrix {
  schemaVersion: string;
  generator: { name: string; version: string };
  runs: MatrixRun[];
  checks: MatrixCheckRow[];
  capabilities: MatrixCapabilityRow[];
  /** Each sockets check's outcome per socket route and run (matrix-sockets.ts); absent when no run judged a route. */
  sockets?: MatrixSocketRow[];
}

/** One run as the matrix reads it: its naming and its verdicts. */
export interface RunInput {
  gateway: { name: string; version: string | null };
  clients?: string[];
  harness: string;
  catalog: string;
  date: string | null;
  profile: string;
  source: string;
  evidence: string | null;
  exitCode: number | null;
  resources?: GatewayResources;
  results: ReadonlyArray<{ id: string; title?: string; area?: string; level?: string; outcome: Outcome; message?: string; evidence?: Record<string, unknown> }>;
}

/** The longest message kept per cell. */
const MESSAGE_MAX = 500;

/** The client versions a client-profile run names in its evidence (`<client> <version>` keys). */
export function clientsOf(report: Pick<RunReport, 'results'>): string[] {
  const out = new Set<string>();
  for (const r of report.results) {
    const clients = r.area === 'client' ? r.evidence.clients : undefined;
    if (clients && typeof clients === 'object' && !Array.isArray(clients)) for (const k of Object.keys(clients)) out.add(k);
  }
  return [...out].sort();
}

/**
 * A report as a run of the matrix. Its gateway: the label given for it, else the report's own
 * (`--gateway-name`, `--gateway-version`), else the implementation its certify folder names
 * (conformance-report.yaml), else the name of the folder it was read from.
 */
export function inputOfReport(
  report: RunReport,
  at: { label?: RunInput['gateway']; certified?: { gateway: RunInput['gateway']; catalog: string }; folder: string; source: string; evidence: string | null },
): RunInput {
  const own = report.gateway;
  return {
    gateway: at.label ?? (own?.name ? { name: own.name, version: own.version ?? null } : (at.certified?.gateway ?? { name: at.folder, version: null })),
    clients: clientsOf(report),
    harness: report.harness.version,
    // The catalog ships with the harness: its version is the harness's unless certify recorded it.
    catalog: at.certified?.catalog ?? report.harness.version,
    date: report.startedAt ? report.startedAt.slice(0, 10) : null,
    profile: report.profile,
    source: at.source,
    evidence: at.evidence,
    exitCode: report.exitCode,
    ...(report.launched?.resources ? { resources: report.launched.resources } : {}),
    results: report.results,
  };
}

const keyOf = (r: RunInput) =>
  [`${r.gateway.name}${r.gateway.version ? `@${r.gateway.version}` : ''}`, r.clients?.length ? `clients ${r.clients.join(', ')}` : '', `harness ${r.harness}`, `catalog ${r.catalog}`, r.date ?? ''].filter(Boolean).join(' · ');

const clip = (s: string) => (s.length > MESSAGE_MAX ? `${s.slice(0, /[\ud800-\udbff]/.test(s[MESSAGE_MAX - 1]) ? MESSAGE_MAX - 1 : MESSAGE_MAX)}…` : s);

/** The matrix of these runs, columns in the order given; check rows in the order the runs first name them. */
export function buildMatrix(inputs: readonly RunInput[], generator: { name: string; version: string }): Matrix {
  const seen = new Map<string, number>();
  const runs: MatrixRun[] = inputs.map((r, i) => {
    const base = keyOf(r);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return {
      id: `r${i + 1}`,
      gateway: r.gateway,
      clients: r.clients ?? [],
      harness: r.harness,
      catalog: r.catalog,
      date: r.date,
      profile: r.profile,
      key: n > 1 ? `${base} (${n})` : base,
      source: r.source,
      evidence: r.evidence,
      exitCode: r.exitCode,
      ...(r.resources ? { resources: r.resources } : {}),
    };
  });
  const checks = new Map<string, MatrixCheckRow>();
  const byRun = inputs.map((r) => new Map(r.results.map((x) => [x.id, x])));
  for (const r of inputs)
    for (const x of r.results)
      if (!checks.has(x.id)) checks.set(x.id, { id: x.id, title: x.title ?? '', area: x.area ?? x.id.split('.')[0], level: x.level ?? '', cells: [] });
  for (const row of checks.values())
    row.cells = byRun.map((m) => {
      const x = m.get(row.id);
      return x ? { value: x.outcome, message: clip(x.message ?? '') } : { value: NOT_APPLICABLE, message: '' };
    });
  const sockets = socketRows(inputs);
  return { schemaVersion: MATRIX_SCHEMA_VERSION, generator, runs, checks: [...checks.values()], capabilities: capabilityRows(inputs), ...(sockets.length ? { sockets } : {}) };
}

/** One row per protocol, route, feature and mode any run probed; a run that did not probe it is not applicable there. */
function capabilityRows(inputs: readonly RunInput[]): MatrixCapabilityRow[] {
  const rows = new Map<string, MatrixCapabilityRow>();
  inputs.forEach((r, i) => {
    const cells = cellsOf(r.results.map((x) => ({ area: x.area ?? '', evidence: x.evidence ?? {} })));
    for (const c of cells) {
      const key = [c.protocol, c.route, c.feature, c.mode].join('\u0000');
      if (!rows.has(key)) rows.set(key, { protocol: c.protocol, route: c.route, feature: c.feature, mode: c.mode, cells: inputs.map(() => ({ value: NOT_APPLICABLE, required: false })) });
      const cell = rows.get(key)!.cells[i];
      // Two cells of one run for the same key: the worse one stands.
      const worse = cell.value === 'fail' || (cell.value === 'not-offered' && c.state === 'pass');
      if (!worse) rows.get(key)!.cells[i] = { value: c.state, required: c.required || cell.required };
    }
  });
  return [...rows.values()];
}

/** The runs' summary per column: how many checks had each value. */
export function columnCounts(m: Matrix): Array<Record<string, number>> {
  return m.runs.map((_, i) => {
    const out: Record<string, number> = {};
    for (const row of m.checks) out[row.cells[i].value] = (out[row.cells[i].value] ?? 0) + 1;
    return out;
  });
}
