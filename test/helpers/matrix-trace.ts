// The detection matrix's clean run: the clean reference gateway's run, traced
// (reference/trace.ts), once for the matrix's eight processes. Its verdicts are the matrix's
// clean run, and from its trace each fault's reach is computed (test/helpers/reach.ts): the
// checks whose exchanges the fault's hooks alter. The first part to ask makes it, the others
// wait for it on the run's board (test/helpers/lane.ts).
import { FAULTS } from '../../reference/faults/index.js';
import type { TracedExchange } from '../../reference/trace.js';
import { demoRun } from './demo.js';
import { reachOf, type Owners, type Reach } from './reach.js';

export interface MatrixTrace {
  /** The clean run's non-passing results, one line each (none expected). */
  notPassing: string[];
  exitCode: number;
  unmatchedRequests: unknown[];
  /** How many checks the clean run ran, and how many exchanges the gateway saw. */
  checks: number;
  exchanges: number;
  /** Each fault's reach over the clean run's trace. */
  reach: Record<string, Reach>;
  /** CPU milliseconds of this process for the traced run and for the reach computed from it. */
  cpuMs: { run: number; reach: number };
}

const cpuMsSince = (from: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(from);
  return Math.round((u.user + u.system) / 1000);
};

export async function tracedCleanRun(): Promise<MatrixTrace> {
  const trace: TracedExchange[] = [];
  const owners: Owners = { tokens: new Map(), lines: new Map() };
  const cases = (id: string, tokens: string[], sent: string[]) => {
    for (const t of tokens) owners.tokens.set(t, id);
    for (const path of sent) {
      const line = path.split('?')[0];
      owners.lines.set(line, (owners.lines.get(line) ?? new Set()).add(id));
    }
  };
  const c0 = process.cpuUsage();
  const r = await demoRun(undefined, {}, undefined, { trace: (x) => trace.push(x), cases });
  const run = cpuMsSince(c0);
  const c1 = process.cpuUsage();
  const reach = Object.fromEntries(FAULTS.map((f) => [f.name, reachOf(f, trace, owners)]));
  return {
    notPassing: r.results.filter((x) => x.outcome !== 'pass').map((x) => `${x.id}: ${x.outcome}: ${x.message}`),
    exitCode: r.exitCode,
    unmatchedRequests: r.unmatchedRequests,
    checks: r.results.length,
    exchanges: trace.length,
    reach,
    cpuMs: { run, reach: cpuMsSince(c1) },
  };
}
