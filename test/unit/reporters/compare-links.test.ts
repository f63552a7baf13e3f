// The fix link `compare` prints for a regression is the URL of the checks reference at NEW's
// harness version (src/core/links.ts), also when NEW's report was written by an older
// harness that kept a path into node_modules: never that path.
import { describe, expect, it } from 'vitest';
import { compareReports } from '../../../src/report/across-runs/compare.js';
import { consoleText, githubText } from '../../../src/report/across-runs/compare-format.js';
import { summarize, type CheckResult, type RunReport } from '../../../src/report/shared/types.js';
import { fixLink, REPOSITORY } from '../../../src/core/links.js';

const ID = 'messages.path.preserved';
const result = (outcome: CheckResult['outcome'], link?: string): CheckResult => ({ id: ID, title: 't', area: 'messages', requirements: ['MSG-PATH-1'], level: 'MUST', outcome, message: 'm', expected: null, actual: null, evidence: {}, durationMs: 1, ...(link ? { fix: { text: 'forward the path', link } } : {}) });
const report = (version: string, r: CheckResult): RunReport => ({ harness: { name: 'gw-conformance', version }, target: 'http://t', profile: 'default', seed: 1, strict: false, declared: { protocols: ['messages'] }, durationMs: 1, summary: summarize([r]), exitCode: r.outcome === 'pass' ? 0 : 1, results: [r], unmatchedRequests: [] }) as unknown as RunReport;

describe('compare: fix links', () => {
  it.each([
    ['a report of this harness', '0.3.0', fixLink(ID, '0.3.0')],
    ['a report of an older harness (a path)', '0.0.9', `node_modules/gw-conformance/docs/checks.md#${ID}`],
  ])('%s: the regression links to the checks reference at NEW\'s release tag', (_, version, link) => {
    const c = compareReports(report(version, result('pass')), report(version, result('fail', link)), { base: 'a.json', new: 'b.json' });
    const url = `${REPOSITORY}/blob/v${version}/docs/checks.md#${ID}`;
    expect(c.checks.find((r) => r.id === ID)?.fix).toBe(url);
    for (const text of [consoleText(c), githubText(c)]) {
      expect(text).toContain(`fix: ${url}`);
      expect(text).not.toContain('node_modules');
    }
  });
});
