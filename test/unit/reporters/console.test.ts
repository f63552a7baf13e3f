// The console reporter makes what the gateway sent inert itself: whoever prints it (run, certify,
// merge-reports) shows escape sequences and invisible characters instead of obeying them.
import { describe, expect, it } from 'vitest';
import { hasInvisible } from '../../../src/core/inert.js';
import { consoleSummary, progressLine } from '../../../src/reporters/console.js';
import { summarize, type CheckResult, type RunReport } from '../../../src/report/shared/types.js';

const HOSTILE = 'boom\x1b]0;pwned\x07\x1b[2J\u202eevil\u200b\ud800\rFAIL';

const result: CheckResult = { id: 'x.one', title: 't', area: 'x', requirements: ['MSG-PATH-1'], level: 'MUST', outcome: 'fail', message: HOSTILE, expected: HOSTILE, actual: HOSTILE, evidence: {}, durationMs: 1 };
const report = {
  harness: { name: 'gw-conformance', version: '0' },
  target: `http://t/${HOSTILE}`,
  profile: 'default',
  seed: 1,
  strict: false,
  declared: { protocols: ['messages'] },
  durationMs: 1,
  summary: summarize([result]),
  exitCode: 1,
  results: [result],
  unmatchedRequests: [{ method: 'GET', url: `/x${HOSTILE}`, reason: HOSTILE, receivedWall: 'w' }],
} as unknown as RunReport;

describe('console reporter', () => {
  it('shows a gateway\'s escape sequences and invisible characters instead of sending them', () => {
    const out = consoleSummary(report, []);
    expect(hasInvisible(out)).toBe(false);
    expect(out).toContain('boom\\x1b]0;pwned\\x07\\x1b[2J\\u{202e}evil\\u{200b}\\u{d800}\\x0dFAIL');
    const line = progressLine(result);
    expect(hasInvisible(line)).toBe(false);
    expect(line).toContain('\\x1b[2J');
  });

  it('leaves ordinary text, line breaks and tabs as they are', () => {
    const ok = { ...result, message: 'expected 200\tgot 500 — ünïcode 😀' };
    expect(progressLine(ok)).toContain('expected 200\tgot 500 — ünïcode 😀');
  });
});
