// The HTML report: one self-contained file over one RunReport (design.md, style rule 7).
// No external script, style, font or image; a Content-Security-Policy allows only the one
// inline style and the one inline script, by hash. Everything that came from the gateway is
// inert text: escaped, never inserted as HTML, never in a script; control characters, bidi
// overrides and broken UTF-16 are shown as visible escapes. Failures first; expanding a check
// shows its requirement texts, expected and actual, the smallest diff highlighted, both sides
// of the exchange (masked) and, for streams, the timeline as an SVG chart.
import { createHash } from 'node:crypto';
import { maskHeaders, maskUrl } from '../core/mask.js';
import { readText } from '../core/paths.js';
import type { CheckResult, RunReport } from '../report/types.js';

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

/** Size limits: the file stays under maxBytes; long strings and large evidence are cut with a note. */
export const HTML_LIMITS = {
  maxBytes: 2_000_000,
  /** Longest string of evidence shown (characters). */
  string: 6_000,
  /** Most evidence (escaped bytes) shown for one check that failed, and for one that passed. */
  perProblem: 120_000,
  perPass: 6_000,
} as const;

type Outcome = CheckResult['outcome'];
const OUTCOMES: Outcome[] = ['fail', 'error', 'timeout', 'flaky', 'warn', 'info', 'waived', 'skip', 'pass'];
const LEVELS = ['MUST', 'SHOULD', 'INFO'];
const PROBLEM = new Set<Outcome>(['fail', 'error', 'timeout', 'warn', 'info', 'flaky', 'waived']);

// ---------------------------------------------------------------------------------------------
// Escaping. Every string goes through one of these before it reaches the page.

const AMP = /[&<>"']/g;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
// C0 and C1 controls (but tab and line feed), DEL, zero-width and bidi controls, BOM, and
// unpaired UTF-16 surrogates (what invalid UTF-8 leaves behind in a string).
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const codeOf = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
const NAMED: Record<string, string> = { '\r': '\\r', '\n': '\\n', '\t': '\\t', '\u001b': '\\e' };
const visible = (c: string) => NAMED[c] ?? codeOf(c);

/** Text for an attribute value (always written in double quotes) or anywhere markup is not wanted. */
export function escapeAttr(s: string): string {
  return s.replace(INVISIBLE, visible).replace(AMP, (c) => ENTITY[c]);
}

const INVISIBLE_AND_BREAKS = new RegExp(`[\\n\\t]|${INVISIBLE.source}`, 'g');

/**
 * Text for element content: like escapeAttr, with each invisible character shown as a marked
 * escape; `breaks` shows line feeds and tabs the same way (for short excerpts such as a diff).
 */
export function escapeText(s: string, breaks = false): string {
  let out = '';
  let last = 0;
  for (const m of s.matchAll(breaks ? INVISIBLE_AND_BREAKS : INVISIBLE)) {
    out += s.slice(last, m.index).replace(AMP, (c) => ENTITY[c]) + `<span class="ctl">${visible(m[0])}</span>`;
    last = m.index! + m[0].length;
  }
  return out + s.slice(last).replace(AMP, (c) => ENTITY[c]);
}

/** The first n characters, never splitting a surrogate pair; `cut` counts what was left out. */
function clip(s: string, n: number): { s: string; cut: number } {
  if (s.length <= n) return { s, cut: 0 };
  let end = n;
  if (/[\ud800-\udbff]/.test(s[end - 1])) end--;
  return { s: s.slice(0, end), cut: s.length - end };
}

/** 1234567 as 1,234,567. */
const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const cutNote = (n: number) => `<span class="note">… ${thousands(n)} more characters cut (the whole text is in report.json)</span>`;

/** A <pre> of gateway text, cut to the string limit. */
function pre(s: string, cls = ''): string {
  const c = clip(s, HTML_LIMITS.string);
  return `<pre${cls ? ` class="${cls}"` : ''}>${escapeText(c.s)}${c.cut ? `\n${cutNote(c.cut)}` : ''}</pre>`;
}

// ---------------------------------------------------------------------------------------------
// Evidence: where its parts are, and how each is drawn.

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
const isObj = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Visits every value of the evidence with its JSON pointer, depth first. */
function walk(v: Json, at: string, visit: (v: Json, at: string, key: string, parent: Json | null) => void, key = '', parent: Json | null = null): void {
  visit(v, at, key, parent);
  if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${at}/${i}`, visit, String(i), v));
  else if (isObj(v)) for (const [k, x] of Object.entries(v)) walk(x, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, visit, k, v);
}

/** Marks the part of each side that differs (common prefix and suffix kept plain). */
export function markDifference(a: string, b: string): [string, string] {
  let p = 0;
  const n = Math.min(a.length, b.length);
  while (p < n && a[p] === b[p]) p++;
  let q = 0;
  while (q < n - p && a[a.length - 1 - q] === b[b.length - 1 - q]) q++;
  const side = (s: string) => {
    const mid = s.slice(p, s.length - q);
    return `${escapeText(s.slice(0, p), true)}<mark>${mid ? escapeText(mid, true) : '<span class="gap">∅</span>'}</mark>${escapeText(s.slice(s.length - q), true)}`;
  };
  return [side(a), side(b)];
}

/** Where in the evidence a part was found, with the name of its fixture when it has one. */
function where(at: string, fixtureAt: Map<string, string>): string {
  if (!at) return '';
  let name = '';
  for (const [p, f] of fixtureAt) if ((at === p || at.startsWith(`${p}/`)) && p.length >= name.length) name = f;
  return `<div class="where">${name ? `fixture <b>${escapeText(name)}</b>, ` : ''}at evidence <code>${escapeText(at)}</code></div>`;
}

function jsonDiffTable(diffs: Json[], head: string): string {
  const rows = diffs.slice(0, 50).map((d) => {
    if (typeof d === 'string') return `<tr><td colspan="4">${escapeText(clip(d, 400).s)}</td></tr>`;
    if (!isObj(d)) return '';
    const path = typeof d.path === 'string' ? d.path || '/' : '';
    const e = d.expected === undefined || d.expected === null ? '' : clip(String(d.expected), 400).s;
    const a = d.actual === undefined || d.actual === null ? '' : clip(String(d.actual), 400).s;
    const [me, ma] = d.kind === 'changed' || d.kind === 'key-order' || d.kind === 'type' ? markDifference(e, a) : [e ? `<mark>${escapeText(e, true)}</mark>` : '', a ? `<mark>${escapeText(a, true)}</mark>` : ''];
    return `<tr><td><code class="ptr">${escapeText(path)}</code></td><td>${escapeText(String(d.kind ?? ''))}</td><td class="v">${me}</td><td class="v">${ma}</td></tr>`;
  });
  const more = diffs.length > 50 ? `<p class="note">${diffs.length - 50} more differences in report.json</p>` : '';
  return `${head}<table class="diff"><thead><tr><th>JSON pointer</th><th>change</th><th>sent</th><th>got</th></tr></thead><tbody>${rows.join('')}</tbody></table>${more}`;
}

function byteDiffBlock(d: Record<string, Json>, head: string): string {
  const ctx = (v: Json) => {
    if (typeof v !== 'string') return '';
    try {
      const s = JSON.parse(v) as unknown;
      return typeof s === 'string' ? s : v;
    } catch {
      return v;
    }
  };
  const [e, a] = markDifference(ctx(d.expectedContext), ctx(d.actualContext));
  const num = (v: Json) => (typeof v === 'number' ? thousands(v) : '?');
  return `${head}<p>First differing byte at offset <b>${num(d.offset)}</b> (sent ${num(d.expectedLength)} bytes, got ${num(d.actualLength)}); context around it:</p>
<table class="diff"><tbody><tr><th>sent</th><td class="v"><pre>${e}</pre></td></tr><tr><th>got</th><td class="v"><pre>${a}</pre></td></tr></tbody></table>`;
}

const SIDE_LABEL: Record<string, string> = {
  request: 'Request the client sent',
  sent: 'Request the client sent',
  forwarded: 'What the gateway forwarded',
  upstream: 'Upstream side',
  client: 'Client side',
};
const SIDES = Object.keys(SIDE_LABEL);

function headerTable(h: Json[]): string {
  const pairs = h.filter((x): x is [string, string] => Array.isArray(x) && x.length === 2).map(([k, v]) => [String(k), String(v)] as [string, string]);
  return `<table class="headers"><tbody>${maskHeaders(pairs)
    .map(([k, v]) => `<tr><th>${escapeText(k)}</th><td>${escapeText(clip(v, 1000).s)}</td></tr>`)
    .join('')}</tbody></table>`;
}

function sidePanel(key: string, v: Record<string, Json>): string {
  const head: string[] = [];
  const rest: string[] = [];
  for (const [k, raw] of Object.entries(v)) {
    const x = k === 'url' && typeof raw === 'string' ? maskUrl(raw) : raw;
    if (k === 'headers' && Array.isArray(x)) rest.push(`<div class="k">headers</div>${headerTable(x)}`);
    else if ((k === 'headers' || k === 'sentHeaders') && isObj(x)) rest.push(`<div class="k">${escapeText(k)}</div>${headerTable(Object.entries(x).map(([a, b]) => [a, String(b)]))}`);
    else if (typeof x === 'string' && (k === 'body' || k === 'bodyStart' || x.length > 120 || x.includes('\n'))) rest.push(`<div class="k">${escapeText(k)}</div>${pre(x)}`);
    else if (x === null || typeof x !== 'object') head.push(`<span class="kv"><span class="k">${escapeText(k)}</span> ${escapeText(String(x))}</span>`);
    else rest.push(`<div class="k">${escapeText(k)}</div>${pre(JSON.stringify(clipDeep(x), null, 1))}`);
  }
  return `<div class="side"><h4>${escapeText(SIDE_LABEL[key] ?? key)}</h4><div class="kvs">${head.join('')}</div>${rest.join('')}</div>`;
}

interface Row {
  index: number;
  name: string;
  sent: number | null;
  arrived: number | null;
}

/** Rows of a stream timeline: the oracle's text table (src/core/oracle.ts) or its row objects. */
export function parseTimeline(t: Json): Row[] {
  const num = (s: Json | undefined) => (typeof s === 'number' ? s : typeof s === 'string' && /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : null);
  if (Array.isArray(t)) return t.filter(isObj).map((r, i) => ({ index: typeof r.index === 'number' ? r.index : i, name: String(r.name ?? ''), sent: num(r.sentMs), arrived: num(r.arrivedMs) }));
  if (typeof t !== 'string') return [];
  const rows: Row[] = [];
  for (const line of t.split('\n')) {
    const m = /^\s*(\d+) {2}(.*?)\s+(-|-?\d+(?:\.\d+)?)\s+(-|-?\d+(?:\.\d+)?)\s+(-|-?\d+(?:\.\d+)?)\s*$/.exec(line);
    if (m) rows.push({ index: Number(m[1]), name: m[2].trim(), sent: num(m[3]), arrived: num(m[4]) });
  }
  return rows;
}

/** A round step for about `count` axis ticks up to max (1, 2 or 5 times a power of ten). */
function tickStep(max: number, count = 5): number {
  const raw = max / count;
  const p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((k) => k * p).find((s) => s >= raw) ?? 10 * p;
}

/** Sent and arrival time of every event (ms since the request), and the deadline sent + bound. */
export function timelineSvg(rows: Row[], boundMs: number | null): string {
  if (!rows.some((r) => r.sent !== null || r.arrived !== null)) return '';
  const W = 640;
  const H = 260;
  const L = 58;
  const R = 16;
  const T = 12;
  const B = 58;
  const top = Math.max(1, ...rows.flatMap((r) => [r.sent ?? 0, r.arrived ?? 0, boundMs !== null && r.sent !== null ? r.sent + boundMs : 0]));
  const step = tickStep(top);
  const maxT = Math.ceil(top / step) * step;
  const n = Math.max(1, rows.length - 1);
  const x = (i: number) => L + 8 + ((W - L - R - 16) * i) / n;
  const y = (ms: number) => T + (H - T - B) * (1 - ms / maxT);
  const f = (v: number) => v.toFixed(1);
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  const ticks: string[] = [];
  for (let ms = 0; ms <= maxT + step / 2; ms += step)
    ticks.push(`<line class="grid" x1="${L}" x2="${W - R}" y1="${f(y(ms))}" y2="${f(y(ms))}"/><text class="tick" x="${L - 6}" y="${f(y(ms) + 4)}" text-anchor="end">${ms.toFixed(decimals)}</text>`);
  const every = Math.max(1, Math.ceil(rows.length / 16));
  const xt = rows.map((r, i) => (i % every === 0 ? `<text class="tick" x="${f(x(i))}" y="${H - B + 16}" text-anchor="middle">${r.index}</text>` : ''));
  const marks: string[] = [];
  let late = 0;
  rows.forEach((r, i) => {
    const tip = `#${r.index} ${r.name}: sent ${r.sent ?? '-'} ms, arrived ${r.arrived ?? '-'} ms`;
    if (r.sent !== null && r.arrived !== null) marks.push(`<line class="lag" x1="${f(x(i))}" x2="${f(x(i))}" y1="${f(y(r.sent))}" y2="${f(y(r.arrived))}"/>`);
    if (r.sent !== null) marks.push(`<circle class="sent" cx="${f(x(i))}" cy="${f(y(r.sent))}" r="4"><title>${escapeText(tip)}</title></circle>`);
    if (r.arrived !== null) {
      const isLate = boundMs !== null && r.sent !== null && r.arrived - r.sent > boundMs;
      if (isLate) late++;
      marks.push(`<rect class="${isLate ? 'arrived late' : 'arrived'}" x="${f(x(i) - 4)}" y="${f(y(r.arrived) - 4)}" width="8" height="8"><title>${escapeText(tip)}</title></rect>`);
    }
  });
  const deadline = rows.map((r, i) => (r.sent === null || boundMs === null ? '' : `${f(x(i))},${f(y(r.sent + boundMs))}`)).filter(Boolean);
  const bound = deadline.length ? `<polyline class="bound" points="${deadline.join(' ')}"/>` : '';
  const ly = H - 10;
  const legend = `<g class="legend"><circle class="sent" cx="${L + 4}" cy="${ly - 4}" r="4"/><text x="${L + 12}" y="${ly}">sent by the upstream</text><rect class="arrived" x="${L + 150}" y="${ly - 8}" width="8" height="8"/><text x="${L + 162}" y="${ly}">arrived at the client</text><rect class="arrived late" x="${L + 290}" y="${ly - 8}" width="8" height="8"/><text x="${L + 302}" y="${ly}">arrived late</text>${boundMs === null ? '' : `<line class="bound" x1="${L + 390}" x2="${L + 414}" y1="${ly - 4}" y2="${ly - 4}"/><text x="${L + 420}" y="${ly}">sent + ${boundMs} ms (lag bound)</text>`}</g>`;
  const caption = `${rows.length} events; ${boundMs === null ? 'no lag bound recorded' : `${late} arrived later than the ${boundMs} ms lag bound`}`;
  return `<figure class="chart"><svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${escapeAttr(caption)}">${ticks.join('')}${xt.join('')}<text class="axis" x="${L + (W - L - R) / 2}" y="${H - B + 32}" text-anchor="middle">event</text><text class="axis" transform="translate(14,${T + (H - T - B) / 2}) rotate(-90)" text-anchor="middle">ms since the request</text>${bound}${marks.join('')}${legend}</svg><figcaption>${escapeText(caption)}</figcaption></figure>`;
}

/** Strings cut to the limit, for the raw evidence view. */
/** Header pairs with credential values masked, as the exchange panels show them. */
const isHeaderPairs = (v: Json): v is [string, string][] => Array.isArray(v) && v.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string');

function clipDeep(v: Json, depth = 0, key = ''): Json {
  // Credentials the report should not hold are masked here too (headers, a URL's key=).
  if (key === 'headers' && isHeaderPairs(v)) v = maskHeaders(v);
  if (key === 'url' && typeof v === 'string') v = maskUrl(v);
  if (typeof v === 'string') {
    const c = clip(v, HTML_LIMITS.string);
    return c.cut ? `${c.s}… [${c.cut} more characters cut]` : v;
  }
  if (depth > 16 && v !== null && typeof v === 'object') return '[… deeper levels cut]';
  if (Array.isArray(v)) return [...v.slice(0, 100).map((x) => clipDeep(x, depth + 1)), ...(v.length > 100 ? [`[… ${v.length - 100} more items cut]`] : [])];
  if (isObj(v)) {
    const e = Object.entries(v);
    return Object.fromEntries([...e.slice(0, 200).map(([k, x]) => [k, clipDeep(x, depth + 1, k)]), ...(e.length > 200 ? [['…', `${e.length - 200} more keys cut`]] : [])]);
  }
  return v;
}

const LEFT_OUT = '<p class="note">Evidence left out to keep this file small; it is in report.json.</p>';

class Budget {
  constructor(public left: number) {}
  /** The part if it fits in what is left, else a note saying it was left out. */
  take(html: string, what: string): string {
    const n = Buffer.byteLength(html);
    if (n <= this.left) {
      this.left -= n;
      return html;
    }
    return `<p class="note">${escapeText(what)} left out to keep this file small (${thousands(Math.ceil(n / 1024))} KiB); it is in report.json.</p>`;
  }
}

/** What expanding a check shows below its requirement: expected and actual, then the evidence. */
function details(r: CheckResult, problem: boolean, budget: Budget): string {
  if (budget.left < 1024) return LEFT_OUT;
  const ev = r.evidence as Json;
  const diffs: string[] = [];
  const exchanges: string[] = [];
  const charts: string[] = [];
  const requests: string[] = [];
  const replay: string[] = [];
  const fixtureAt = new Map<string, string>();
  walk(ev, '', (v, at) => {
    if (isObj(v) && typeof v.fixture === 'string') fixtureAt.set(at, v.fixture);
  });
  walk(ev, '', (v, at, key, parent) => {
    if (key === 'diffs' && Array.isArray(v) && v.length) diffs.push(jsonDiffTable(v, where(at, fixtureAt)));
    else if (key === 'byteDiff' && isObj(v)) diffs.push(byteDiffBlock(v, where(at, fixtureAt)));
    else if (key === 'timeline') {
      const rows = parseTimeline(v);
      const b = isObj(parent) && isObj(parent.bounds) && typeof parent.bounds.maxLagMs === 'number' ? parent.bounds.maxLagMs : null;
      if (rows.length) charts.push(`${where(at, fixtureAt)}<div class="timeline">${timelineSvg(rows, b)}${pre(typeof v === 'string' ? v : JSON.stringify(v, null, 1))}</div>`);
    }
    if (key === 'sent' && at === '/sent' && Array.isArray(v)) requests.push(...v.filter(isObj).map((x) => sidePanel('sent', x)));
    if (key === 'replay' && at === '/replay' && isObj(v)) {
      const lines = [typeof v.command === 'string' ? v.command : '', ...(Array.isArray(v.curl) ? v.curl.filter((c): c is string => typeof c === 'string') : [])].filter(Boolean);
      replay.push(`<p>Run this check again alone, with the same seed${lines.length > 1 ? ', or send its requests again with curl' : ''} (the credential is read from the environment, never written here):</p>${lines.map((l) => pre(l)).join('')}`);
    }
    if (isObj(v)) {
      const sides = SIDES.filter((k) => isObj(v[k]));
      if (sides.length) exchanges.push(`${where(at, fixtureAt)}<div class="sides">${sides.map((k) => sidePanel(k, v[k] as Record<string, Json>)).join('')}</div>`);
    }
  });
  const out: string[] = [];
  const per = new Budget(problem ? HTML_LIMITS.perProblem : HTML_LIMITS.perPass);
  const take = (html: string, what: string) => budget.take(per.take(html, what), what);
  const part = (title: string, html: string) => out.push(`<h3>${escapeText(title)}</h3>${take(html, title)}`);
  if (r.expected !== null || r.actual !== null)
    out.push(take(`<div class="ea"><div><h4>Expected</h4>${pre(r.expected ?? '')}</div><div><h4>Actual</h4>${pre(r.actual ?? '')}</div></div>`, 'Expected and actual'));
  if (diffs.length) part('Smallest difference', diffs.join(''));
  if (charts.length) part('Stream timeline', charts.join(''));
  if (replay.length && problem) part('Replay', replay.join(''));
  if (exchanges.length && problem) part('Exchange', exchanges.slice(0, 8).join('') + (exchanges.length > 8 ? `<p class="note">${exchanges.length - 8} more exchanges in report.json</p>` : ''));
  if (requests.length && problem) part('Requests the client sent', `<div class="sides">${requests.join('')}</div>`);
  if (Math.min(per.left, budget.left) < 256) return `${out.join('')}${LEFT_OUT}`;
  const raw = clip(JSON.stringify(clipDeep(ev), null, 2), per.left);
  if (raw.s !== '{}') out.push(`<details class="raw"><summary>All evidence (JSON)</summary>${take(`<pre>${escapeText(raw.s)}${raw.cut ? `\n${cutNote(raw.cut)}` : ''}</pre>`, 'The evidence')}</details>`);
  return out.join('');
}

// ---------------------------------------------------------------------------------------------
// The page.

const STYLE = `
:root{--fg:#1d2228;--muted:#5b6570;--line:#d9dee4;--bg:#fff;--soft:#f4f6f8;--fail:#c62828;--warn:#b26a00;--pass:#2e7d32;--info:#1565c0;--skip:#6d747c;--mark:#ffe08a}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
header{padding:18px 28px 10px;border-bottom:1px solid var(--line);background:var(--soft)}
h1{font-size:20px;margin:0 0 6px}
h2{font-size:16px;margin:22px 0 8px}
h3{font-size:13px;margin:16px 0 6px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
h4{font-size:13px;margin:0 0 6px}
main{padding:6px 28px 40px;max-width:1280px}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:12.5px}
pre{margin:0;padding:8px 10px;background:var(--soft);border:1px solid var(--line);border-radius:4px;white-space:pre-wrap;overflow-wrap:anywhere;max-height:420px;overflow:auto}
.meta{display:flex;flex-wrap:wrap;gap:6px 22px;color:var(--muted)}
.meta b{color:var(--fg);font-weight:600}
.verdict{display:inline-block;padding:2px 10px;border-radius:12px;color:#fff;font-weight:600;margin-right:8px}
.verdict.ok{background:var(--pass)}.verdict.bad{background:var(--fail)}
.badge{display:inline-block;min-width:58px;text-align:center;padding:1px 6px;border-radius:3px;font-size:11.5px;font-weight:700;color:#fff;letter-spacing:.03em}
.o-fail,.o-error,.o-timeout,.o-flaky{background:var(--fail)}.o-waived{background:var(--skip)}.o-warn{background:var(--warn)}.o-info{background:var(--info)}.o-pass{background:var(--pass)}.o-skip{background:var(--skip)}
.lvl{display:inline-block;width:60px;font-size:11.5px;color:var(--muted);font-weight:600}
table{border-collapse:collapse}
.counts td,.counts th{border:1px solid var(--line);padding:3px 9px;text-align:right}
.counts th:first-child,.counts td:first-child{text-align:left}
.counts td.hot{color:var(--fail);font-weight:700}.counts td.zero{color:#b7bec6}
.tables{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}
#filters{display:flex;flex-wrap:wrap;gap:8px 26px;padding:10px 12px;border:1px solid var(--line);border-radius:6px;background:var(--soft);margin:14px 0}
#filters fieldset{border:0;margin:0;padding:0}
#filters legend{font-weight:600;padding:0;margin-bottom:2px}
#filters label{margin-right:10px;white-space:nowrap}
#filters button{font:inherit;padding:2px 10px}
#shown{color:var(--muted);align-self:center}
details.check{border:1px solid var(--line);border-radius:6px;margin:6px 0;background:#fff}
details.check[hidden]{display:none}
details.check>summary{cursor:pointer;padding:7px 10px;display:flex;gap:10px;align-items:baseline;list-style:none}
details.check>summary::-webkit-details-marker{display:none}
details.check>summary::before{content:"▸";color:var(--muted);width:10px}
details.check[open]>summary::before{content:"▾"}
details.check[open]>summary{border-bottom:1px solid var(--line);background:var(--soft)}
details.check:target{outline:2px solid var(--info)}
.cid{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px;font-weight:600;min-width:290px}
.title{flex:1;min-width:0}
.reqs{color:var(--muted);font-size:12px;white-space:nowrap}
.permalink{color:var(--muted);text-decoration:none;font-size:12px}
.body{padding:4px 16px 14px}
.msg{font-weight:600;margin:10px 0}
.req{margin:4px 0;padding:6px 10px;border-left:3px solid var(--line);background:var(--soft)}
.req .rid{font-weight:700;margin-right:6px}.req .sec{color:var(--muted);font-size:12px}
.ea{display:grid;grid-template-columns:1fr 1fr;gap:10px}
.ea h4{color:var(--muted)}
.diff td,.diff th{border:1px solid var(--line);padding:4px 8px;vertical-align:top;text-align:left}
.diff th{background:var(--soft)}
.diff td.v{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px;overflow-wrap:anywhere}
.diff pre{border:0;background:none;padding:0}
mark{background:var(--mark);color:inherit;border-radius:2px;padding:0 1px}
.gap{color:var(--muted)}
.ptr{color:#6a1b9a}
.where{color:var(--muted);font-size:12px;margin:8px 0 4px}
.sides{display:grid;grid-template-columns:repeat(auto-fit,minmax(360px,1fr));gap:10px}
.side{border:1px solid var(--line);border-radius:4px;padding:8px}
.side .k{font-weight:600;color:var(--muted);font-size:12px;margin:6px 0 2px}
.kvs{display:flex;flex-wrap:wrap;gap:2px 14px}.kv .k{margin:0}
.headers th,.headers td{border-bottom:1px solid var(--line);padding:2px 8px 2px 0;text-align:left;vertical-align:top;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;overflow-wrap:anywhere}
.headers th{color:var(--muted);font-weight:500;white-space:nowrap}
.ctl{color:#ad1457;background:#fce4ec;border-radius:2px;padding:0 1px}
.note{color:var(--muted);font-style:italic}
.timeline{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}
.timeline>pre{flex:1 1 360px;max-height:300px}
figure.chart{margin:0 0 8px;flex:0 1 640px}
figure.chart svg{max-width:100%;height:auto;border:1px solid var(--line);border-radius:4px;background:#fff}
figcaption{color:var(--muted);font-size:12px}
.grid{stroke:#e6e9ed;stroke-width:1}
.tick,.axis,.legend text{font:11px system-ui,sans-serif;fill:#5b6570}
.sent{fill:#1565c0}
.arrived{fill:#2e7d32}.arrived.late{fill:#c62828}
.lag{stroke:#b0b8c1;stroke-width:1.5}
.bound{stroke:#c62828;stroke-width:1.5;stroke-dasharray:5 4;fill:none}
.raw>summary{cursor:pointer;color:var(--muted);margin-top:12px}
footer{color:var(--muted);font-size:12px;padding:0 28px 28px}
`;

// Filters and deep links. Static text (its hash is in the policy); it reads only the page.
const SCRIPT = `
(function () {
  var rows = Array.prototype.slice.call(document.querySelectorAll('details.check'));
  var box = document.getElementById('filters');
  var shown = document.getElementById('shown');
  function checked(name) {
    var s = {};
    box.querySelectorAll('input[name="' + name + '"]').forEach(function (i) { if (i.checked) s[i.value] = true; });
    return s;
  }
  function apply() {
    var o = checked('outcome'), a = checked('area'), l = checked('level'), n = 0;
    rows.forEach(function (r) {
      var on = !!(o[r.dataset.outcome] && a[r.dataset.area] && l[r.dataset.level]);
      r.hidden = !on;
      if (on) n++;
    });
    shown.textContent = n + ' of ' + rows.length + ' checks shown';
  }
  function preset(which) {
    box.querySelectorAll('input').forEach(function (i) {
      i.checked = which === 'all' || i.name !== 'outcome' || (i.value !== 'pass' && i.value !== 'skip');
    });
    apply();
  }
  function openHash() {
    var id = '';
    try { id = decodeURIComponent(location.hash.slice(1)); } catch (e) { return; }
    var el = id ? document.getElementById(id) : null;
    if (el && el.classList.contains('check')) {
      el.hidden = false;
      el.open = true;
      el.scrollIntoView({ block: 'start' });
    }
  }
  box.addEventListener('change', apply);
  box.querySelectorAll('button[data-preset]').forEach(function (b) {
    b.addEventListener('click', function () { preset(b.getAttribute('data-preset')); });
  });
  window.addEventListener('hashchange', openHash);
  box.hidden = false;
  apply();
  openHash();
})();
`;

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('base64');
/** The page's Content-Security-Policy: nothing may load; the one style and script run by hash. */
export const CSP = `default-src 'none'; script-src 'sha256-${sha256(SCRIPT)}'; style-src 'sha256-${sha256(STYLE)}'; img-src 'none'; font-src 'none'; connect-src 'none'; media-src 'none'; object-src 'none'; frame-src 'none'; worker-src 'none'; manifest-src 'none'; base-uri 'none'; form-action 'none'`;

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
  const tries = Array.isArray(r.evidence.attempts) ? (r.evidence.attempts as Array<{ attempt: number; outcome: string; message: string; durationMs: number }>) : [];
  const attempts = tries.length > 1 ? `<h3>Attempts</h3><table class="diff"><tbody>${tries.map((a) => `<tr><td>#${a.attempt}</td><td>${escapeText(String(a.outcome))}</td><td>${a.durationMs} ms</td><td class="v">${escapeText(clip(String(a.message), 500).s)}</td></tr>`).join('')}</tbody></table>` : '';
  const body = `<div class="body"><p class="msg">${escapeText(message.s)}${message.cut ? ` ${cutNote(message.cut)}` : ''}</p>${waiver}${attempts}<h3>Requirement</h3>${reqs}${details(r, problem, budget)}</div>`;
  const id = escapeAttr(r.id);
  return `<details class="check" id="${id}" data-outcome="${escapeAttr(r.outcome)}" data-area="${escapeAttr(r.area)}" data-level="${escapeAttr(r.level)}">
<summary><span class="badge o-${escapeAttr(r.outcome)}">${escapeText(r.outcome.toUpperCase())}</span><span class="lvl">${escapeText(r.level)}</span><span class="cid">${escapeText(r.id)}</span><span class="title">${escapeText(clip(r.title, 300).s)}</span><span class="reqs">${escapeText(r.requirements.join(', '))} · ${r.durationMs} ms</span><a class="permalink" href="#${escapeAttr(encodeURIComponent(r.id))}" title="link to this check">#</a></summary>
${body}</details>`;
}

/** The report as one self-contained HTML page. */
export function htmlReport(report: RunReport, catalog: CatalogText[] = loadCatalog()): string {
  const cat = new Map(catalog.map((c) => [c.id, c]));
  const results = [...report.results].sort((a, b) => OUTCOMES.indexOf(a.outcome) - OUTCOMES.indexOf(b.outcome));
  const present = OUTCOMES.filter((o) => results.some((r) => r.outcome === o));
  const cols = present.length ? present : (['pass'] as Outcome[]);
  const areas = [...new Set(results.map((r) => r.area))].sort();
  const levels = [...LEVELS.filter((l) => results.some((r) => r.level === l)), ...new Set(results.map((r) => r.level).filter((l) => !LEVELS.includes(l)))];
  // What the rows and the frame take without evidence is small; evidence gets the rest.
  const budget = new Budget(HTML_LIMITS.maxBytes - 120_000 - 4_000 * results.length);
  const rows = results.map((r) => checkRow(r, cat, budget)).join('\n');
  const s = report.summary;
  const ok = report.exitCode === 0;
  const box = (name: string, values: string[]) =>
    `<fieldset><legend>${name}</legend>${values.map((v) => `<label><input type="checkbox" name="${name}" value="${escapeAttr(v)}" checked> ${escapeText(v)}</label>`).join('')}</fieldset>`;
  const ws = report.waivers;
  const wname = (x: { check?: string; requirement?: string }) => escapeText(x.check ?? `requirement ${x.requirement}`);
  const waivers = ws
    ? `<h2>Waivers</h2><table class="diff"><thead><tr><th>state</th><th>waiver</th><th>expires</th><th>reason</th><th>checks</th></tr></thead><tbody>${[
        ...ws.applied.map((x) => ['applied', x, x.checks] as const),
        ...ws.expired.map((x) => ['expired: no longer applied', x, x.checks] as const),
        ...ws.unused.map((x) => ['unused: matched nothing', x, [] as string[]] as const),
      ]
        .map(([state, x, checks]) => `<tr><td>${escapeText(state)}</td><td>${wname(x)}</td><td>${escapeText(x.expires)}</td><td class="v">${escapeText(clip(x.reason, 500).s)}</td><td>${checks.map((c) => escapeText(c)).join(', ')}</td></tr>`)
        .join('')}</tbody></table>`
    : '';
  const unmatched = report.unmatchedRequests.length
    ? `<h2>Requests no check expected (${report.unmatchedRequests.length})</h2><table class="diff"><thead><tr><th>method</th><th>url</th><th>reason</th><th>received</th></tr></thead><tbody>${report.unmatchedRequests
        .slice(0, 100)
        .map((u) => `<tr><td>${escapeText(u.method)}</td><td class="v">${escapeText(maskUrl(clip(u.url, 500).s))}</td><td>${escapeText(u.reason)}</td><td>${escapeText(u.receivedWall)}</td></tr>`)
        .join('')}</tbody></table>`
    : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>gw-conformance: ${escapeText(ok ? 'passed' : 'failed')}, ${s.total} checks against ${escapeText(report.target)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1><span class="verdict ${ok ? 'ok' : 'bad'}">${ok ? 'PASSED' : 'FAILED'}</span>gw-conformance report</h1>
<div class="meta"><span>target <b>${escapeText(report.target)}</b></span><span>upstream <b>${escapeText(report.upstream ?? 'none')}</b></span><span>profile <b>${escapeText(report.profile)}</b></span><span>seed <b>${escapeText(String(report.seed))}</b></span><span>harness <b>${escapeText(`${report.harness.name} ${report.harness.version}`)}</b></span><span>report schema <b>${escapeText(report.schemaVersion)}</b></span>${report.strict ? '<span><b>strict</b></span>' : ''}${features(report)}<span>started <b>${escapeText(report.startedAt)}</b></span><span>took <b>${(report.durationMs / 1000).toFixed(1)} s</b></span><span>exit code <b>${report.exitCode}</b></span></div>
</header>
<main>
<h2>Summary: ${s.total} checks, ${OUTCOMES.filter((o) => s[o]).map((o) => `${s[o]} ${o}`).join(', ') || 'none run'}</h2>
<div class="tables">${countsTable('area', areas, (r) => r.area, results, cols)}${countsTable('level', levels, (r) => r.level, results, cols)}</div>
${waivers}${unmatched}
<h2>Checks</h2>
<div id="filters" hidden>${box('outcome', present)}${box('area', areas)}${box('level', levels)}<fieldset><legend>show</legend><button type="button" data-preset="problems">problems only</button> <button type="button" data-preset="all">all</button></fieldset><span id="shown"></span></div>
${rows}
</main>
<footer>Generated by ${escapeText(report.harness.name)} ${escapeText(report.harness.version)} from report.json (schema ${escapeText(report.schemaVersion)}). Everything the gateway sent is shown as text; long evidence is cut, and report.json holds all of it. Link to a check with #its-id.</footer>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
