// The CLI's entry (bin/gw-conformance.js loads it): the program lives in cli/program.ts. It
// loads only what registers the commands; each command loads its own modules when it runs.
import type { RunConfig } from '../src/config/config.js';
import type { RunReport } from '../src/report/shared/types.js';
import type { AppsDemoOptions } from './profiles/apps/apps.js';

export { main, type Io } from './program.js';

/** The apps profile's demo run (cli/profiles/apps/apps.ts), loaded when called. */
export async function runAppsDemo(cfg: RunConfig, faultName: string | undefined, print: (s: string) => void, opts: AppsDemoOptions = {}): Promise<RunReport> {
  return (await import('./profiles/apps/apps.js')).runAppsDemo(cfg, faultName, print, opts);
}
