import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { PARTS } from './test/helpers/matrix-parts.js';
import { SelfCostReporter } from './test/helpers/self-costs-reporter.js';

/**
 * The detection matrix (test/helpers/detection-matrix.ts): its runs are dealt out to PARTS (8)
 * files (a test there holds the files to PARTS), which run together with nothing else, each
 * doing one run at a time in its own process, so no run meets another's work in its event loop. Eight at once keep the 2 cores busy (a run mostly
 * waits, e.g. for its 16 s keep-alive probe): 396 s for the 151 runs, where two processes of 76
 * runs, six at a time behind a shared PhaseGate, took 795 and 886 s (the gate made a process's
 * runs take turns: its event loop was idle 65% of the time). With the other timing files beside
 * the eight, two certify tests failed under that load, so those files come after.
 */
const MATRIX = ['test/detection.test.ts', 'test/detection-[0-9].test.ts'];
/**
 * The other files whose verdicts judge time at a fine grain: the stream timing oracle (nginx
 * through its configs, in a container, and certify's verify of plain against streaming nginx),
 * real clients' streams in the client profile (and through nginx in their cloud formats), the
 * TLS terminators' runs, HAProxy through its configs, the load profile through nginx and on
 * an attached upstream, and the tests that hold this process's event loop to show that a verdict
 * counts the gateway's time and not the holds (under the untimed files' load the machine's own
 * stalls read as holds: two of them failed so in a fresh clone). They run last, three at a time, each in a process of its own: within a
 * file a PhaseGate keeps each timing check apart from that file's other runs, and the other
 * processes are load like any other: the oracle's verdicts hold with both cores taken by
 * stress-ng's two CPU hogs (`npm run bench:oracle -- --runs 100 --stress`: 0 of 700 runs
 * differed), more contention than two other files that mostly wait. They never run beside the
 * untimed files, whose hostile floods and package installs are heavier than that.
 */
const TIMING = ['test/nginx.test.ts', 'test/image.test.ts', 'test/certify.test.ts', 'test/client-profile.test.ts', 'test/client-profile-protocols.test.ts', 'test/tls-proxies.test.ts', 'test/load-detection.test.ts', 'test/haproxy.test.ts', 'test/proxies-load.test.ts', 'test/client-cloud-nginx.test.ts', 'test/load-attach.test.ts', 'test/held-process.test.ts', 'test/held-process-2.test.ts'];

/**
 * The longest files of each group, started first so that the workers end together.
 * vitest orders by the durations of the last run when it has them, else by file size (a fresh
 * clone in CI); these go first either way. A stale list only costs time, never a verdict.
 */
const LONG_FIRST = [
  // timing group (the matrix's eight files start together)
  'test/client-profile.test.ts', 'test/certify.test.ts', 'test/haproxy.test.ts', 'test/tls-proxies.test.ts',
  // untimed group
  'test/apps-real.test.ts', 'test/apps-detection.test.ts', 'test/package.test.ts', 'test/hostile.test.ts', 'test/apps-own.test.ts', 'test/launch.test.ts', 'test/cli.test.ts', 'test/targeting.test.ts', 'test/lint-cli.test.ts', 'test/service.test.ts', 'test/apps-idp-changes.test.ts', 'test/real-client.test.ts', 'test/shard.test.ts', 'test/html.test.ts', 'test/lint-oracle.test.ts', 'test/action.test.ts',
];

class LongFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONG_FIRST.findIndex((p) => f.moduleId.endsWith(p));
      return i < 0 ? LONG_FIRST.length : i;
    };
    // Array.prototype.sort is stable: the rest keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 30_000,
    sequence: { sequencer: LongFirst },
    // What each file costs (CPU of its worker and of the worker's children, wall time, child
    // processes started): measured in the file's worker by the setup file, written by the
    // reporter to .cache/self-tests.json and printed after the default reporter's summary.
    setupFiles: ['./test/helpers/self-costs-setup.ts'],
    reporters: ['default', new SelfCostReporter()],
    // Three groups, one after the other (vitest 4: projects with sequence.groupOrder; one
    // maxWorkers per group). First every other file, four at a time (they mostly wait: sign-in
    // pacing, probes, child processes; a run of all of them uses about 1.2 cores): they judge no
    // stream timing (tests of the CLI, reports, sharding and packaging leave the timing checks
    // out, test/helpers/untimed.ts), and what they time is bounded in seconds. Then the
    // detection matrix's eight files at once (see MATRIX), then the other timing files, three
    // at a time (see TIMING).
    projects: [
      { extends: true, test: { name: 'untimed', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...MATRIX, ...TIMING], maxWorkers: 4, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'matrix', include: MATRIX, globalSetup: ['test/helpers/matrix-setup.ts'], maxWorkers: PARTS, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'timing', include: TIMING, maxWorkers: 3, sequence: { groupOrder: 2 } } },
    ],
  },
});
