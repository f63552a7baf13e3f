// What verify checks of a certify folder before it runs anything: conformance-report.yaml says
// what report.json and transcript.jsonl hold (the verdicts and counts per profile, the seed, the
// declared features, the run's exit code, the capability cells, the waivers, the number of
// exchanges). An edited verdict or count in either file is a folder that contradicts itself.
import { isDeepStrictEqual } from 'node:util';
import { cellsOf } from '../../core/capabilities.js';
import { profileResult, type ConformanceReport, type TranscriptLine } from './certify.js';
import type { RunReport } from '../shared/types.js';

/** The parts of the conformance report that follow from the run's report and transcript, as certify wrote them. */
function derived(recorded: RunReport, transcript: TranscriptLine[]): Record<string, unknown> {
  const r = recorded;
  return {
    profiles: [profileResult(r)],
    seed: r.seed,
    declared: { features: [...r.declared.protocols], profiles: [r.profile] },
    runReport: { file: 'report.json', schemaVersion: r.schemaVersion, target: r.target, exitCode: r.exitCode },
    capabilities: cellsOf(r.results).length ? cellsOf(r.results) : undefined,
    waivers: r.waivers ? { source: r.waivers.source, applied: r.waivers.applied, expired: r.waivers.expired, unused: r.waivers.unused } : { applied: [], expired: [], unused: [] },
    'transcript.exchanges': transcript.length,
  };
}

interface Difference {
  at: string;
  have: unknown;
  want: unknown;
}

/** The first place two values differ (`a.b[2].c`) with the value on each side, or null. */
function firstDifference(have: unknown, want: unknown, at: string): Difference | null {
  if (isDeepStrictEqual(have, want)) return null;
  if (have && want && typeof have === 'object' && typeof want === 'object' && Array.isArray(have) === Array.isArray(want)) {
    for (const k of [...new Set([...Object.keys(have), ...Object.keys(want)])]) {
      const d = firstDifference((have as Record<string, unknown>)[k], (want as Record<string, unknown>)[k], Array.isArray(have) ? `${at}[${k}]` : `${at}.${k}`);
      if (d) return d;
    }
  }
  return { at, have, want };
}

/**
 * Null when the conformance report agrees with report.json and the transcript, else the first
 * disagreement in words: where, the value the conformance report has and the one the run's files give.
 */
export function conformanceMismatch(doc: ConformanceReport, recorded: RunReport, transcript: TranscriptLine[]): string | null {
  const want = JSON.parse(JSON.stringify(derived(recorded, transcript))) as Record<string, unknown>;
  const have: Record<string, unknown> = { ...doc, 'transcript.exchanges': doc.transcript.exchanges };
  for (const key of Object.keys(derived(recorded, transcript))) {
    const d = firstDifference(have[key], want[key], key);
    if (!d) continue;
    const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));
    return `${d.at} is ${show(d.have)}, but ${key === 'transcript.exchanges' ? 'transcript.jsonl' : 'report.json'} gives ${show(d.want)}`;
  }
  return null;
}
