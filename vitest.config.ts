import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Files whose verdicts judge time at a fine grain: the stream timing oracle (the detection
 * matrix, nginx through its configs, in a container, and certify's verify of plain against
 * streaming nginx). They run one at a time with no other file beside them: a second file's work
 * on the other core could add lag that is not the gateway's, and a timing check that cries wolf
 * in CI is worse than a slower CI.
 */
const TIMING = ['test/detection.test.ts', 'test/nginx.test.ts', 'test/image.test.ts', 'test/certify.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 30_000,
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
