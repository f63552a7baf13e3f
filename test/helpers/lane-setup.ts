// The global setup of the projects that share a coordinator (vitest.config.ts): starts the run's
// lanes and board (test/helpers/lane.ts) and hands their address to the test files.
import type { TestProject } from 'vitest/node';
import { coordinator } from './lane.js';

/**
 * The lanes and how many of their files run at once. `timing`: test/real/, test/load/ and
 * test/timing/ (stream timing through real proxies, real clients' streams, the load profile, the
 * held process), four at a time, beside every other file rather than after them (they ran three
 * at a time, after the others, when the lane was thirteen files, not eighteen).
 */
export const LANES = { timing: 4 };

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
