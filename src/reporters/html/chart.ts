// Small SVG charts for the HTML page, plain markup that needs no script and loads nothing:
// grouped bars and lines over one frame (round ticks from zero, axis labels, a legend), each
// with a <title> and a <desc> for screen readers. Values that are not finite numbers of zero or
// more are left out (never drawn as NaN); a chart with no value left is no chart (''). Series
// are styled by class (style.ts), so the colours follow the page's light and dark schemes; the
// lines also differ by dash, for readers who cannot tell the colours apart.
import { escapeAttr, escapeText } from '../../core/inert.js';

/** The frame: the SVG's size and the plot area's margins (px). */
export const FRAME = { W: 640, H: 280, L: 62, R: 16, T: 14, B: 66 } as const;
const { W, H, L, R, T, B } = FRAME;

export interface Series {
  name: string;
  /** Its class suffix (style.ts): `direct`, `through` or `failed`. */
  cls: string;
  values: Array<number | null>;
}

export interface ChartSpec {
  title: string;
  desc: string;
  xLabel: string;
  yLabel: string;
  /** Appended to a value in its tooltip (" ms", " answers"). */
  unit: string;
  /** One label per x position (a bar group, a point of a line). */
  categories: string[];
  series: Series[];
  /** A horizontal reference line (the declared rate), with its legend text. */
  reference?: { value: number; label: string };
}

/** A value to draw: a finite number, zero or more. */
export const drawable = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** A round step for about `count` axis ticks up to max (1, 2 or 5 times a power of ten). */
export function tickStep(max: number, count = 5): number {
  const raw = max / count;
  const p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((k) => k * p).find((s) => s >= raw) ?? 10 * p;
}

/** The y axis for values up to `max`: its top (a whole number of steps), the step, and the scale. */
export function yAxis(max: number): { top: number; step: number; y: (v: number) => number } {
  const step = tickStep(max > 0 ? max : 1);
  // The first whole step above the largest value: a little room over the highest bar or point.
  const top = (Math.floor(max / step) + 1) * step;
  return { top, step, y: (v: number) => T + (H - T - B) * (1 - v / top) };
}

/** Rounds for display and for coordinates: no float noise (0.1 + 0.2), no "-0". */
export const num = (v: number, decimals = 3) => String(Math.round(v * 10 ** decimals) / 10 ** decimals + 0);
const f = (v: number) => num(v, 1);

/** The frame of a chart: grid, y ticks, x labels (at most about 16), axis labels, legend, title and desc. */
function frame(spec: ChartSpec, top: number, step: number, y: (v: number) => number, xs: number[], legend: string): string {
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  const grid: string[] = [];
  for (let i = 0; i * step <= top + step / 2; i++) {
    const v = i * step;
    grid.push(`<line class="grid" x1="${L}" x2="${W - R}" y1="${f(y(v))}" y2="${f(y(v))}"/><text class="tick" x="${L - 6}" y="${f(y(v) + 4)}" text-anchor="end">${v.toFixed(decimals)}</text>`);
  }
  const every = Math.max(1, Math.ceil(spec.categories.length / 16));
  const labels = spec.categories.map((c, i) => (i % every === 0 ? `<text class="tick" x="${f(xs[i])}" y="${H - B + 16}" text-anchor="middle">${escapeText(c)}</text>` : ''));
  const axes = `<text class="axis" x="${L + (W - L - R) / 2}" y="${H - B + 34}" text-anchor="middle">${escapeText(spec.xLabel)}</text><text class="axis" transform="translate(14,${T + (H - T - B) / 2}) rotate(-90)" text-anchor="middle">${escapeText(spec.yLabel)}</text>`;
  return `<title>${escapeText(spec.title)}</title><desc>${escapeText(spec.desc)}</desc>${grid.join('')}${labels.join('')}${axes}<g class="legend">${legend}</g>`;
}

/** The legend: one swatch and name per series (and the reference line), in a row under the axis label. */
function legendOf(spec: ChartSpec, swatch: (s: Series, x: number, y: number) => string): string {
  const y = H - 12;
  let x = L;
  const out: string[] = [];
  const items = [...spec.series.map((s) => ({ s, text: s.name })), ...(spec.reference ? [{ s: null, text: spec.reference.label }] : [])];
  for (const it of items) {
    out.push(it.s ? swatch(it.s, x, y) : `<line class="ref" x1="${x}" x2="${x + 18}" y1="${y - 4}" y2="${y - 4}"/>`);
    out.push(`<text x="${x + 24}" y="${y}">${escapeText(it.text)}</text>`);
    x += 40 + it.text.length * 6.2;
  }
  return out.join('');
}

const wrap = (inner: string, caption: string) =>
  `<figure class="chart"><svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img">${inner}</svg><figcaption>${escapeText(caption)}</figcaption></figure>`;

const tip = (spec: ChartSpec, s: Series, i: number, v: number) => `<title>${escapeText(`${s.name}, ${spec.categories[i] ?? i}: ${num(v)}${spec.unit}`)}</title>`;

const maxOf = (spec: ChartSpec) => Math.max(0, ...spec.series.flatMap((s) => s.values.filter(drawable)), drawable(spec.reference?.value) ? spec.reference.value : 0);
const hasValues = (spec: ChartSpec) => spec.series.some((s) => s.values.some(drawable)) && spec.categories.length > 0;

/** Grouped bars: a group per category, a bar per series, its value written above it. */
export function barChart(spec: ChartSpec, caption: string): string {
  if (!hasValues(spec)) return '';
  const { top, step, y } = yAxis(maxOf(spec));
  const groupW = (W - L - R) / spec.categories.length;
  const barW = Math.min(48, (groupW * 0.8) / Math.max(1, spec.series.length));
  const xs = spec.categories.map((_, i) => L + groupW * (i + 0.5));
  const bars: string[] = [];
  spec.series.forEach((s, k) =>
    s.values.forEach((v, i) => {
      if (i >= xs.length || !drawable(v)) return;
      const x = xs[i] - (barW * spec.series.length) / 2 + k * barW;
      bars.push(`<rect class="bar s-${escapeAttr(s.cls)}" x="${f(x)}" y="${f(y(v))}" width="${f(barW - 2)}" height="${f(y(0) - y(v))}">${tip(spec, s, i, v)}</rect>`);
      bars.push(`<text class="val" x="${f(x + (barW - 2) / 2)}" y="${f(y(v) - 3)}" text-anchor="middle">${num(v)}</text>`);
    }),
  );
  const legend = legendOf(spec, (s, x, ly) => `<rect class="bar s-${escapeAttr(s.cls)}" x="${x}" y="${ly - 9}" width="18" height="10"/>`);
  return wrap(`${frame(spec, top, step, y, xs, legend)}${bars.join('')}`, caption);
}

/** The x position of point i of n (one point sits in the middle). */
export function pointX(i: number, n: number): number {
  const pad = 10;
  return n <= 1 ? L + (W - L - R) / 2 : L + pad + ((W - L - R - 2 * pad) * i) / (n - 1);
}

/** Lines: a polyline per series through its values (a gap left out), a marked point each when there are few. */
export function lineChart(spec: ChartSpec, caption: string): string {
  if (!hasValues(spec)) return '';
  const { top, step, y } = yAxis(maxOf(spec));
  const n = spec.categories.length;
  const xs = spec.categories.map((_, i) => pointX(i, n));
  const marks: string[] = [];
  if (spec.reference && drawable(spec.reference.value)) marks.push(`<line class="ref" x1="${L}" x2="${W - R}" y1="${f(y(spec.reference.value))}" y2="${f(y(spec.reference.value))}"/>`);
  // The first series is drawn last, on top: where two lines meet, the dashed one still shows.
  for (const s of [...spec.series].reverse()) {
    const pts = s.values.map((v, i) => (i < n && drawable(v) ? { i, v } : null)).filter((p): p is { i: number; v: number } => p !== null);
    if (pts.length > 1) marks.push(`<polyline class="line s-${escapeAttr(s.cls)}" points="${pts.map((p) => `${f(xs[p.i])},${f(y(p.v))}`).join(' ')}"/>`);
    // Points: always for a single value (a line needs two), each with its value, while they are few.
    if (pts.length === 1 || n <= 60) for (const p of pts) marks.push(`<circle class="pt s-${escapeAttr(s.cls)}" cx="${f(xs[p.i])}" cy="${f(y(p.v))}" r="3">${tip(spec, s, p.i, p.v)}</circle>`);
  }
  const legend = legendOf(spec, (s, x, ly) => `<line class="line s-${escapeAttr(s.cls)}" x1="${x}" x2="${x + 18}" y1="${ly - 4}" y2="${ly - 4}"/>`);
  return wrap(`${frame(spec, top, step, y, xs, legend)}${marks.join('')}`, caption);
}
