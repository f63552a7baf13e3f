// The fix of each finding, put into the report the files are written from: report.json,
// junit.xml and report.html carry the advice of the finding's check (its `fix`) and its anchor
// in the checks reference, as the console and the github reporter point to it.
import type { RunReport } from '../../src/report/types.js';
import { fixLink } from '../../src/reporters/links.js';
import { CHECKS } from '../../suites/index.js';

/** A finding is a check that did not pass or skip; the harness's own error is not the gateway's to fix. */
const NO_FIX = new Set(['pass', 'skip', 'error']);

const FIXES = new Map(CHECKS.map((c) => [c.id, c.fix]));

/** The report with `fix` (text and link) on every finding whose check has advice. */
export function withFixes(report: RunReport): RunReport {
  const results = report.results.map((r) => {
    const text = FIXES.get(r.id);
    return NO_FIX.has(r.outcome) || !text ? r : { ...r, fix: { text, link: fixLink(r.id) } };
  });
  return { ...report, results };
}
