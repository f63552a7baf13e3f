// Every fix link the console and the github reporter print is a URL of the repository at this
// version's release tag (package.json's repository.url, then /blob/v<version>/docs/checks.md), and
// lands on a real anchor of the checks reference that tag carries (this checkout's
// docs/checks.md), for every check there is.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../../suites/index.js';
import { consoleSummary } from '../../../src/reporters/console.js';
import { annotations, jobSummary, ROWS_MAX } from '../../../src/reporters/github.js';
import { CHECKS_DOC, docsUrl, fixLink, REPOSITORY, webAddress } from '../../../src/core/links.js';
import { VERSION } from '../../../src/core/paths.js';
import { summarize, type CheckResult, type RunReport } from '../../../src/report/shared/types.js';
import { anchors } from '../../helpers/markdown.js';
import { ROOT } from '../../helpers/cli.js';

const failed = (id: string, requirements: string[]): CheckResult => ({ id, title: 't', area: 'x', requirements, level: 'MUST', outcome: 'fail', message: 'm', expected: null, actual: null, evidence: {}, durationMs: 1 });

/** Where a printed link points: the file of this checkout the URL names at this version's tag, and the anchor. */
function target(link: string): { file: string; anchor: string } {
  const prefix = `${REPOSITORY}/blob/v${VERSION}/`;
  expect(link.startsWith(prefix), link).toBe(true);
  const [path, anchor] = link.slice(prefix.length).split('#');
  return { file: join(ROOT, path), anchor: decodeURIComponent(anchor) };
}

describe('fix links', () => {
  it('are URLs of the repository at the release tag of the version that ran', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { repository: { url: string } };
    expect(REPOSITORY).toBe(webAddress(pkg.repository.url));
    expect(REPOSITORY).toMatch(/^https:\/\/[^/]+\/[^/]+\/[^/]+$/);
    expect(webAddress('git+https://example.org/fork/gwc.git')).toBe('https://example.org/fork/gwc');
    expect(fixLink('a.b')).toBe(`${REPOSITORY}/blob/v${VERSION}/docs/checks.md#a.b`);
    expect(fixLink('a.b', '9.8.7')).toBe(`${REPOSITORY}/blob/v9.8.7/docs/checks.md#a.b`);
    expect(docsUrl(CHECKS_DOC, '1.0.0')).toBe(`${REPOSITORY}/blob/v1.0.0/docs/checks.md`);
  });

  it('every link printed for a failure of any check lands on a real anchor of docs/checks.md', () => {
    const results = CHECKS.map((c) => failed(c.id, c.requirements));
    const report = { harness: { version: '0' }, target: 'http://t', profile: 'default', seed: 1, strict: false, declared: { protocols: [] }, durationMs: 1, summary: summarize(results), exitCode: 1, results, unmatchedRequests: [] } as unknown as RunReport;
    const printed = [
      ...[...consoleSummary(report, []).matchAll(/fix: +(\S+)/g)].map((m) => m[1]),
      ...[...annotations(report).matchAll(/fix: (\S+?)(?:%0A|$)/gm)].map((m) => m[1]),
      ...[...jobSummary(report, []).matchAll(/\| (https:[^ |]*docs\/checks\.md#[^ |]+) \|$/gm)].map((m) => m[1]),
    ];
    // The job summary's table stops at ROWS_MAX rows (and says how many more the report files hold).
    expect(printed.length).toBe(2 * CHECKS.length + Math.min(CHECKS.length, ROWS_MAX));
    if (CHECKS.length > ROWS_MAX) expect(jobSummary(report, [])).toContain(`${CHECKS.length - ROWS_MAX} more in the report files.`);
    const files = new Map<string, Set<string>>();
    for (const link of printed) {
      const { file, anchor } = target(link);
      if (!files.has(file)) files.set(file, anchors(readFileSync(file, 'utf8')));
      expect(files.get(file)!.has(anchor), link).toBe(true);
    }
    expect([...files.keys()]).toEqual([join(ROOT, CHECKS_DOC)]);
  });
});
