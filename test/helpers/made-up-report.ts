// A made-up run report for the tests of what reads reports (compare, matrix, certify, the
// reporters, replay, the masker): every field a run report must have, its summary and exit code
// derived from the results as a run derives them; a test overrides only what it is about.
import { exitCodeOf } from '../../src/report/shared/policy.js';
import { SCHEMA_VERSION, summarize, type CheckResult, type RunReport } from '../../src/report/shared/types.js';

export function madeUpReport(results: CheckResult[], over: Partial<RunReport> = {}): RunReport {
  return {
    schemaVersion: SCHEMA_VERSION,
    harness: { name: 'gw-conformance', version: '0.1.0' },
    target: 'http://127.0.0.1:8080',
    upstream: null,
    profile: 'default',
    declared: { protocols: ['messages'] },
    seed: 1,
    strict: false,
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:01.000Z',
    durationMs: 1000,
    summary: summarize(results),
    exitCode: exitCodeOf(results, false, over.interrupted),
    results,
    unmatchedRequests: [],
    ...over,
  };
}
