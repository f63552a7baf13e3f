// A vitest reporter (vitest.config.ts, beside the default one) of what the self-tests cost:
// at the end of every run it writes each file's figures, taken in its worker by
// test/helpers/self-costs-setup.ts, with the totals to .cache/self-tests.json (git-ignored;
// `node scripts/self-test-costs.mjs` writes docs/performance.md's section from it), and prints
// the files of most CPU and the totals.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node';
import { costOf, costTable, selfTestsReport, type FileRecord } from './self-costs.js';

/** Where the figures go, relative to the project's root. */
export const SELF_TESTS_JSON = '.cache/self-tests.json';
/** Files shown in the table at the end. */
const TOP = 15;

const cpuNow = (): number => {
  const r = process.resourceUsage();
  return (r.userCPUTime + r.systemCPUTime) / 1e6;
};

export class SelfCostReporter implements Reporter {
  private vitest: Vitest | undefined;
  private startedAt = performance.now();

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunStart(): void {
    this.startedAt = performance.now();
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, _errors: unknown, reason: TestRunEndReason): void {
    const root = this.vitest?.config.root ?? process.cwd();
    const records: FileRecord[] = modules.map((m) => ({
      file: path.relative(root, m.moduleId).split(path.sep).join('/'),
      project: m.project.name || '(no project)',
      state: m.state(),
      cost: costOf(m.meta()),
    }));
    const report = selfTestsReport(records, {
      date: new Date().toISOString(),
      node: process.version,
      vitest: this.vitest?.version ?? 'unknown',
      reason,
      runWallS: (performance.now() - this.startedAt) / 1000,
      mainCpuS: cpuNow(),
    });
    const file = path.join(root, SELF_TESTS_JSON);
    mkdirSync(path.dirname(file), { recursive: true });
    // Written beside and renamed when whole: a reader never sees half a file.
    writeFileSync(`${file}.tmp`, `${JSON.stringify(report, null, 2)}\n`);
    renameSync(`${file}.tmp`, file);
    const table = costTable(report, TOP, SELF_TESTS_JSON);
    if (this.vitest) this.vitest.logger.log(`\n${table}\n`);
    else console.log(`\n${table}\n`);
  }
}
