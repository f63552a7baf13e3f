// The global setup of the projects that share a coordinator (vitest.config.ts): starts the run's
// lanes and board (test/helpers/lane.ts) and hands their address to the test files.
import type { TestProject } from 'vitest/node';
import { coordinator } from './lane.js';

/**
 * The lanes and how many of their files run at once. `timing`: the files whose verdicts judge
 * time at a fine grain (stream timing through real proxies, real clients' streams, the held
 * process), three at a time as before, now beside every other file rather than after them.
 */
export const LANES = { timing: 3 };

declare module 'vitest' {
  export interface ProvidedContext {
    coordinator: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const c = await coordinator(LANES);
  project.provide('coordinator', c.url);
  return () => c.close();
}
