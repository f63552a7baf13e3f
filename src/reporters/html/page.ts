// The HTML report: one self-contained file over one RunReport. No external script, style, font
// or image; a Content-Security-Policy allows only the one inline style and the one inline script,
// by hash (assets.ts). Everything that came from the gateway is inert text: escaped, never
// inserted as HTML, never in a script; invisible characters are shown as visible escapes
// (src/core/inert.ts). Failures first, each collapsed row saying what went wrong; filters and a
// search whose state the address keeps; expanding a check shows its requirement texts, expected
// and actual, the smallest diff highlighted, both sides of the exchange (masked) and, for
// streams, the timeline as an SVG chart (evidence.ts, timeline.ts); for load runs, the latency
// percentiles and the answers per second as SVG charts with their tables (load.ts, chart.ts).
import { translated } from '../../report/run/routes.js';
import { escapeAttr, escapeText } from '../../core/inert.js';
import { maskUrl } from '../../core/mask.js';
import { readText } from '../../core/paths.js';
import type { CheckResult, RunReport } from '../../report/shared/types.js';
import { htmlHead } from '../../report/shared/html-head.js';
import { isNotRun } from '../../report/shared/policy.js';
import { CSP, SCRIPT, STYLE } from './assets.js';
import { clip, cutNote, HTML_LIMITS } from './escape.js';
import { Budget, details } from './evidence.js';
import { capabilityHtml } from '../capabilities.js';
import { transportHtml } from '../transports.js';
import { plural } from '../../core/words.js';

export interface CatalogText {
  id: string;
  level: string;
  section: string;
  text?: string;
}

/** The requirement catalog (catalog/requirements.json), for the requirement texts. */
export function loadCatalog(): CatalogText[] {
  return (JSON.parse(readText('catalog', 'requirements.json')) as { requirements: CatalogText[] }).requirements;
}

type Outcome = CheckResult['outcome'];
const OUTCOMES: Outcome[] = ['fail', 'error', 'timeout', 'flaky', 'warn', 'info', 'waived', 'skip', 'pass'];
const LEVELS = ['MUST', 'SHOULD', 'INFO'];
const PROBLEM = new Set<Outcome>(['fail', 'error', 'timeout', 'warn', 'info', 'flaky', 'waived']);

function countsTable(title: string, keys: string[], of: (r: CheckResult) => string, results: CheckResult[], cols: Outcome[]): string {
  const head = `<tr><th>${escapeText(title)}</th>${cols.map((o) => `<th>${o}</th>`).join('')}<th>total</th></tr>`;
  const rows = keys.map((k) => {
    const mine = results.filter((r) => of(r) === k);
    const cells = cols.map((o) => {
      const n = mine.filter((r) => r.outcome === o).length;
      return `<td class="${n === 0 ? 'zero' : PROBLEM.has(o) && o !== 'info' ? 'hot' : ''}">${n}</td>`;
    });
    return `<tr><td>${escapeText(k)}</td>${cells.join('')}<td>${mine.length}</td></tr>`;
  });
  return `<table class="counts"><thead>${head}</thead><tbody>${rows.join('')}</tbody></table>`;
}

function features(report: RunReport): string {
  const list = [...(report.declared?.protocols ?? []), ...(report.declared?.features ?? [])];
  return `<span>declared <b>${list.length ? list.map((x) => escapeText(x)).join(', ') : 'no protocol'}</b></span>`;
}

/** What a collapsed row says beside the id: what went wrong (the message's first line), or for a pass the check's title. */
function headline(r: CheckResult): string {
  if (r.outcome === 'pass') return `<span class="title">${escapeText(clip(r.title, 300).s)}</span>`;
  const lines = r.message.split('\n');
  const first = clip(lines[0], 240);
  return `<span class="fmsg">${escapeText(first.s)}${first.cut || lines.length > 1 ? '…' : ''}</span>`;
}

function checkRow(r: CheckResult, catalog: Map<string, CatalogText>, budget: Budget): string {
  const problem = PROBLEM.has(r.outcome);
  const reqs = r.requirements
    .map((id) => {
      const c = catalog.get(id);
      return `<div class="req"><span class="rid">${escapeText(id)}</span>${c ? `<span class="lvl">${escapeText(c.level)}</span>${escapeText(c.text ?? '')} <span class="sec">(${escapeText(c.section)})</span>` : '<span class="note">not in the catalog</span>'}</div>`;
    })
    .join('');
  const message = clip(r.message, 2000);
  const w = r.waiver;
  const waiver = w
    ? `<p class="waiver"><b>Waived</b> until ${escapeText(w.expires)} (the check was ${escapeText(w.waivedOutcome)}): ${escapeText(clip(w.reason, 1000).s)}${w.link ? ` · tracked at <span class="v">${escapeText(clip(w.link, 500).s)}</span>` : ''}</p>`
    : '';
  const tries = Array.isArray(r.evidence.attempts) ? r.evidence.attempts : [];
  const attempts = tries.length > 1 ? `<h3>Attempts</h3><table class="diff"><tbody>${tries.map((a) => `<tr><td>#${a.attempt}</td><td>${escapeText(String(a.outcome))}</td><td>${a.durationMs} ms</td><td class="v">${escapeText(clip(String(a.message), 500).s)}</td></tr>`).join('')}</tbody></table>` : '';
  const desc = r.outcome === 'pass' ? '' : `<p class="desc">${escapeText(clip(r.title, 300).s)}</p>`;
  const fix = r.fix ? `<h3>How to fix</h3><p class="fix">${escapeText(clip(r.fix.text, 2000).s)}</p><p class="note">The checks reference: <span class="v">${escapeText(clip(r.fix.link, 500).s)}</span></p>` : '';
  const body = `<div class="body">${desc}<p class="msg">${escapeText(message.s)}${message.cut ? ` ${cutNote(message.cut)}` : ''}</p>${waiver}${fix}${attempts}<h3>Requirement</h3>${reqs}${details(r, problem, budget)}</div>`;
  const id = escapeAttr(r.id);
  return `<details class="check" id="${id}" data-outcome="${escapeAttr(r.outcome)}" data-area="${escapeAttr(r.area)}" data-level="${escapeAttr(r.level)}">
<summary><span class="badge o-${escapeAttr(r.outcome)}">${escapeText(r.outcome.toUpperCase())}</span><span class="lvl">${escapeText(r.level)}</span><span class="cid">${escapeText(r.id)}</span>${headline(r)}<span class="reqs">${escapeText(r.requirements.join(', '))} · ${r.durationMs} ms</span><a class="permalink" href="#${escapeAttr(encodeURIComponent(r.id))}" title="link to this check">#</a></summary>
${body}</details>`;
}

/** The waivers of the run and what became of each, as a table ('' without waivers). */
function waiversTable(ws: RunReport['waivers']): string {
  if (!ws) return '';
  const wname = (x: { check?: string; requirement?: string }) => escapeText(x.check ?? `requirement ${x.requirement}`);
  const rows = [
    ...ws.applied.map((x) => ['applied', x, x.checks] as const),
    ...ws.expired.map((x) => ['expired: no longer applied', x, x.checks] as const),
    ...ws.unused.map((x) => ['unused: matched nothing', x, [] as string[]] as const),
  ]
    .map(([state, x, checks]) => `<tr><td>${escapeText(state)}</td><td>${wname(x)}</td><td>${escapeText(x.expires)}</td><td class="v">${escapeText(clip(x.reason, 500).s)}</td><td>${checks.map((c) => escapeText(c)).join(', ')}</td></tr>`)
    .join('');
  return `<h2>Waivers</h2><table class="diff"><thead><tr><th>state</th><th>waiver</th><th>expires</th><th>reason</th><th>checks</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The routes the gateway took, per client protocol ('' when no request reached the upstream). */
function routesTable(routes: RunReport['routes']): string {
  if (!routes?.length) return '';
  const rows = routes.map((r) => `<tr><td>${escapeText(r.client)}</td><td>${escapeText(r.upstream)}</td><td>${r.requests}</td><td>${r.checks ?? ''}</td><td>${translated(r) ? 'translated: checks of bytes and forwarded headers skip; checks of meaning judge' : r.upstream === 'none' ? 'a path of no protocol' : 'passed through'}</td></tr>`).join('');
  return `<h2>Routes</h2><table class="diff"><thead><tr><th>client protocol</th><th>upstream protocol</th><th>requests</th><th>checks</th><th>what it means</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The requests the recording upstream could not tie to a check (the first 100; '' for none). */
function unmatchedTable(list: RunReport['unmatchedRequests']): string {
  if (!list.length) return '';
  const rows = list
    .slice(0, 100)
    .map((u) => `<tr><td>${escapeText(u.method)}</td><td class="v">${escapeText(maskUrl(clip(u.url, 500).s))}</td><td>${escapeText(u.reason)}</td><td>${escapeText(u.receivedWall)}</td></tr>`)
    .join('');
  return `<h2>Requests no check expected (${list.length})</h2><table class="diff"><thead><tr><th>method</th><th>url</th><th>reason</th><th>received</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The head of the page: the verdict and what the run was. */
function pageHeader(report: RunReport, ok: boolean): string {
  const meta = [
    `<span>target <b>${escapeText(report.target)}</b></span>`,
    `<span>upstream <b>${escapeText(report.upstream ?? 'none')}</b></span>`,
    `<span>profile <b>${escapeText(report.profile)}</b></span>`,
    `<span>seed <b>${escapeText(String(report.seed))}</b></span>`,
    `<span>harness <b>${escapeText(`${report.harness.name} ${report.harness.version}`)}</b></span>`,
    `<span>report schema <b>${escapeText(report.schemaVersion)}</b></span>`,
    report.strict ? '<span><b>strict</b></span>' : '',
    features(report),
    `<span>started <b>${escapeText(report.startedAt)}</b></span>`,
    `<span>took <b>${(report.durationMs / 1000).toFixed(1)} s</b></span>`,
    `<span>exit code <b>${report.exitCode}</b></span>`,
  ];
  return `<header>
<h1><span class="verdict ${ok ? 'ok' : 'bad'}">${report.interrupted ? 'INTERRUPTED' : ok ? 'PASSED' : 'FAILED'}</span>gw-conformance report</h1>${report.interrupted ? `\n<p class="interrupted">Ctrl-C stopped this run: ${report.results.filter(isNotRun).length} of ${report.results.length} checks did not finish (listed as not run). What finished is shown; it is no verdict on the gateway.</p>` : ''}
<div class="meta">${meta.join('')}</div>
</header>`;
}

/** The filter boxes and the search box (hidden until the script shows them). */
function filters(present: string[], areas: string[], levels: string[]): string {
  const box = (name: string, values: string[]) =>
    `<fieldset><legend>${name}</legend>${values.map((v) => `<label><input type="checkbox" name="${name}" value="${escapeAttr(v)}" checked> ${escapeText(v)}</label>`).join('')}</fieldset>`;
  const search = '<fieldset><legend>search</legend><input type="search" id="q" name="q" placeholder="id, requirement or message" aria-label="search the checks by id, requirement or message"></fieldset>';
  return `<div id="filters" hidden>${search}${box('outcome', present)}${box('area', areas)}${box('level', levels)}<fieldset><legend>show</legend><button type="button" data-preset="problems">problems only</button> <button type="button" data-preset="all">all</button></fieldset><span id="shown"></span></div>`;
}

/** The report as one self-contained HTML page. */
export function htmlReport(report: RunReport, catalog: CatalogText[] = loadCatalog()): string {
  return [...htmlParts(report, catalog)].join('');
}

/**
 * The page in pieces, in order: the frame, then each check's row as it is rendered, so a writer
 * that puts each piece to the file as it comes never holds the whole page (written whole, the
 * reports of a brotli-bomb run, half its checks failed with evidence, lifted a process's peak RSS
 * by 14 MB; in pieces by 6 MB).
 */
export function* htmlParts(report: RunReport, catalog: CatalogText[] = loadCatalog()): Generator<string> {
  const cat = new Map(catalog.map((c) => [c.id, c]));
  const results = [...report.results].sort((a, b) => OUTCOMES.indexOf(a.outcome) - OUTCOMES.indexOf(b.outcome));
  const present = OUTCOMES.filter((o) => results.some((r) => r.outcome === o));
  const cols = present.length ? present : (['pass'] as Outcome[]);
  const areas = [...new Set(results.map((r) => r.area))].sort();
  const levels = [...LEVELS.filter((l) => results.some((r) => r.level === l)), ...new Set(results.map((r) => r.level).filter((l) => !LEVELS.includes(l)))];
  // What the rows and the frame take without evidence is small; evidence gets the rest.
  const budget = new Budget(HTML_LIMITS.maxBytes - 120_000 - 4_000 * results.length);
  const s = report.summary;
  const ok = report.exitCode === 0;
  yield `${htmlHead({ csp: CSP, title: `gw-conformance: ${ok ? 'passed' : 'failed'}, ${plural(s.total, 'check')} against ${report.target}`, style: STYLE })}
<body>
${pageHeader(report, ok)}
<main>
<h2>Summary: ${plural(s.total, 'check')}, ${OUTCOMES.filter((o) => s[o]).map((o) => `${s[o]} ${o}`).join(', ') || 'none run'}</h2>
<div class="tables">${countsTable('area', areas, (r) => r.area, results, cols)}${countsTable('level', levels, (r) => r.level, results, cols)}</div>
${capabilityHtml(report)}${transportHtml(report)}${routesTable(report.routes)}${waiversTable(report.waivers)}${unmatchedTable(report.unmatchedRequests)}
<h2>Checks</h2>
${filters(present, areas, levels)}
`;
  for (const [i, r] of results.entries()) yield `${i ? '\n' : ''}${checkRow(r, cat, budget)}`;
  yield `
</main>
<footer>Generated by ${escapeText(report.harness.name)} ${escapeText(report.harness.version)} from report.json (schema ${escapeText(report.schemaVersion)}). Everything the gateway sent is shown as text; long evidence is cut, and report.json holds all of it. Link to a check with #its-id; the address keeps the filters and the search (?q=…&amp;outcome=…).</footer>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
