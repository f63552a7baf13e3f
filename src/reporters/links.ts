// Where a reader finds how to fix a failed check: its anchor in the checks reference
// (docs/checks.md, one anchor per check id, generated with the advice of every check). The
// reference ships in the package, so the link is the file of the installed harness (the version
// that ran), shown relative to the working directory when it lies below it
// (`node_modules/gw-conformance/docs/checks.md#id`), absolute otherwise; it needs no network and
// no repository address. test/unit/reporters/console-links.test.ts checks every link lands on a real anchor.
import { isAbsolute, relative } from 'node:path';
import { rootPath } from '../core/paths.js';

/** The checks reference inside the package. */
export const CHECKS_DOC = rootPath('docs', 'checks.md');

/** The link to the advice for check `id`, as printed (relative to `cwd` when below it). */
export function fixLink(id: string, cwd = process.cwd()): string {
  const rel = relative(cwd, CHECKS_DOC);
  const path = rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : CHECKS_DOC;
  return `${path}#${id}`;
}
