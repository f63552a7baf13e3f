// The matrix as one self-contained HTML page: no external script, style, font or image (a
// Content-Security-Policy allows only the page's own style and script, by hash: matrix-assets.ts).
// Columns sort, a filter box narrows the rows, and each cell links to the check in that run's
// HTML report (`report.html#<check-id>`, a relative path). Everything from the reports (gateway
// names, messages, folder names, the resources' source) is inert text, escaped by src/core/inert.ts, never in the script.
import { escapeAttr, escapeText } from '../../core/inert.js';
import { htmlHead } from '../shared/html-head.js';
import { MATRIX_CSP, MATRIX_SCRIPT, MATRIX_STYLE } from './matrix-assets.js';
import { columnCounts, type Matrix, type MatrixRun } from './matrix.js';
import { plural } from '../../core/words.js';
import { resourceRows } from './matrix-resources.js';

/** Sorting rank of a cell value: problems first. */
const RANK = ['fail', 'error', 'timeout', 'flaky', 'warn', 'info', 'waived', 'not-offered', 'skip', 'pass', 'not-applicable'];
const rank = (v: string) => (RANK.includes(v) ? RANK.indexOf(v) : RANK.length);

/** A relative link to a check of a run's report; null when the run has no HTML report or the path is not relative. */
export function evidenceHref(run: MatrixRun, checkId?: string): string | null {
  const e = run.evidence;
  if (!e || /^[a-z][a-z0-9+.-]*:/i.test(e) || e.startsWith('/') || e.startsWith('\\')) return null;
  const path = e.split(/[\\/]/).map(encodeURIComponent).join('/');
  return checkId === undefined ? path : `${path}#${encodeURIComponent(checkId)}`;
}

const gatewayText = (r: MatrixRun) => `${r.gateway.name}${r.gateway.version ? ` ${r.gateway.version}` : ''}`;

function cell(value: string, run: MatrixRun, checkId: string | null, title: string): string {
  const shown = value === 'not-applicable' ? 'n/a' : value;
  const href = value === 'not-applicable' || checkId === null ? null : evidenceHref(run, checkId);
  const inner = href ? `<a href="${escapeAttr(href)}">${escapeText(shown)}</a>` : escapeText(shown);
  return `<td class="v o-${escapeAttr(value)}" data-sort="${rank(value)}"${title ? ` title="${escapeAttr(title)}"` : ''}>${inner}</td>`;
}

function runsTable(m: Matrix): string {
  const counts = columnCounts(m);
  const rows = m.runs.map((r, i) => {
    const href = evidenceHref(r);
    const source = href ? `<a href="${escapeAttr(href)}">${escapeText(r.source)}</a>` : escapeText(r.source);
    const tally = Object.entries(counts[i]).sort((a, b) => rank(a[0]) - rank(b[0])).map(([k, n]) => `${n} ${k === 'not-applicable' ? 'n/a' : k}`).join(', ');
    return `<tr><td>${escapeText(r.id)}</td><td>${escapeText(r.gateway.name)}</td><td>${escapeText(r.gateway.version ?? '')}</td><td>${escapeText(r.clients.join(', '))}</td><td>${escapeText(r.harness)}</td><td>${escapeText(r.catalog)}</td><td>${escapeText(r.date ?? '')}</td><td>${escapeText(r.profile)}</td><td data-sort="${r.exitCode ?? -1}">${r.exitCode ?? ''}</td><td>${escapeText(tally)}</td><td>${source}</td></tr>`;
  });
  return `<table class="sortable" id="runs"><thead><tr><th>run</th><th>gateway</th><th>version</th><th>clients</th><th>harness</th><th>catalog</th><th>date</th><th>profile</th><th>exit</th><th>checks</th><th>report</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

const runHeads = (m: Matrix) => m.runs.map((r) => `<th title="${escapeAttr(r.key)}">${escapeText(`${r.id} ${gatewayText(r)}`)}</th>`).join('');

function checksTable(m: Matrix): string {
  const rows = m.checks.map(
    (c) => `<tr id="check-${escapeAttr(c.id)}"><td><code>${escapeText(c.id)}</code></td><td>${escapeText(c.area)}</td><td>${escapeText(String(c.level))}</td>${c.cells.map((x, i) => cell(x.value, m.runs[i], c.id, x.message)).join('')}<td>${escapeText(c.title)}</td></tr>`,
  );
  return `<table class="sortable" id="checks"><thead><tr><th>check</th><th>area</th><th>level</th>${runHeads(m)}<th>title</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`;
}

function capabilitiesTable(m: Matrix): string {
  if (!m.capabilities.length) return '';
  const rows = m.capabilities.map(
    (c) => `<tr><td>${escapeText(c.protocol)}</td><td>${escapeText(c.route)}</td><td>${escapeText(c.feature)}</td><td>${c.mode === 'json' ? 'JSON' : 'streamed'}</td>${c.cells.map((x, i) => cell(x.value, m.runs[i], null, x.required ? 'required' : '')).join('')}</tr>`,
  );
  return `<h2>Capabilities (JSON and streamed)</h2><p class="note">pass: intact both ways; fail: lost or changed; not-offered: the gateway refused it explicitly; n/a: the run did not probe it.</p><table class="sortable" id="capabilities"><thead><tr><th>protocol</th><th>route</th><th>feature</th><th>mode</th>${runHeads(m)}</tr></thead><tbody>${rows.join('\n')}</tbody></table>`;
}

function resourcesTable(m: Matrix): string {
  const rows = resourceRows(m);
  if (!rows.length) return '';
  const body = rows.map((r) => `<tr><td>${escapeText(r.name)}</td>${r.cells.map((c) => `<td>${escapeText(c)}</td>`).join('')}</tr>`);
  return `<h2>Gateway resources</h2><p class="note">When the harness launched the gateway: its memory and CPU (idle before traffic, steady under load, peak) and its cold start; an empty column: the run did not launch it.</p><table id="resources"><thead><tr><th>figure</th>${runHeads(m)}</tr></thead><tbody>${body.join('\n')}</tbody></table>`;
}

function socketsTable(m: Matrix): string {
  if (!m.sockets?.length) return '';
  const cell = (v: string | null) => (v === null ? '<td>-</td>' : `<td class="o-${escapeAttr(v)}">${escapeText(v)}</td>`);
  const body = m.sockets.map((r) => `<tr><td>${escapeText(r.check)}</td><td>${escapeText(r.route)}</td>${r.cells.map(cell).join('')}</tr>`);
  return `<h2>WebSocket routes</h2><p class="note">Each sockets check's outcome on each socket route it judged; -: the run did not judge that route with that check (most judge the first served route only).</p><table id="sockets"><thead><tr><th>check</th><th>route</th>${runHeads(m)}</tr></thead><tbody>${body.join('\n')}</tbody></table>`;
}

/** The matrix as one HTML page. */
export function matrixHtml(m: Matrix): string {
  return `${htmlHead({ csp: MATRIX_CSP, title: `gw-conformance matrix: ${plural(m.runs.length, 'run')}, ${plural(m.checks.length, 'check')}`, style: MATRIX_STYLE })}
<body>
<header><h1>gw-conformance matrix</h1><p class="note">${plural(m.runs.length, 'run')} × ${plural(m.checks.length, 'check')}. A cell links to the check in that run's report; n/a: the run has no result for the check (not selected, or not in its harness), which is not a skip. Click a column head to sort.</p></header>
<main>
<h2>Runs</h2>
${runsTable(m)}
${resourcesTable(m)}
<h2>Checks</h2>
<input type="search" id="filter" placeholder="filter: check id, area, level, outcome, title" aria-label="filter the rows" hidden> <span id="shown" class="note"></span>
${checksTable(m)}
${capabilitiesTable(m)}
${socketsTable(m)}
</main>
<footer class="note">Generated by ${escapeText(m.generator.name)} ${escapeText(m.generator.version)} (matrix schema ${escapeText(m.schemaVersion)}). Gateway text is shown as text.</footer>
<script>${MATRIX_SCRIPT}</script>
</body>
</html>
`;
}
