// The load charts of the HTML report (src/reporters/html/chart.ts, load.ts): the SVG builder puts
// every value where its scale says, survives empty, one-point and bad series without a NaN, and
// a real load run on the reference gateway (small rates) shows the charts and tables with its
// evidence's own numbers; then the page in chromium, where the charts are visible images with
// their names. No assertion here depends on the figures the run measured, only on the evidence.
//
// The run is the CLI called in this process; the browser part needs /usr/bin/chromium (as html.test.ts).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { barChart, FRAME, lineChart, pointX, yAxis, type ChartSpec } from '../../../src/reporters/html/chart.js';
import { hasLoadCharts, loadCharts } from '../../../src/reporters/html/load.js';
import { htmlReport } from '../../../src/reporters/html/page.js';
import type { RunReport } from '../../../src/report/shared/types.js';
import { cliInProcess } from '../../helpers/in-process.js';
import { hasChromium, launchChromium, requireChromium, watchPage } from '../../helpers/chromium.js';

const spec = (over: Partial<ChartSpec> = {}): ChartSpec => ({
  title: 'a title',
  desc: 'a description',
  xLabel: 'x',
  yLabel: 'y',
  unit: ' ms',
  categories: ['a', 'b', 'c'],
  series: [
    { name: 'one', cls: 'direct', values: [1, 2, 3] },
    { name: 'two', cls: 'through', values: [4, 5.5, 7] },
  ],
  ...over,
});

const attr = (tag: string, name: string) => Number(new RegExp(`\\s${name}="([^"]*)"`).exec(tag)![1]);
const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThanOrEqual(0.06);
const NOT_A_NUMBER = /NaN|Infinity|undefined/;

describe('the chart builder', () => {
  it('scales from zero to the first round step above the largest value', () => {
    for (const max of [0, 0.004, 1, 7, 20, 99.5, 1234]) {
      const { top, step, y } = yAxis(max);
      expect(top).toBeGreaterThan(max);
      expect(Math.abs(top / step - Math.round(top / step))).toBeLessThan(1e-9);
      expect(y(0)).toBe(FRAME.H - FRAME.B);
      close(y(top), FRAME.T);
    }
  });

  it('bars: one per value, its height the value on the axis, its value in its tooltip and above it', () => {
    const svg = barChart(spec(), 'caption');
    const { y } = yAxis(7);
    const rects = [...svg.matchAll(/<rect class="bar s-(\w+)" [^>]*>(<title>[^<]*<\/title>)?/g)].filter((m) => m[2]);
    expect(rects.map((m) => m[1])).toEqual(['direct', 'direct', 'direct', 'through', 'through', 'through']);
    [1, 2, 3, 4, 5.5, 7].forEach((v, i) => {
      const tag = rects[i][0];
      close(attr(tag, 'y'), y(v));
      close(attr(tag, 'y') + attr(tag, 'height'), y(0));
      expect(rects[i][2]).toBe(`<title>${i < 3 ? 'one' : 'two'}, ${'abc'[i % 3]}: ${v} ms</title>`);
      expect(svg).toContain(`text-anchor="middle">${v}</text>`);
    });
    expect(svg).toMatch(/^<figure class="chart"><svg viewBox="0 0 640 280" width="640" height="280" role="img"><title>a title<\/title><desc>a description<\/desc>/);
    expect(svg).toContain('<figcaption>caption</figcaption>');
    expect(svg).not.toMatch(NOT_A_NUMBER);
  });

  it('lines: a point per value at its place on both axes, the reference line at its value', () => {
    const s = spec({ reference: { value: 10, label: 'declared' } });
    const svg = lineChart(s, 'caption');
    const { y } = yAxis(10);
    const lines = [...svg.matchAll(/<polyline class="line s-(\w+)" points="([^"]+)"\/>/g)];
    expect(lines.map((m) => m[1]).sort()).toEqual(['direct', 'through']);
    for (const [, cls, pts] of lines) {
      const values = s.series.find((x) => x.cls === cls)!.values as number[];
      const xy = pts.split(' ').map((p) => p.split(',').map(Number));
      expect(xy).toHaveLength(3);
      xy.forEach(([px, py], i) => {
        close(px, pointX(i, 3));
        close(py, y(values[i]));
      });
    }
    const ref = new RegExp(`<line class="ref" x1="${FRAME.L}" x2="${FRAME.W - FRAME.R}" y1="([^"]+)"`).exec(svg)!;
    close(Number(ref[1]), y(10));
    expect(svg.match(/<circle class="pt/g)).toHaveLength(6);
    expect(svg).toContain('<title>two, c: 7 ms</title>');
    expect(svg).not.toMatch(NOT_A_NUMBER);
  });

  it('no chart for no value; one point drawn alone in the middle; bad values left out, never NaN', () => {
    expect(lineChart(spec({ categories: [], series: [] }), 'c')).toBe('');
    expect(lineChart(spec({ series: [{ name: 'x', cls: 'direct', values: [] }] }), 'c')).toBe('');
    expect(barChart(spec({ categories: [] }), 'c')).toBe('');
    const one = lineChart(spec({ categories: ['1'], series: [{ name: 'x', cls: 'through', values: [0] }] }), 'c');
    expect(one).not.toContain('<polyline');
    const c = /<circle class="pt s-through" cx="([^"]+)" cy="([^"]+)"/.exec(one)!;
    close(Number(c[1]), (FRAME.L + FRAME.W - FRAME.R) / 2);
    close(Number(c[2]), FRAME.H - FRAME.B);
    // All zeros: a frame with a step of one, the points on the floor.
    expect(lineChart(spec({ series: [{ name: 'x', cls: 'direct', values: [0, 0, 0] }] }), 'c')).not.toMatch(NOT_A_NUMBER);
    const bad = [NaN, Infinity, -1, '7' as unknown as number, null, 2];
    const svg = lineChart(spec({ categories: bad.map((_, i) => String(i)), series: [{ name: 'x', cls: 'direct', values: bad }] }), 'c');
    expect(svg).not.toMatch(NOT_A_NUMBER);
    expect(svg.match(/<circle class="pt/g)).toHaveLength(1);
    expect(barChart(spec({ series: [{ name: 'x', cls: 'direct', values: bad }], categories: bad.map(String) }), 'c').match(/<rect class="bar s-direct" x/g)).toHaveLength(1 + 1); // + the legend
  });

  it('labels are text: markup in a name or a label is escaped', () => {
    const svg = barChart(spec({ title: '</svg><script>alert(1)</script>', categories: ['<b>', 'b', 'c'], series: [{ name: '"><img>', cls: 'x"y', values: [1, 2, 3] }] }), '<i>');
    expect(svg).not.toMatch(/<script|<img|<b>|<i>|x"y/);
    expect(svg).toContain('&lt;/svg&gt;&lt;script&gt;');
  });

  it('many points: lines only, x labels thinned to about 16', () => {
    const n = 300;
    const values = Array.from({ length: n }, (_, i) => i % 7);
    const svg = lineChart(spec({ categories: values.map((_, i) => String(i + 1)), series: [{ name: 'x', cls: 'through', values }] }), 'c');
    expect(svg).not.toContain('<circle');
    expect(/points="([^"]+)"/.exec(svg)![1].split(' ')).toHaveLength(n);
    expect(svg.match(/<text class="tick" x="[^"]+" y="230"/g)!.length).toBeLessThanOrEqual(20);
  });
});

describe('load evidence on the page', () => {
  const pct = (k: number) => ({ count: 40, p50: k, p95: 2 * k, p99: 3 * k, p999: 4 * k, max: 5 * k });
  it('draws only what is there and well formed: percentiles as bars, counts per second as lines, tables with the numbers', () => {
    expect(hasLoadCharts({ direct: pct(1) })).toBe(false);
    expect(hasLoadCharts({ direct: pct(1), through: { p50: 'x' } })).toBe(false);
    expect(hasLoadCharts({ throughput: { direct: [1, 'x'], through: [1] } })).toBe(false);
    expect(hasLoadCharts({ throughput: { direct: [], through: [] } })).toBe(true);
    expect(loadCharts({ throughput: { direct: [], through: [] } })).toContain('No answer was counted per second.');
    const html = loadCharts({ rate: 20, direct: pct(1.5), through: pct(2), throughput: { direct: [20, 19, 1], through: [18, 21] }, failuresPerSecond: { direct: [0, 0, 0], through: [2, 0] } });
    expect(html.match(/<svg/g)).toHaveLength(2);
    expect(html).toContain('<tr><th>p99</th><td>4.5</td><td>6</td><td>1.5</td></tr>');
    expect(html).toContain('<tr><th>max</th><td>7.5</td><td>10</td><td>2.5</td></tr>');
    // A shorter series counts nothing in the seconds it does not reach.
    expect(html).toContain('<tr><th>3</th><td>1</td><td>0</td><td>0</td><td>0</td></tr>');
    expect(html).toContain('<polyline class="line s-failed"');
    expect(html).toContain('declared rate 20/s');
  });
});

// ---------------------------------------------------------------------------------------------
// A real load run on the reference gateway, and its page in chromium.

const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);

interface PerfEvidence {
  rate: number;
  requests: number;
  direct: Record<string, number>;
  through: Record<string, number>;
  throughput: { direct: number[]; through: number[] };
  failuresPerSecond: { direct: number[]; through: number[] };
}

describe('a load run of the reference gateway (load.perf.cost at 20 requests per second)', () => {
  let dir = '';
  let ev: PerfEvidence;
  let html = '';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gwc-html-load-'));
    const r = await cliInProcess(['demo', '--profile', 'load', '--only', 'load.perf.cost', '--load-rate', '20', '--load-duration-s', '2', '--out', dir], { timeoutMs: 110_000 });
    // The verdict is the measured figures' (no failure, no budget): the page is what is tested here.
    expect(r.code, r.stdout + r.stderr).not.toBe(2);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as RunReport;
    ev = report.results.find((x) => x.id === 'load.perf.cost')!.evidence as unknown as PerfEvidence;
    html = readFileSync(join(dir, 'report.html'), 'utf8');
  }, 120_000);

  it('the evidence counts every request of the JSON phase once, in the second it ended', () => {
    expect(ev.requests).toBe(40);
    for (const side of ['direct', 'through'] as const) {
      expect(ev.throughput[side].length).toBe(ev.failuresPerSecond[side].length);
      expect(sum(ev.throughput[side]) + sum(ev.failuresPerSecond[side])).toBe(ev.requests);
    }
  });

  it('the page charts the evidence: its percentiles as bars and in a table, its counts per second as points and in a table', () => {
    const check = html.slice(html.indexOf('<details class="check" id="load.perf.cost"'));
    expect(check).toContain('<h3>Latency and throughput</h3>');
    for (const [k, label] of [['p50', 'p50'], ['p95', 'p95'], ['p99', 'p99'], ['p999', 'p99.9']]) {
      expect(check).toContain(`<title>straight to the upstream, ${label}: ${ev.direct[k]} ms</title>`);
      expect(check).toContain(`<title>through the gateway, ${label}: ${ev.through[k]} ms</title>`);
      expect(check).toMatch(new RegExp(`<tr><th>${label.replace('.', '\\.')}</th><td>${ev.direct[k]}</td><td>${ev.through[k]}</td><td>[-0-9.]+</td></tr>`));
    }
    // A side whose requests all ended within fewer seconds (on a loaded machine the other's may spill
    // into one more) has a point for each of its own seconds, and 0 in the table's later rows.
    for (const [side, name] of [['direct', 'straight to the upstream'], ['through', 'through the gateway']] as const)
      for (const [i, v] of ev.throughput[side].entries()) expect(check).toContain(`<title>${name}, ${i + 1}: ${v} answers</title>`);
    const at = (a: number[], i: number) => a[i] ?? 0;
    const n = Math.max(ev.throughput.direct.length, ev.throughput.through.length);
    for (let i = 0; i < n; i++)
      expect(check).toContain(`<tr><th>${i + 1}</th><td>${at(ev.throughput.direct, i)}</td><td>${at(ev.throughput.through, i)}</td><td>${at(ev.failuresPerSecond.direct, i)}</td><td>${at(ev.failuresPerSecond.through, i)}</td></tr>`);
    expect(check).toContain('declared rate 20/s');
    expect(check).not.toMatch(/NaN|Infinity/);
  });

  it('a report whose load evidence was tampered with draws no chart from the bad numbers and shows no markup', () => {
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as RunReport;
    const r = report.results.find((x) => x.id === 'load.perf.cost')!;
    const evil = '<script>alert(1)</script>';
    r.evidence = { ...r.evidence, rate: evil, direct: { ...ev.direct, p99: evil }, throughput: { direct: [evil], through: [1] } } as unknown as typeof r.evidence;
    const page = htmlReport(report);
    expect(page).not.toContain('<h3>Latency and throughput</h3>');
    expect(page).not.toContain('<script>alert(1)');
  });

  it.skipIf(!hasChromium && !requireChromium)(
    'in chromium: the two charts of the opened check are visible images, named by their titles, with their bars and points; nothing else loads',
    async () => {
      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
        const { requests, errors } = watchPage(page);
        const url = pathToFileURL(join(dir, 'report.html')).href;
        await page.goto(`${url}#load.perf.cost`, { waitUntil: 'load' });
        const check = page.locator('[id="load.perf.cost"]');
        const latency = check.getByRole('img', { name: /^Latency percentiles at 20 per second/ });
        const throughput = check.getByRole('img', { name: /^Answers per second over \d+ s/ });
        for (const chart of [latency, throughput]) {
          await chart.scrollIntoViewIfNeeded();
          expect(await chart.isVisible()).toBe(true);
          const box = (await chart.boundingBox())!;
          expect(box.width).toBeGreaterThan(300);
          expect(box.height).toBeGreaterThan(100);
        }
        // Each bar and point is drawn with a size and a colour of its own series.
        const bars = await latency.locator('rect.bar').evaluateAll((rs) => rs.map((r) => ({ fill: getComputedStyle(r).fill, cls: r.getAttribute('class') })));
        expect(bars).toHaveLength(8 + 2); // + the legend's swatches
        expect(new Set(bars.filter((b) => b.cls!.includes('direct')).map((b) => b.fill)).size).toBe(1);
        expect(bars.find((b) => b.cls!.includes('direct'))!.fill).not.toBe(bars.find((b) => b.cls!.includes('through'))!.fill);
        const n = ev.throughput.direct.length + ev.throughput.through.length;
        expect(await throughput.locator('circle.pt.s-direct, circle.pt.s-through').count()).toBe(n);
        await page.screenshot({ path: join(dir, 'load-charts.png') });
        expect(errors).toEqual([]);
        expect(requests).toEqual([url]);
      } finally {
        await browser.close();
      }
    },
    90_000,
  );
});
