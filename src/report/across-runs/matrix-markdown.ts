// The matrix as Markdown: one table of checks (a row each, a column per run) and, when any run
// probed capabilities, one of capability cells, and when any run judged a socket route, one of
// each sockets check's outcome per route. Text from the reports (gateway names, folder
// names) is made inert for a page that renders Markdown as HTML: markup as entities, invisible
// characters as visible escapes (src/core/inert.ts), table pipes escaped.
import { escapeAttr } from '../../core/inert.js';
import type { Matrix, MatrixRun } from './matrix.js';
import { resourceRows } from './matrix-resources.js';

/** A table cell: inert, one line, no pipe that would split it. */
export const mdCell = (s: string): string => escapeAttr(s.replace(/\s*\n\s*/g, ' ')).replace(/\|/g, '\\|');

/** Values a reader should see first: bold in the tables. */
const PROBLEMS = new Set(['fail', 'error', 'timeout', 'warn', 'flaky']);
const shown = (v: string) => (v === 'not-applicable' ? 'n/a' : PROBLEMS.has(v) ? `**${v}**` : v);

/** A run's column head: its gateway and version (what the docs' committed tables show). */
export const runHead = (r: MatrixRun): string => mdCell(`${r.gateway.name}${r.gateway.version ? ` ${r.gateway.version}` : ''}`);

/**
 * The checks table (and the capability table when there are cells). `runs: false` leaves out the
 * list of runs, `head` names the columns otherwise than by gateway and version (for committed docs).
 */
export function matrixMarkdown(m: Matrix, opts: { runs?: boolean; head?: (r: MatrixRun, i: number) => string } = {}): string {
  const head = opts.head ?? runHead;
  const out: string[] = [];
  if (opts.runs !== false) {
    out.push('| run | gateway | clients | harness | catalog | date | exit | source |', '|---|---|---|---|---|---|---|---|');
    for (const r of m.runs)
      out.push(`| ${r.id} | ${runHead(r)} | ${mdCell(r.clients.join(', '))} | ${mdCell(r.harness)} | ${mdCell(r.catalog)} | ${r.date ?? ''} | ${r.exitCode ?? ''} | ${mdCell(r.source)} |`);
    out.push('');
  }
  out.push(...resourceTable(m, head));
  out.push(`| check | level | ${m.runs.map(head).join(' | ')} |`, `|---|---|${m.runs.map(() => '---|').join('')}`);
  for (const c of m.checks) out.push(`| \`${mdCell(c.id)}\` | ${mdCell(String(c.level))} | ${c.cells.map((x) => shown(x.value)).join(' | ')} |`);
  if (m.capabilities.length) {
    out.push('', `| capability | mode | ${m.runs.map(head).join(' | ')} |`, `|---|---|${m.runs.map(() => '---|').join('')}`);
    for (const c of m.capabilities) out.push(`| ${mdCell(`${c.protocol} ${c.route} ${c.feature}`)} | ${c.mode === 'json' ? 'JSON' : 'streamed'} | ${c.cells.map((x) => `${shown(x.value)}${x.required ? ' (required)' : ''}`).join(' | ')} |`);
  }
  const sockets = socketTable(m, head);
  if (sockets.length) out.push('', ...sockets.slice(0, -1));
  return `${out.join('\n')}\n`;
}

/** Each sockets check's outcome per socket route, a row per check and route (when a run judged one). */
function socketTable(m: Matrix, head: (r: MatrixRun, i: number) => string): string[] {
  if (!m.sockets?.length) return [];
  return [`| websocket check · route | ${m.runs.map(head).join(' | ')} |`, `|---|${m.runs.map(() => '---|').join('')}`, ...m.sockets.map((r) => `| ${mdCell(`${r.check} · ${r.route}`)} | ${r.cells.map((c) => (c === null ? '-' : shown(c))).join(' | ')} |`), ''];
}

/** The launched gateways' memory, CPU and cold start, a row per figure (when a run has them). */
function resourceTable(m: Matrix, head: (r: MatrixRun, i: number) => string): string[] {
  const rows = resourceRows(m);
  if (!rows.length) return [];
  return [`| gateway resources | ${m.runs.map(head).join(' | ')} |`, `|---|${m.runs.map(() => '---|').join('')}`, ...rows.map((r) => `| ${r.name} | ${r.cells.map(mdCell).join(' | ')} |`), ''];
}
