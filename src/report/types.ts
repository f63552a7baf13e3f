// The one versioned report every reporter renders (design.md, style rule 7).
// Its JSON Schema is src/report/run-report.schema.json; bump SCHEMA_VERSION on any change.
import type { Level, Outcome } from '../core/check.js';

export const SCHEMA_VERSION = '1.0.0';

export interface CheckResult {
  id: string;
  title: string;
  area: string;
  requirements: string[];
  level: Level;
  outcome: Outcome;
  message: string;
  expected: string | null;
  actual: string | null;
  evidence: Record<string, unknown>;
  durationMs: number;
}

export interface RunReport {
  schemaVersion: string;
  harness: { name: string; version: string };
  target: string;
  upstream: string | null;
  profile: string;
  seed: number;
  strict: boolean;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  summary: Record<Outcome, number> & { total: number };
  /** 0 every MUST check passed; 1 a MUST check failed (or a SHOULD in strict mode). */
  exitCode: 0 | 1;
  results: CheckResult[];
  /** Requests the recording upstream could not tie to any check. */
  unmatchedRequests: Array<{ method: string; url: string; reason: string; receivedWall: string }>;
}

export function summarize(results: CheckResult[]): RunReport['summary'] {
  const s = { total: results.length, pass: 0, fail: 0, warn: 0, info: 0, skip: 0, error: 0, timeout: 0 };
  for (const r of results) s[r.outcome]++;
  return s;
}

export function exitCodeOf(results: CheckResult[], strict: boolean): 0 | 1 {
  const bad = results.some((r) => r.outcome === 'fail' || r.outcome === 'error' || (r.outcome === 'timeout' && r.level !== 'INFO') || (strict && r.outcome === 'warn'));
  return bad ? 1 : 0;
}
