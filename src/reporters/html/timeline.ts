// The stream timeline of a timing check as an SVG chart: when the upstream sent each event,
// when it reached the client, and the deadline "sent + lag bound"; late arrivals marked.
import { escapeAttr, escapeText } from '../../core/inert.js';
import { tickStep } from './chart.js';
import { isObj, type Json } from './escape.js';
import { plural } from '../../core/words.js';

export interface Row {
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
  const caption = `${plural(rows.length, 'event')}; ${boundMs === null ? 'no lag bound recorded' : `${late} arrived later than the ${boundMs} ms lag bound`}`;
  return `<figure class="chart"><svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${escapeAttr(caption)}">${ticks.join('')}${xt.join('')}<text class="axis" x="${L + (W - L - R) / 2}" y="${H - B + 32}" text-anchor="middle">event</text><text class="axis" transform="translate(14,${T + (H - T - B) / 2}) rotate(-90)" text-anchor="middle">ms since the request</text>${bound}${marks.join('')}${legend}</svg><figcaption>${escapeText(caption)}</figcaption></figure>`;
}
