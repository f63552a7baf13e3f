// The HTML matrix shows the launched gateways' resources as the Markdown one does (one list of
// rows, src/report/across-runs/matrix-resources.ts), a run that did not launch its gateway with an
// empty column, and the text from the reports inert.
import { describe, expect, it } from 'vitest';
import { buildMatrix, inputOfReport } from '../../../src/report/across-runs/matrix.js';
import { matrixHtml } from '../../../src/report/across-runs/matrix-html.js';
import { matrixMarkdown } from '../../../src/report/across-runs/matrix-markdown.js';
import type { GatewayResources } from '../../../src/core/resources.js';
import type { RunReport } from '../../../src/report/shared/types.js';

const res = (source: string): GatewayResources => ({ source, samples: 10, intervalMs: 200, memory: { idle: 50e6, steady: 60e6, peak: 80e6, afterLoad: 55e6, growthPer10k: 1e6 }, cpu: { idle: 1, steady: 40, peak: 90 }, coldStart: { readyMs: 300, firstAnswerMs: 900 }, loadRequests: 1000 });
const report = (name: string, r?: GatewayResources): RunReport =>
  ({ schemaVersion: '1.8.0', harness: { name: 'gw-conformance', version: '1' }, target: 'http://t', upstream: null, profile: 'load', declared: { protocols: ['messages'] }, gateway: { name }, seed: 1, strict: false, startedAt: '2026-01-01T00:00:00Z', finishedAt: '', durationMs: 0, summary: {} as RunReport['summary'], exitCode: 0, results: [], unmatchedRequests: [], ...(r ? { launched: { kind: 'command', what: 'gw', target: 'http://t', restarts: 0, exitCode: 0, logTail: [], resources: r } } : {}) }) as RunReport;
const matrix = (...rs: RunReport[]) => buildMatrix(rs.map((r, i) => inputOfReport(r, { folder: `r${i}`, source: `r${i}`, evidence: null })), { name: 'gw-conformance', version: '1' });

const section = (html: string) => html.slice(html.indexOf('<h2>Gateway resources</h2>'), html.indexOf('<h2>Checks</h2>'));

describe('resources in the HTML matrix', () => {
  it('has a row per figure, the same figures as the Markdown, and an empty cell for a run without them', () => {
    const m = matrix(report('gw-a', res('process group (1 process)')), report('gw-b'));
    const html = matrixHtml(m);
    const part = section(html);
    expect(part).toMatch(/<table id="resources">/);
    expect(part).toMatch(/<tr><td>memory idle \/ steady \/ peak<\/td><td>50\.0 MB \/ 60\.0 MB \/ 80\.0 MB<\/td><td><\/td><\/tr>/);
    expect(part).toMatch(/<tr><td>cold start: listening \/ first good answer<\/td><td>300 ms \/ 900 ms<\/td><td><\/td><\/tr>/);
    expect(part).toMatch(/<td>process group \(1 process\)<\/td>/);
    // Every row of the Markdown table is in the HTML one.
    const md = matrixMarkdown(m).split('\n').filter((l) => /^\| (memory|growth|CPU|cold|image|measured)/.test(l));
    expect(md.length).toBe(7);
    for (const l of md) expect(part).toContain(`<td>${l.split(' | ')[0].slice(2)}</td>`);
  });

  it('keeps gateway text inert', () => {
    const html = matrixHtml(matrix(report('<img src=x onerror=alert(1)>', res('<script>alert(1)</script>\u202e'))));
    const part = section(html);
    expect(part).not.toMatch(/<script>|<img/);
    expect(part).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(part).not.toContain('\u202e');
  });

  it('has no resources section when no run launched its gateway', () => {
    expect(matrixHtml(matrix(report('gw-a')))).not.toMatch(/Gateway resources/);
  });
});
