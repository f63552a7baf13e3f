// Setup file of every test file (vitest.config.ts `setupFiles`): measures what the file costs in
// its worker process and puts it in the file's task meta (`selfCost`, a FileCost of
// test/helpers/self-costs.ts), where the reporter (test/helpers/self-costs-reporter.ts) reads it.
//
// vitest runs a setup file in the file's worker before it imports the file, so the window opens
// before the file's imports; an aroundAll hook registered here is the file's outermost one, so it
// closes after the file's every hook, the cleanups beforeAll returned and the file's fixtures.
// The figures are deltas over that window: a worker that runs several files (vitest's forks
// pool gives each file a fresh process unless isolate is false) gives each its own. Each file
// runs in its own process, so the CPU of files running beside it is not in its figures. Children's
// CPU counts once the child is reaped (an asynchronous child by its 'exit' event): one still
// running at the window's end is left out (childrenRunning says how many there were), and in a
// reused worker lands in a later file. Not in any file's figures: the worker's start before its
// first file (workerStartCpuS, apart), vitest's main process (the reporter's mainCpuS), and
// processes outside the worker's tree (containers run by dockerd).
import { aroundAll } from 'vitest';
import { fileCost } from './self-costs.js';
import { firstFileOfProcess, installSpawnCount, sampleCpu } from './self-costs-probe.js';

installSpawnCount();
const start = sampleCpu();
const workerStartCpuS = firstFileOfProcess() ? start.selfS + (start.childrenS ?? 0) : 0;

// vitest reads the second parameter for the fixtures the hook uses: an empty pattern asks for none.
aroundAll(async (runSuite, {}, suite) => {
  try {
    await runSuite();
  } finally {
    suite.meta.selfCost = fileCost(start, sampleCpu(), process.pid, workerStartCpuS);
  }
});

declare module '@vitest/runner' {
  interface TaskMeta {
    selfCost?: import('./self-costs.js').FileCost;
  }
}
