// Module hooks for the CLI under test (registered through NODE_OPTIONS=--import, see
// test/unit/core/optional.test.ts): GWC_HIDE_PACKAGES (comma-separated) resolve as a package that is not
// installed does (ERR_MODULE_NOT_FOUND), and every resolved URL is appended to the file
// GWC_RESOLVED_LOG, so a test can tell which modules a command loaded.
import { appendFileSync } from 'node:fs';

const hidden = (process.env.GWC_HIDE_PACKAGES ?? '').split(',').filter(Boolean);
const log = process.env.GWC_RESOLVED_LOG;

export async function resolve(specifier, context, next) {
  if (hidden.some((p) => specifier === p || specifier.startsWith(`${p}/`))) {
    const err = new Error(`Cannot find package '${specifier}' imported from ${context.parentURL}`);
    err.code = 'ERR_MODULE_NOT_FOUND';
    throw err;
  }
  const result = await next(specifier, context);
  if (log) appendFileSync(log, `${result.url}\n`);
  return result;
}
