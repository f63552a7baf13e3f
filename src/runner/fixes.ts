// The fix of each finding, put into the report the files are written from: report.json,
// junit.xml and report.html carry the advice of the finding's check (its `fix`) and its anchor
// in the checks reference, as the console and the github reporter point to it. The checks are
// given by the caller (the CLI passes the suite's): the runner imports no suite.
import type { CheckDef } from '../check/check.js';
import type { RunReport } from '../report/shared/types.js';
import { fixLink } from '../core/links.js';

/** A finding is a check that did not pass or skip; the harness's own error is not the gateway's to fix. */
const NO_FIX = new Set(['pass', 'skip', 'error']);

/** The checks whose advice a report's findings get. */
export type FixSource = readonly Pick<CheckDef, 'id' | 'fix'>[];

/** The report with `fix` (text and link) on every finding whose check has advice. */
export function withFixes(report: RunReport, checks: FixSource): RunReport {
  const fixes = new Map(checks.map((c) => [c.id, c.fix]));
  const results = report.results.map((r) => {
    const text = fixes.get(r.id);
    return NO_FIX.has(r.outcome) || !text ? r : { ...r, fix: { text, link: fixLink(r.id) } };
  });
  return { ...report, results };
}
