// The CLI's entry (bin/gw-conformance.js loads it): the program lives in src/cli/program.ts.
export { main, type Io } from './cli/program.js';
export { runAppsDemo } from './cli/apps.js';
