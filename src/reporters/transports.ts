// The transport table as the console and the HTML report show it: one row per WebSocket check,
// one column per socket route (a served route marked *), each cell the check's outcome on the
// route it judged, '-' where it did not judge that route; then one line each for MCP and A2A
// (declared or not, their checks' outcomes, the ids that did not pass). The table is read back
// from the results (src/core/transports.ts); nothing without sockets, MCP or A2A checks.
import { countsText, OUTCOME_GLYPH, transportTable, type TransportTable } from '../core/transports.js';
import { escapeAttr, escapeText, terminalSafe } from '../core/inert.js';
import type { RunReport } from '../report/shared/types.js';

const tableOf = (report: RunReport): TransportTable | null => transportTable(report.results, report.declared);

const glyph = (outcome: string | undefined): string => (outcome === undefined ? '-' : (OUTCOME_GLYPH[outcome] ?? outcome));
const head = (t: TransportTable, route: string) => `${route}${t.served.includes(route) ? '*' : ''}`;

function areaText(a: TransportTable['areas'][number]): string {
  const bad = a.notPassing.slice(0, 6).map((x) => `${x.id} ${x.outcome}`);
  const more = a.notPassing.length > 6 ? `, ${a.notPassing.length - 6} more` : '';
  return `${a.area} (${a.declared ? 'declared' : 'not declared: findings are info'}): ${countsText(a.counts)}${bad.length ? `; not passing: ${bad.join(', ')}${more}` : ''}`;
}

/** The console's lines; none without such checks. */
export function transportLines(report: RunReport): string[] {
  const t = tableOf(report);
  if (!t) return [];
  const out = ['', 'Transports beyond request and response (ok pass, FAIL fail, skip could not judge; - route not judged by the check; * served):'];
  if (t.rows.length) {
    const first = Math.max(...t.rows.map((r) => r.check.length), 'websocket check'.length) + 2;
    const widths = t.routes.map((r) => Math.max(head(t, r).length, ...t.rows.map((x) => glyph(x.cells.get(r)).length)) + 2);
    const line = (h: string, parts: string[]) => `  ${h.padEnd(first)}${parts.map((p, i) => p.padEnd(widths[i])).join('')}`.trimEnd();
    out.push(line('websocket check', t.routes.map((r) => head(t, r))), ...t.rows.map((x) => line(x.check, t.routes.map((r) => glyph(x.cells.get(r))))));
    if (!t.served.length) out.push('  no WebSocket route declared served (--websockets none): only refusals are judged');
  }
  for (const a of t.areas) out.push(`  ${areaText(a)}`);
  return out.map((l) => terminalSafe(l));
}

const CLASS: Record<string, string> = { pass: 'o-pass', fail: 'o-fail', error: 'o-fail', timeout: 'o-fail', warn: 'o-warn', skip: 'o-skip' };

/** The HTML table; empty without such checks. */
export function transportHtml(report: RunReport): string {
  const t = tableOf(report);
  if (!t) return '';
  const td = (row: TransportTable['rows'][number], route: string) => {
    const o = row.cells.get(route);
    if (o === undefined) return '<td>-</td>';
    return `<td class="cap ${CLASS[o] ?? ''}" title="${escapeAttr(`${o}: ${row.message}`)}">${escapeText(glyph(o))}</td>`;
  };
  const table = t.rows.length
    ? `<table class="diff"><thead><tr><th>websocket check</th>${t.routes.map((r) => `<th>${escapeText(head(t, r))}</th>`).join('')}</tr></thead><tbody>${t.rows.map((row) => `<tr><th>${escapeText(row.check)}</th>${t.routes.map((r) => td(row, r)).join('')}</tr>`).join('')}</tbody></table>`
    : '';
  const areas = t.areas.length ? `<ul>${t.areas.map((a) => `<li>${escapeText(areaText(a))}</li>`).join('')}</ul>` : '';
  return `<h2>Transports beyond request and response</h2><p>Each cell is a WebSocket check's outcome on the route it judged; - where the check did not judge that route; * a route declared served (--websockets). Hover a cell for the check's message.</p>${table}${areas}`;
}
