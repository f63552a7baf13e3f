// The CLI's entry (bin/gw-conformance.js loads it): the program lives in src/cli/program.ts. It
// loads only what registers the commands; each command loads its own modules when it runs.
import type { RunConfig } from './config/config.js';
import type { RunReport } from './report/types.js';
import type { AppsDemoOptions } from './cli/apps.js';

export { main, type Io } from './cli/program.js';

/** The apps profile's demo run (src/cli/apps.ts), loaded when called. */
export async function runAppsDemo(cfg: RunConfig, faultName: string | undefined, print: (s: string) => void, opts: AppsDemoOptions = {}): Promise<RunReport> {
  return (await import('./cli/apps.js')).runAppsDemo(cfg, faultName, print, opts);
}
