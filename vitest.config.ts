import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { SelfCostReporter } from './test/helpers/self-costs-reporter.js';
import { LANES } from './test/helpers/lane-setup.js';

/**
 * One schedule: every test file in one pool of WORKERS processes, the longest first, and the
 * files whose verdicts judge time at a fine grain in a lane of their own (test/helpers/lane.ts:
 * at most LANES.timing of them at once), with everything else running around them. Most files
 * mostly wait (probes, sign-ins, child processes, real clients), so the pool is wider than the
 * two cores; the suite is bound by its CPU, not by its schedule (CONTRIBUTING, "How npm test
 * schedules the self-tests").
 */
const WORKERS = 8;

/**
 * The projects follow the test tree's folders (test/README.md). The detection matrix,
 * test/detection/ (test/helpers/detection-matrix.ts): its fault runs are dealt out to eight
 * files, each doing one run at a time in its own process, so no run meets another's work in its
 * event loop. Each fault runs with the checks it reaches (test/helpers/reach.ts), read off the
 * clean run that the first part to start traces for all (test/helpers/matrix-trace.ts, on the
 * run's board).
 */
const MATRIX = ['test/detection/**/*.test.ts'];
/**
 * The files whose verdicts judge time at a fine grain, and the other tests of real components
 * beside them: real gateways and clients by product (test/real/: the stream timing oracle through
 * nginx, HAProxy, Caddy and the container, real clients' streams), the load profile (test/load/)
 * and the tests that hold this process's event loop (test/timing/). Each holds a place in the
 * `timing` lane while it runs; within a file a PhaseGate keeps each timing check apart from that
 * file's other runs.
 */
const TIMING = ['test/real/**/*.test.ts', 'test/load/**/*.test.ts', 'test/timing/**/*.test.ts'];

/**
 * The longest files, started first so that the workers end together. vitest orders by the
 * durations of the last run when it has them, else by file size (a fresh clone in CI); these
 * go first either way. A stale list only costs time, never a verdict.
 */
const LONG_FIRST = [
  'test/real/clients/client-profile.test.ts', 'test/real/nginx/certify.test.ts', 'test/real/haproxy/haproxy.test.ts',
  'test/apps/apps-real.test.ts', 'test/apps/apps-detection.test.ts', 'test/detection/detection.test.ts', 'test/project/package.test.ts', 'test/cli/hostile.test.ts', 'test/real/caddy/tls-proxies.test.ts', 'test/apps/apps-own.test.ts', 'test/unit/launch/launch.test.ts', 'test/cli/cli.test.ts',
];

/**
 * GWC_SHUFFLE=SEED (a whole number) runs the files in an order shuffled by that seed instead of
 * the longest first: no verdict of the suite may depend on the order of its files. Said once at
 * the start, so an order that fails can be run again.
 */
const SHUFFLE = Number(process.env.GWC_SHUFFLE ?? 0) || 0;
const said = globalThis as { gwcShuffleSaid?: boolean };
if (SHUFFLE && !said.gwcShuffleSaid) console.log(`GWC_SHUFFLE=${SHUFFLE}: the test files in a shuffled order`);
said.gwcShuffleSaid = true;

/** The files in an order drawn from `seed` (a small linear congruential generator: the same seed, the same order). */
function shuffled<T>(files: T[], seed: number): T[] {
  const out = [...files];
  let x = seed >>> 0 || 1;
  const next = () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * Longest first, and the lane's files spread out: its first LANES.timing files at the front,
 * the others one every few places within the first half, so that a file of the lane seldom
 * waits for a place (a waiting file holds its worker, idle) and the lane ends with the rest.
 */
class Schedule extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    if (SHUFFLE) return shuffled(files, SHUFFLE);
    const rank = (f: TestSpecification) => {
      const i = LONG_FIRST.findIndex((p) => f.moduleId.endsWith(p));
      return i < 0 ? LONG_FIRST.length : i;
    };
    // Array.prototype.sort is stable: the rest keep vitest's order.
    const sorted = (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
    const lane = sorted.filter((f) => f.project.name === 'timing');
    const rest = sorted.filter((f) => f.project.name !== 'timing');
    // The lane's files go out within the first half of the list, so that the lane is not the run's tail.
    const every = Math.max(1, Math.floor(rest.length / 2 / Math.max(1, lane.length - LANES.timing + 1)));
    const out = lane.splice(0, LANES.timing);
    rest.forEach((f, i) => {
      out.push(f);
      if ((i + 1) % every === 0 && lane.length) out.push(lane.shift()!);
    });
    return [...out, ...lane];
  }
}

export default defineConfig({
  test: {
    // A guard against a test that hangs, not a measure of its speed: a test's own work is at most
    // about a minute on a quiet machine, and the suite must pass with both cores taken by two other
    // programs and eight files at once (each process then gets a fifth of a core or less): three
    // times that, and two minutes for a hook (a gateway's or a database's start).
    testTimeout: 180_000,
    hookTimeout: 120_000,
    sequence: { sequencer: Schedule },
    // What each file costs (CPU of its worker and of the worker's children, wall time, child
    // processes started): measured in the file's worker by the setup file, written by the
    // reporter to .cache/self-tests.json and printed after the default reporter's summary.
    setupFiles: ['./test/helpers/self-costs-setup.ts'],
    reporters: ['default', new SelfCostReporter()],
    // Three projects in one pool (the same maxWorkers and no groupOrder: vitest runs them together).
    projects: [
      { extends: true, test: { name: 'untimed', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...MATRIX, ...TIMING], maxWorkers: WORKERS } },
      { extends: true, test: { name: 'matrix', include: MATRIX, globalSetup: ['test/helpers/lane-setup.ts'], maxWorkers: WORKERS } },
      { extends: true, test: { name: 'timing', include: TIMING, globalSetup: ['test/helpers/lane-setup.ts'], setupFiles: ['./test/helpers/lane-timing.ts'], maxWorkers: WORKERS } },
    ],
  },
});
