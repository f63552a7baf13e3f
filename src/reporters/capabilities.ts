// The capability matrix as each reporter shows it: a compact text table for the console, an
// HTML table a person scans in seconds (one row per protocol and route, one column per feature,
// a coloured cell with the evidence on hover), and a JUnit testcase per required cell. The cells
// come from the capability checks' evidence (src/core/capabilities.ts); when socket checks ran, a
// websocket column says per protocol how its WebSocket routes fared (the transport table's cells).
import { cellsOf, matrixRows, STATE_GLYPH, worstState, type CapabilityCell, type CellState } from '../core/capabilities.js';
import { escapeAttr, escapeText, terminalSafe, xmlAttrs, xmlText } from '../core/inert.js';
import type { RunReport } from '../report/shared/types.js';
import { socketWord, transportTable } from '../core/transports.js';
import { socketRoutesOf } from '../protocols/index.js';
import type { Protocol } from '../core/protocols.js';

/**
 * The websocket column: per protocol, how its socket routes fared (src/core/transports.ts's
 * socketWord: ok, FAIL, warn, skip, n/s not served, '-' none); null when no socket check ran.
 */
function websocketOf(report: RunReport): ((protocol: string) => string) | null {
  const t = transportTable(report.results, report.declared);
  if (!t?.rows.length) return null;
  return (protocol) => socketWord(t, socketRoutesOf([protocol as Protocol]));
}

/** One feature's cells as a short text: `ok`, `FAIL`, `n/o`, or `ok/FAIL` when JSON and stream differ (JSON first). */
function glyphs(cells: readonly CapabilityCell[] | undefined): string {
  if (!cells?.length) return '-';
  const by = (m: string) => cells.filter((c) => c.mode === m);
  const [j, s] = [by('json'), by('stream')].map((cs) => (cs.length ? STATE_GLYPH[worstState(cs)] : '-'));
  return `${j === s ? j : `${j}/${s}`}${cells.some((c) => c.required) ? '*' : ''}`;
}

/** The console's table and the evidence of every cell that did not pass; nothing without cells. */
export function capabilityLines(report: RunReport): string[] {
  const cells = cellsOf(report.results);
  if (!cells.length) return [];
  const { features, rows } = matrixRows(cells);
  const ws = websocketOf(report);
  const heads = ws ? [...features, 'websocket'] : features;
  const parts = (r: (typeof rows)[number]) => [...features.map((f) => glyphs(r.cells.get(f))), ...(ws ? [ws(r.protocol)] : [])];
  const first = Math.max(14, ...rows.map((r) => `${r.protocol} ${r.route}`.length)) + 2;
  const widths = heads.map((f, i) => Math.max(f.length, ...rows.map((r) => parts(r)[i].length)) + 2);
  const line = (head: string, ps: string[]) => `  ${head.padEnd(first)}${ps.map((p, i) => p.padEnd(widths[i])).join('')}`.trimEnd();
  const legend = `ok pass, FAIL fail, n/o not offered; JSON/stream when they differ; * required${ws ? '; websocket: the socket checks on the protocol\'s WebSocket routes (n/s not served, - none), per route in the transport table' : ''}`;
  const out = ['', `Capability matrix (${legend}):`, line('protocol route', heads), ...rows.map((r) => line(`${r.protocol} ${r.route}`, parts(r)))];
  const bad = cells.filter((c) => c.state !== 'pass');
  for (const c of bad.slice(0, 12)) out.push(`  ${c.state === 'fail' ? 'FAIL' : 'n/o '} ${c.protocol} ${c.route} ${c.feature} (${c.mode}): ${c.evidence[0] ?? ''}`);
  if (bad.length > 12) out.push(`  ... ${bad.length - 12} more in report.json`);
  return out.map((l) => terminalSafe(l));
}

const CLASS: Record<CellState, string> = { pass: 'o-pass', fail: 'o-fail', 'not-offered': 'o-skip' };

/** The HTML table; empty without cells. */
export function capabilityHtml(report: RunReport): string {
  const cells = cellsOf(report.results);
  if (!cells.length) return '';
  const { features, rows } = matrixRows(cells);
  const td = (cs: CapabilityCell[] | undefined) => {
    if (!cs?.length) return '<td>-</td>';
    const title = cs.map((c) => `${c.mode}: ${c.state}${c.evidence.length ? ` (${c.evidence.join('; ')})` : ''}`).join('\n');
    return `<td class="cap ${CLASS[worstState(cs)]}" title="${escapeAttr(title)}">${escapeText(glyphs(cs))}</td>`;
  };
  const ws = websocketOf(report);
  const wsCell = (p: string) => {
    const w = ws!(p);
    return `<td class="cap ${w === 'ok' ? 'o-pass' : w === 'FAIL' ? 'o-fail' : w === 'warn' ? 'o-warn' : w === '-' ? '' : 'o-skip'}">${escapeText(w)}</td>`;
  };
  const body = rows.map((r) => `<tr><th>${escapeText(r.protocol)}</th><th>${escapeText(r.route)}</th>${features.map((f) => td(r.cells.get(f))).join('')}${ws ? wsCell(r.protocol) : ''}</tr>`).join('');
  const bad = cells.filter((c) => c.state !== 'pass');
  const list = bad.length ? `<ul>${bad.map((c) => `<li>${escapeText(`${c.state} · ${c.protocol} ${c.route} ${c.feature} (${c.mode}${c.required ? ', required' : ''}): ${c.evidence.join('; ')}`)}</li>`).join('')}</ul>` : '';
  return `<h2>Capability matrix</h2><p>ok: passes intact both ways; FAIL: lost or changed; n/o: the gateway refused it explicitly; JSON/stream when they differ; * required${ws ? '; websocket: the socket checks on the protocol\'s WebSocket routes (n/s not served; per route in the transport table below)' : ''}. Hover a cell for its evidence.</p><table class="diff"><thead><tr><th>protocol</th><th>route</th>${features.map((f) => `<th>${escapeText(f)}</th>`).join('')}${ws ? '<th>websocket</th>' : ''}</tr></thead><tbody>${body}</tbody></table>${list}`;
}

/** A JUnit testcase per required cell: failed when the cell did not pass. */
export function capabilityTestcases(report: RunReport): { xml: string[]; failures: number } {
  const required = cellsOf(report.results).filter((c) => c.required);
  const xml = required.map((c) => {
    const name = `capability ${c.feature} · ${c.protocol} ${c.route} · ${c.mode}`;
    const failure = c.state === 'pass' ? '' : `\n      <failure${xmlAttrs({ message: `${c.feature}: ${c.state}`, type: c.state })}>${xmlText(c.evidence.join('\n'))}</failure>`;
    return `    <testcase${xmlAttrs({ classname: 'capabilities', name, time: '0.000' })}>${failure}\n      <system-out>${xmlText(`required capability; state: ${c.state}`)}</system-out>\n    </testcase>`;
  });
  return { xml, failures: required.filter((c) => c.state !== 'pass').length };
}
