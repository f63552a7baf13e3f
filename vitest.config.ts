import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    // The CLI and nginx tests spawn processes; keep the 2-core machine from oversubscription.
    maxWorkers: 2,
  },
});
