// A check's evidence on the HTML page: where its known parts are (the vocabulary of
// src/core/evidence.ts, at any depth) and how each is drawn: JSON and byte differences, stream
// timelines, load latency and throughput charts, both sides of an exchange (credentials masked again), the replay lines, and the raw
// JSON, all within a byte budget so the page stays small.
import { SIDE_KEYS, evidenceKey as K } from '../../core/evidence.js';
import { escapeText } from '../../core/inert.js';
import { maskHeaders, maskUrl } from '../../core/mask.js';
import type { CheckResult } from '../../report/shared/types.js';
import { clip, command, cutNote, HTML_LIMITS, isObj, pre, thousands, type Json } from './escape.js';
import { hasLoadCharts, loadCharts } from './load.js';
import { parseTimeline, timelineSvg } from './timeline.js';
import { framesTable } from './frames.js';

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

const SIDE_LABEL: Record<(typeof SIDE_KEYS)[number], string> = {
  request: 'Request the client sent',
  sent: 'Request the client sent',
  forwarded: 'What the gateway forwarded',
  upstream: 'Upstream side',
  client: 'Client side',
};

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
  return `<div class="side"><h4>${escapeText(SIDE_LABEL[key as keyof typeof SIDE_LABEL] ?? key)}</h4><div class="kvs">${head.join('')}</div>${rest.join('')}</div>`;
}

/** Whether a value is a list of [name, value] header pairs. */
const isHeaderPairs = (v: Json): v is [string, string][] => Array.isArray(v) && v.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string');

/** The evidence for the raw JSON view: strings, lists and objects cut to the limits, credentials masked. */
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

export class Budget {
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
export function details(r: CheckResult, problem: boolean, budget: Budget): string {
  if (budget.left < 1024) return LEFT_OUT;
  const ev = r.evidence as Json;
  const diffs: string[] = [];
  const exchanges: string[] = [];
  const charts: string[] = [];
  const frames: string[] = [];
  const loads: string[] = [];
  const requests: string[] = [];
  const replay: string[] = [];
  const fixtureAt = new Map<string, string>();
  walk(ev, '', (v, at) => {
    if (isObj(v) && typeof v[K('fixture')] === 'string') fixtureAt.set(at, v[K('fixture')] as string);
  });
  walk(ev, '', (v, at, key, parent) => {
    if (key === K('diffs') && Array.isArray(v) && v.length) diffs.push(jsonDiffTable(v, where(at, fixtureAt)));
    else if (key === K('byteDiff') && isObj(v)) diffs.push(byteDiffBlock(v, where(at, fixtureAt)));
    else if (key === K('timeline')) {
      const rows = parseTimeline(v);
      const bounds = isObj(parent) ? parent[K('bounds')] : undefined;
      const b = isObj(bounds) && typeof bounds.maxLagMs === 'number' ? bounds.maxLagMs : null;
      if (rows.length) charts.push(`${where(at, fixtureAt)}<div class="timeline">${timelineSvg(rows, b)}${pre(typeof v === 'string' ? v : JSON.stringify(v, null, 1))}</div>`);
    }
    if (key === K('socketFrames')) {
      const table = framesTable(v);
      if (table) frames.push(`${where(at, fixtureAt)}${table}`);
    }
    if (key === K('sent') && at === '/sent' && Array.isArray(v)) requests.push(...v.filter(isObj).map((x) => sidePanel('sent', x)));
    if (key === K('replay') && at === '/replay' && isObj(v)) {
      const lines = [typeof v.command === 'string' ? v.command : '', ...(Array.isArray(v.curl) ? v.curl.filter((c): c is string => typeof c === 'string') : [])].filter(Boolean);
      replay.push(`<p>Run this check again alone, with the same seed${lines.length > 1 ? ', or send its requests again with curl' : ''} (the credential is read from the environment, never written here):</p>${lines.map(command).join('')}`);
    }
    if (hasLoadCharts(v)) loads.push(`${where(at, fixtureAt)}${loadCharts(v)}`);
    if (isObj(v)) {
      const sides = SIDE_KEYS.filter((k) => isObj(v[k]));
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
  if (frames.length) part('WebSocket messages', frames.join(''));
  // The load charts are what a load run is read for: they take from the page's budget only, not a check's.
  if (loads.length) out.push(`<h3>Latency and throughput</h3>${budget.take(loads.join(''), 'Latency and throughput')}`);
  if (replay.length && problem) part('Replay', replay.join(''));
  if (exchanges.length && problem) part('Exchange', exchanges.slice(0, 8).join('') + (exchanges.length > 8 ? `<p class="note">${exchanges.length - 8} more exchanges in report.json</p>` : ''));
  if (requests.length && problem) part('Requests the client sent', `<div class="sides">${requests.join('')}</div>`);
  if (Math.min(per.left, budget.left) < 256) return `${out.join('')}${LEFT_OUT}`;
  const raw = clip(JSON.stringify(clipDeep(ev), null, 2), per.left);
  if (raw.s !== '{}') out.push(`<details class="raw"><summary>All evidence (JSON)</summary>${take(`<pre>${escapeText(raw.s)}${raw.cut ? `\n${cutNote(raw.cut)}` : ''}</pre>`, 'The evidence')}</details>`);
  return out.join('');
}
