// Every fix link the console and the github reporter print lands on a real anchor of the checks
// reference shipped in the package (docs/checks.md), for every check there is.
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../../suites/index.js';
import { consoleSummary } from '../../../src/reporters/console.js';
import { annotations, jobSummary, ROWS_MAX } from '../../../src/reporters/github.js';
import { CHECKS_DOC, fixLink } from '../../../src/reporters/links.js';
import { summarize, type CheckResult, type RunReport } from '../../../src/report/shared/types.js';
import { anchors } from '../../helpers/markdown.js';
import { ROOT } from '../../helpers/cli.js';

const failed = (id: string, requirements: string[]): CheckResult => ({ id, title: 't', area: 'x', requirements, level: 'MUST', outcome: 'fail', message: 'm', expected: null, actual: null, evidence: {}, durationMs: 1 });

/** Where a printed link points: the file (relative to the working directory, or absolute) and the anchor. */
function target(link: string, cwd: string): { file: string; anchor: string } {
  const [path, anchor] = link.split('#');
  return { file: isAbsolute(path) ? path : join(cwd, path), anchor: decodeURIComponent(anchor) };
}

describe('fix links', () => {
  it('point into the checks reference of the package, from any working directory', () => {
    expect(CHECKS_DOC).toBe(join(ROOT, 'docs', 'checks.md'));
    expect(fixLink('a.b', ROOT)).toBe('docs/checks.md#a.b');
    expect(fixLink('a.b', '/')).toBe(`${CHECKS_DOC.slice(1)}#a.b`);
    expect(fixLink('a.b', '/nowhere/else')).toBe(`${CHECKS_DOC}#a.b`);
  });

  it('every link printed for a failure of any check lands on a real anchor of docs/checks.md', () => {
    const results = CHECKS.map((c) => failed(c.id, c.requirements));
    const report = { harness: { version: '0' }, target: 'http://t', profile: 'default', seed: 1, strict: false, declared: { protocols: [] }, durationMs: 1, summary: summarize(results), exitCode: 1, results, unmatchedRequests: [] } as unknown as RunReport;
    const printed = [
      ...[...consoleSummary(report, []).matchAll(/fix: +(\S+)/g)].map((m) => m[1]),
      ...[...annotations(report).matchAll(/fix: (\S+?)(?:%0A|$)/gm)].map((m) => m[1]),
      ...[...jobSummary(report, []).matchAll(/\| ([^ |]*docs\/checks\.md#[^ |]+) \|$/gm)].map((m) => m[1].replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))),
    ];
    // The job summary's table stops at ROWS_MAX rows (and says how many more the report files hold).
    expect(printed.length).toBe(2 * CHECKS.length + Math.min(CHECKS.length, ROWS_MAX));
    if (CHECKS.length > ROWS_MAX) expect(jobSummary(report, [])).toContain(`${CHECKS.length - ROWS_MAX} more in the report files.`);
    const cwd = process.cwd();
    const files = new Map<string, Set<string>>();
    for (const link of printed) {
      const { file, anchor } = target(link, cwd);
      if (!files.has(file)) files.set(file, anchors(readFileSync(file, 'utf8')));
      expect(files.get(file)!.has(anchor), link).toBe(true);
    }
    expect([...files.keys()]).toEqual([CHECKS_DOC]);
  });
});
