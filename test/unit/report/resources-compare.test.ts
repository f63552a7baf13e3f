// compare and matrix on the launched gateway's resources: memory or cold start up past both its
// share and its amount is a regression (exit 1); within them it is not; the matrix shows them.
import { describe, expect, it } from 'vitest';
import { compareReports } from '../../../src/report/across-runs/compare.js';
import { consoleText } from '../../../src/report/across-runs/compare-format.js';
import { buildMatrix, inputOfReport } from '../../../src/report/across-runs/matrix.js';
import { matrixMarkdown } from '../../../src/report/across-runs/matrix-markdown.js';
import { regressed } from '../../../src/report/across-runs/resources-compare.js';
import type { GatewayResources } from '../../../src/core/resources.js';
import type { RunReport } from '../../../src/report/shared/types.js';

const res = (peakMb: number, firstAnswerMs: number): GatewayResources => ({ source: 'process group (1 process)', samples: 10, intervalMs: 200, memory: { idle: 50e6, steady: 60e6, peak: peakMb * 1e6, afterLoad: 55e6, growthPer10k: 1e6 }, cpu: { idle: 1, steady: 40, peak: 90 }, coldStart: { readyMs: 300, firstAnswerMs }, loadRequests: 1000 });
const report = (r: GatewayResources): RunReport =>
  ({ schemaVersion: '1.8.0', harness: { name: 'gw-conformance', version: '1' }, target: 'http://t', upstream: null, profile: 'load', declared: { protocols: ['messages'] }, seed: 1, strict: false, startedAt: '2026-01-01T00:00:00Z', finishedAt: '', durationMs: 0, summary: {} as RunReport['summary'], exitCode: 0, results: [], unmatchedRequests: [], launched: { kind: 'command', what: 'gw', target: 'http://t', restarts: 0, exitCode: 0, logTail: [], resources: r } }) as RunReport;

describe('resources in compare', () => {
  it('a peak up by more than a quarter and 10 MB is a regression, and says so', () => {
    const c = compareReports(report(res(80, 900)), report(res(120, 900)), { base: 'a', new: 'b' });
    expect(c.exitCode).toBe(1);
    expect(c.resources!.rows.find((r) => r.figure === 'memory peak')!.regression).toBe(true);
    expect(consoleText(c)).toMatch(/REGRESSION memory peak: 80\.0 MB -> 120\.0 MB/);
    expect(consoleText(c)).toMatch(/REGRESSED: 1 resource figure of the gateway past its threshold/);
  });

  it('a cold start up by more than half and 500 ms is a regression; small moves are not', () => {
    expect(compareReports(report(res(80, 900)), report(res(80, 2000)), { base: 'a', new: 'b' }).exitCode).toBe(1);
    expect(compareReports(report(res(80, 900)), report(res(88, 1300)), { base: 'a', new: 'b' }).exitCode).toBe(0);
    // Both the share and the amount: 30 % of 10 MB is not 10 MB; 600 ms on 10 s is not half.
    expect(regressed('bytes', 10e6, 13e6)).toBe(false);
    expect(regressed('ms', 10_000, 10_600)).toBe(false);
    expect(regressed('ms', null, 10_600)).toBe(false);
  });

  it('the matrix has a row per figure for the runs that launched their gateway', () => {
    const m = buildMatrix([inputOfReport(report(res(80, 900)), { folder: 'a', source: 'a', evidence: null })], { name: 'gw-conformance', version: '1' });
    const md = matrixMarkdown(m);
    expect(md).toMatch(/\| memory idle \/ steady \/ peak \| 50\.0 MB \/ 60\.0 MB \/ 80\.0 MB \|/);
    expect(md).toMatch(/\| cold start: listening \/ first good answer \| 300 ms \/ 900 ms \|/);
  });
});
