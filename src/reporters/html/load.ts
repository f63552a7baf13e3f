// The load profile's charts on the HTML page (load.perf.cost's evidence, or any evidence of the
// same shape, merged shard reports included): the latency percentiles straight to the upstream
// and through the gateway as grouped bars, and the answers per second over the run as lines
// with the declared rate, each followed by its numbers in a table. Only numbers are read from
// the evidence, and only finite ones of zero or more; every label is the harness's own text.
import { evidenceKey as K } from '../../core/evidence.js';
import { PER_SECOND_MAX } from '../../core/histogram.js';
import { barChart, drawable, lineChart, num, type Series } from './chart.js';
import { isObj, thousands, type Json } from './escape.js';
import { plural } from '../../core/words.js';

const PCTS = [['p50', 'p50'], ['p95', 'p95'], ['p99', 'p99'], ['p999', 'p99.9']] as const;
type Pct = Record<(typeof PCTS)[number][0], number> & { count?: number; max?: number };
interface PerSecond {
  direct: number[];
  through: number[];
}

const STRAIGHT = 'straight to the upstream';
const THROUGH = 'through the gateway';

function pct(v: Json | undefined): Pct | null {
  if (!isObj(v) || !PCTS.every(([k]) => drawable(v[k]))) return null;
  return v as unknown as Pct;
}

/** A pair of per-second series (each a list of counts; cut to PER_SECOND_MAX seconds), or null. */
function perSecond(v: Json | undefined): PerSecond | null {
  const list = (x: Json | undefined) => (Array.isArray(x) && x.every(drawable) ? (x as number[]).slice(0, PER_SECOND_MAX) : null);
  if (!isObj(v)) return null;
  const direct = list(v.direct);
  const through = list(v.through);
  return direct && through ? { direct, through } : null;
}

/** Whether an evidence object holds what the load charts draw. */
export function hasLoadCharts(v: Json): boolean {
  return isObj(v) && ((pct(v[K('direct')]) !== null && pct(v[K('through')]) !== null) || perSecond(v[K('throughput')]) !== null);
}

const td = (v: number | undefined | null) => `<td>${typeof v === 'number' && Number.isFinite(v) ? num(v) : '-'}</td>`;

function latencyPart(d: Pct, t: Pct, rate: number | null): string {
  const count = (p: Pct) => (drawable(p.count) ? plural(p.count, 'request', 'requests', thousands(p.count)) : 'requests');
  const series: Series[] = [
    { name: STRAIGHT, cls: 'direct', values: PCTS.map(([k]) => d[k]) },
    { name: THROUGH, cls: 'through', values: PCTS.map(([k]) => t[k]) },
  ];
  const list = (p: Pct) => PCTS.map(([k, label]) => `${label} ${num(p[k])} ms`).join(', ');
  const at = rate === null ? '' : ` at ${num(rate)} per second`;
  const chart = barChart(
    {
      title: `Latency percentiles${at}, ${STRAIGHT} and ${THROUGH}`,
      desc: `${STRAIGHT} (${count(d)}): ${list(d)}. ${THROUGH} (${count(t)}): ${list(t)}.`,
      xLabel: 'percentile',
      yLabel: 'latency (ms)',
      unit: ' ms',
      categories: PCTS.map(([, label]) => label),
      series,
    },
    `Latency of the same JSON requests${at}: ${STRAIGHT} (${count(d)}) and ${THROUGH} (${count(t)}); the gateway added ${num(t.p99 - d.p99)} ms at p99.`,
  );
  const rows = [...PCTS, ['max', 'max'] as const].map(([k, label]) => {
    const a = d[k as keyof Pct];
    const b = t[k as keyof Pct];
    return `<tr><th>${label}</th>${td(a)}${td(b)}${td(drawable(a) && drawable(b) ? b - a : null)}</tr>`;
  });
  const table = `<table class="diff nums"><thead><tr><th>latency (ms)</th><th>${STRAIGHT}</th><th>${THROUGH}</th><th>added</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
  return `<div class="loadchart">${chart}${table}</div>`;
}

function throughputPart(tp: PerSecond, failures: PerSecond | null, rate: number | null): string {
  const n = Math.max(tp.direct.length, tp.through.length, failures?.direct.length ?? 0, failures?.through.length ?? 0);
  if (n === 0) return '<p class="note">No answer was counted per second.</p>';
  const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
  const failed = failures ? sum(failures.direct) + sum(failures.through) : 0;
  const series: Series[] = [
    { name: STRAIGHT, cls: 'direct', values: tp.direct },
    { name: THROUGH, cls: 'through', values: tp.through },
    ...(failed && failures ? [{ name: 'failures through the gateway', cls: 'failed', values: failures.through }] : []),
  ];
  const seconds = Array.from({ length: n }, (_, i) => String(i + 1));
  const peak = (a: number[]) => (a.length ? Math.max(...a) : 0);
  const chart = lineChart(
    {
      title: `Answers per second over ${n} s, ${STRAIGHT} and ${THROUGH}`,
      desc: `${STRAIGHT}: ${plural(sum(tp.direct), 'answer', 'answers', thousands(sum(tp.direct)))}, at most ${peak(tp.direct)} in a second; ${THROUGH}: ${thousands(sum(tp.through))}, at most ${peak(tp.through)} in a second; ${failures ? `${thousands(failed)} failures` : 'failures not recorded'}.${rate === null ? '' : ` The declared rate is ${num(rate)} per second.`}`,
      xLabel: 'second of the phase',
      yLabel: 'answers per second',
      unit: ' answers',
      categories: seconds,
      series,
      ...(rate === null ? {} : { reference: { value: rate, label: `declared rate ${num(rate)}/s` } }),
    },
    `Answers (not failures) that ended in each second since the phase started; the last second may be partial.${failures ? ` Failures: ${thousands(failed)}.` : ''}`,
  );
  const cell = (a: number[] | undefined, i: number) => td(a?.[i] ?? (a && i >= a.length ? 0 : null));
  const head = `<tr><th>second</th><th>${STRAIGHT}</th><th>${THROUGH}</th>${failures ? '<th>failures straight</th><th>failures through</th>' : ''}</tr>`;
  const rows = seconds.map((s, i) => `<tr><th>${s}</th>${cell(tp.direct, i)}${cell(tp.through, i)}${failures ? cell(failures.direct, i) + cell(failures.through, i) : ''}</tr>`);
  const table = `<table class="diff nums"><thead>${head}</thead><tbody>${rows.join('')}</tbody></table>`;
  // A long run's table is folded away (the chart shows its shape; the numbers stay one click away).
  return `<div class="loadchart">${chart}${n > 30 ? `<details class="raw"><summary>answers per second, ${n} rows</summary>${table}</details>` : table}</div>`;
}

/** The load charts and tables of one evidence object ('' when it holds none). */
export function loadCharts(v: Json): string {
  if (!isObj(v)) return '';
  const rate = drawable(v.rate) ? v.rate : null;
  const d = pct(v[K('direct')]);
  const t = pct(v[K('through')]);
  const tp = perSecond(v[K('throughput')]);
  return `${d && t ? latencyPart(d, t, rate) : ''}${tp ? throughputPart(tp, perSecond(v[K('failuresPerSecond')]), rate) : ''}`;
}
