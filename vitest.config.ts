import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files whose verdicts judge time at a fine grain: the stream timing oracle (the detection
 * matrix, nginx through its configs, in a container, and certify's verify of plain against
 * streaming nginx). They run one at a time with no other file beside them: a second file's work
 * on the other core could add lag that is not the gateway's, and a timing check that cries wolf
 * in CI is worse than a slower CI.
 */
const TIMING = ['test/detection.test.ts', 'test/nginx.test.ts', 'test/image.test.ts', 'test/certify.test.ts'];

/**
 * The longest files of the first group, started first so that the two workers end together.
 * vitest orders by the durations of the last run when it has them, else by file size (a fresh
 * clone in CI); these go first either way. A stale list only costs time, never a verdict.
 */
const LONG_FIRST = ['test/hostile.test.ts', 'test/package.test.ts', 'test/apps-detection.test.ts', 'test/launch.test.ts', 'test/cli.test.ts', 'test/targeting.test.ts', 'test/shard.test.ts'];

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
    // Two groups, one after the other (vitest 4: projects with sequence.groupOrder; one
    // maxWorkers per group). First every other file, two at a time: they judge no stream timing
    // (tests of the CLI, reports, sharding and packaging leave the timing checks out,
    // test/helpers/untimed.ts), and what they time is bounded in seconds. Then the timing files,
    // alone.
    projects: [
      { extends: true, test: { name: 'untimed', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...TIMING], maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'timing', include: TIMING, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
