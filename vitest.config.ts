import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    // One test file at a time: the detection matrix and the nginx tests run the stream timing
    // oracle, and a second file parsing a 30 MiB body on the other core would add lag that is
    // not the gateway's. A timing check that cries wolf in CI is worse than a slower CI.
    fileParallelism: false,
  },
});
