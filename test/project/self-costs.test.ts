// The arithmetic of the self-tests' cost figures (test/helpers/self-costs.ts): reading
// /proc/<pid>/stat, a file's cost as the delta of two samples of its worker (a reused worker
// gives each file its own), the totals per run and per project, the order of the files, and the
// table printed at the end of a run.
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { costOf, costTable, fileCost, procStatCpu, selfTestsReport, totalsOf, type CpuSample, type FileCost, type FileRecord, type RunFacts } from '../helpers/self-costs.js';

/** A /proc/<pid>/stat line of `comm` with utime, stime, cutime and cstime as given (ticks). */
const statLine = (comm: string, utime: number, stime: number, cutime: number, cstime: number) =>
  `4242 (${comm}) S 1 4242 4242 0 -1 4194304 500 0 0 0 ${utime} ${stime} ${cutime} ${cstime} 20 0 11 0 7565 1300000000 30000 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n`;

const sample = (selfS: number, childrenS: number | null, atMs: number, spawned: number, running = 0): CpuSample => ({ selfS, childrenS, atMs, spawned, running });

const cost = (cpuS: number, over: Partial<FileCost> = {}): FileCost => ({
  pid: 1, cpuS, selfCpuS: cpuS, childrenCpuS: 0, wallS: cpuS * 2, children: 0, childrenRunning: 0, workerStartCpuS: 0, ...over,
});
const rec = (file: string, project: string, c: FileCost | null): FileRecord => ({ file, project, state: c ? 'passed' : 'failed', cost: c });
const RUN: RunFacts = { date: '2026-12-01T00:00:00.000Z', node: 'v20.0.0', vitest: '4.1.12', reason: 'passed', runWallS: 10.0004, mainCpuS: 2.5 };

describe('procStatCpu', () => {
  it('reads utime + stime and cutime + cstime in ticks of 1/100 s, counting fields after the command\'s last parenthesis', () => {
    expect(procStatCpu(statLine('node', 250, 50, 1000, 234))).toEqual({ selfS: 3, childrenS: 12.34 });
    // A command with spaces and parentheses of its own does not shift the fields.
    expect(procStatCpu(statLine('a) (b c) 9 9', 1, 2, 3, 4))).toEqual({ selfS: 0.03, childrenS: 0.07 });
    expect(procStatCpu(statLine('node', 250, 50, 1000, 234), 1000)).toEqual({ selfS: 0.3, childrenS: 1.234 });
  });

  it('is null for a line that is not one', () => {
    expect(procStatCpu('')).toBeNull();
    expect(procStatCpu('4242 node S 1 2 3')).toBeNull();
    expect(procStatCpu('4242 (node) S 1 2 3')).toBeNull();
    expect(procStatCpu(statLine('node', 1, 2, -3, 4))).toBeNull();
  });

  it.runIf(process.platform === 'linux')('on this process: its own CPU is what process.resourceUsage says, and a reaped child\'s CPU lands in the children\'s', () => {
    const before = procStatCpu(readFileSync('/proc/self/stat', 'utf8'));
    const r = process.resourceUsage();
    expect(before).not.toBeNull();
    // /proc counts whole ticks; both read the same kernel figures.
    expect(Math.abs((before?.selfS ?? 0) - (r.userCPUTime + r.systemCPUTime) / 1e6)).toBeLessThan(0.05);
    // A child that spins until it has used 0.2 s of user CPU (asking every 65,536 turns), waited for by spawnSync.
    const child = spawnSync(process.execPath, ['-e', 'let i = 0; while ((++i & 0xffff) !== 0 || process.cpuUsage().user < 200000);']);
    expect(child.status).toBe(0);
    const after = procStatCpu(readFileSync('/proc/self/stat', 'utf8'));
    expect((after?.childrenS ?? 0) - (before?.childrenS ?? 0)).toBeGreaterThanOrEqual(0.19);
  });
});

describe('fileCost', () => {
  it('is the delta of the two samples, CPU the worker\'s own plus its children\'s, to the millisecond', () => {
    expect(fileCost(sample(1.5, 0.25, 1000, 3, 1), sample(4.0004, 10.5, 13_500.4, 10, 2), 77, 0.3333)).toEqual({
      pid: 77, cpuS: 12.75, selfCpuS: 2.5, childrenCpuS: 10.25, wallS: 12.5, children: 7, childrenRunning: 2, workerStartCpuS: 0.333,
    });
  });

  it('without /proc the children\'s CPU is null and the CPU the worker\'s alone', () => {
    expect(fileCost(sample(1, null, 0, 0), sample(3, null, 1000, 2), 1, 0)).toMatchObject({ cpuS: 2, selfCpuS: 2, childrenCpuS: null, children: 2 });
  });

  it('a worker that runs two files gives each its own figures, not the process\'s totals', () => {
    const [a, b, c] = [sample(0.4, 0, 0, 0), sample(2.4, 5, 3000, 4), sample(3.4, 5.5, 4000, 5)];
    expect(fileCost(a, b, 9, 0.4)).toMatchObject({ cpuS: 7, children: 4, wallS: 3, workerStartCpuS: 0.4 });
    expect(fileCost(b, c, 9, 0)).toMatchObject({ cpuS: 1.5, selfCpuS: 1, childrenCpuS: 0.5, children: 1, wallS: 1, workerStartCpuS: 0 });
  });
});

describe('costOf', () => {
  it('takes the selfCost of a task\'s meta when it has the shape, else null', () => {
    const c = cost(1);
    expect(costOf({ selfCost: c })).toBe(c);
    expect(costOf({ selfCost: { ...c, childrenCpuS: null } })).toEqual({ ...c, childrenCpuS: null });
    expect(costOf({})).toBeNull();
    expect(costOf(undefined)).toBeNull();
    expect(costOf({ selfCost: { ...c, cpuS: '1' } })).toBeNull();
    expect(costOf({ selfCost: { ...c, children: undefined } })).toBeNull();
    expect(costOf({ selfCost: { ...c, wallS: Number.NaN } })).toBeNull();
  });
});

describe('totalsOf and selfTestsReport', () => {
  const records = [
    rec('test/a.test.ts', 'untimed', cost(1.25, { childrenCpuS: 0.25, selfCpuS: 1, children: 3, childrenRunning: 1, workerStartCpuS: 0.3 })),
    rec('test/b.test.ts', 'untimed', null),
    rec('test/detection/detection.test.ts', 'matrix', cost(10, { childrenCpuS: null, workerStartCpuS: 0.2 })),
    rec('test/real/nginx/nginx.test.ts', 'timing', cost(1.25, { children: 2 })),
    rec('test/c.test.ts', 'untimed', cost(0.1)),
  ];

  it('adds up the measured files and counts the unmeasured ones', () => {
    expect(totalsOf(records)).toEqual({
      files: 5, unmeasured: 1, cpuS: 12.6, selfCpuS: 12.35, childrenCpuS: 0.25, workerStartCpuS: 0.5, fileWallS: 25.2, children: 5, childrenRunning: 1,
    });
    expect(totalsOf([])).toMatchObject({ files: 0, unmeasured: 0, cpuS: 0 });
  });

  it('lists the files most CPU first (ties by name, the unmeasured last) and each project in the order it first comes', () => {
    const r = selfTestsReport(records, RUN);
    expect(r.files.map((f) => f.file)).toEqual(['test/detection/detection.test.ts', 'test/a.test.ts', 'test/real/nginx/nginx.test.ts', 'test/c.test.ts', 'test/b.test.ts']);
    expect(r.projects.map((p) => [p.name, p.files, p.unmeasured, p.cpuS, p.children])).toEqual([['untimed', 3, 1, 1.35, 3], ['matrix', 1, 0, 10, 0], ['timing', 1, 0, 1.25, 2]]);
    expect(r.totals).toEqual(totalsOf(records));
    expect(r).toMatchObject({ date: RUN.date, node: 'v20.0.0', vitest: '4.1.12', reason: 'passed', runWallS: 10, mainCpuS: 2.5 });
    // The caller's list stays in its order.
    expect(records[0].file).toBe('test/a.test.ts');
  });
});

describe('costTable', () => {
  const records = Array.from({ length: 20 }, (_, i) => rec(`test/f${String(i).padStart(2, '0')}.test.ts`, i < 10 ? 'untimed' : 'timing', cost(i + 1, { children: i })));
  records.push(rec('test/broken.test.ts', 'untimed', null), rec('test/proc.test.ts', 'untimed', cost(0.4, { childrenCpuS: null })));

  it('shows the top files by CPU in aligned columns, then the totals and each project', () => {
    const lines = costTable(selfTestsReport(records, RUN), 3, '.cache/self-tests.json').split('\n');
    expect(lines).toEqual([
      'Self-test costs (.cache/self-tests.json): the 3 files of most CPU',
      'file              project  CPU s  self s  children s  wall s  children',
      'test/f19.test.ts  timing    20.0    20.0         0.0    40.0        19',
      'test/f18.test.ts  timing    19.0    19.0         0.0    38.0        18',
      'test/f17.test.ts  timing    18.0    18.0         0.0    36.0        17',
      '22 files (1 unmeasured): 210.4 s CPU (210.4 s in the workers, 0.0 s in their children), 420.8 s of file wall time, 190 child processes',
      'run: 10.0 s wall; also 0.0 s CPU starting the workers, 2.5 s in vitest\'s main process',
      '  untimed: 12 files, 55.4 s CPU, 110.8 s file wall, 45 children',
      '  timing: 10 files, 155.0 s CPU, 310.0 s file wall, 145 children',
    ]);
  });

  it('shows no unmeasured file, a dash for unknown children\'s CPU, and the children left running', () => {
    const few = [rec('test/proc.test.ts', 'untimed', cost(0.05, { childrenCpuS: null, childrenRunning: 2 })), rec('test/broken.test.ts', 'untimed', null)];
    const table = costTable(selfTestsReport(few, RUN), 15, 'x.json');
    expect(table).toContain('the 1 file of most CPU');
    expect(table).toContain('test/proc.test.ts  untimed    0.1     0.1           -     0.1         0');
    expect(table).not.toContain('test/broken.test.ts');
    expect(table).toContain('2 files (1 unmeasured)');
    expect(table).toContain('0 child processes');
    const one = costTable(selfTestsReport([rec('test/one.test.ts', 'timing', cost(1, { children: 1 }))], RUN), 15, 'x.json');
    expect(one).toContain('1 file: 1.0 s CPU');
    expect(one).toContain('1 child process\n');
    expect(one).toContain('  timing: 1 file, 1.0 s CPU, 2.0 s file wall, 1 child');
    expect(table).toContain('(2 still running at their file\'s end: their CPU is not counted)');
  });
});
