// What the self-tests cost, per test file and in all, as pure functions: reading a
// /proc/<pid>/stat line, the cost of one file from the samples its worker took at the file's
// start and end (test/helpers/self-costs-setup.ts), the run's summary that the reporter
// (test/helpers/self-costs-reporter.ts) writes to .cache/self-tests.json, and the table it prints.
// scripts/self-test-costs.mjs writes the section of docs/performance.md from that JSON.

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`: 100 on Linux). */
export const CLOCK_TICKS = 100;

/** One worker process at one moment. */
export interface CpuSample {
  /** User + system seconds of the process itself, every thread (process.resourceUsage). */
  selfS: number;
  /**
   * User + system seconds of the children the process has waited for, with the descendants
   * each of them waited for (/proc/self/stat cutime + cstime); null without /proc.
   */
  childrenS: number | null;
  /** performance.now(), in ms. */
  atMs: number;
  /** Child processes this process has started so far (test/helpers/self-costs-probe.ts). */
  spawned: number;
  /** Of those, the ones started asynchronously that have not exited. */
  running: number;
}

/** What one test file cost in its worker process: the field `selfCost` of the file's task meta. */
export interface FileCost {
  pid: number;
  /** selfCpuS + childrenCpuS. */
  cpuS: number;
  selfCpuS: number;
  /** null when /proc could not be read. */
  childrenCpuS: number | null;
  wallS: number;
  /** Child processes the worker started during the file (not their own children). */
  children: number;
  /** Children of the worker (of this file or, in a reused worker, an earlier one) still running at the file's end: their CPU is not in childrenCpuS. */
  childrenRunning: number;
  /** CPU the process spent before this file's start when the file is the process's first (node, vitest's worker), else 0. */
  workerStartCpuS: number;
}

/** A test file of the run and its cost; cost null when the file reported none (it failed to load, or its worker died). */
export interface FileRecord {
  file: string;
  project: string;
  state: string;
  cost: FileCost | null;
}

export interface Totals {
  files: number;
  /** Files without figures (FileRecord.cost null). */
  unmeasured: number;
  cpuS: number;
  selfCpuS: number;
  childrenCpuS: number;
  workerStartCpuS: number;
  /** The files' wall times added up (files run side by side: more than the run's wall time). */
  fileWallS: number;
  children: number;
  /** Children still running at their file's end, added up over the files. */
  childrenRunning: number;
}

/** The run: what the reporter knows beside the files. */
export interface RunFacts {
  date: string;
  node: string;
  vitest: string;
  reason: string;
  /** Wall seconds from the run's start to its end (vitest's main process). */
  runWallS: number;
  /** CPU seconds of vitest's main process from its start to the run's end (config, transforms, scheduling, reporters). */
  mainCpuS: number;
}

/** The content of .cache/self-tests.json. */
export interface SelfTestsReport extends RunFacts {
  totals: Totals;
  /** One entry per vitest project, in the order their first files come in the run. */
  projects: Array<{ name: string } & Totals>;
  /** Every file, most CPU first; the unmeasured ones last. */
  files: FileRecord[];
}

/** Seconds to the millisecond, so that sums and JSON stay readable. */
export const ms = (s: number): number => Math.round(s * 1000) / 1000;

/** The process's own and its reaped children's CPU from a /proc/<pid>/stat line, in seconds; null when the line is not one. */
export function procStatCpu(stat: string, ticks = CLOCK_TICKS): { selfS: number; childrenS: number } | null {
  // Field 2, the command, is in parentheses and may hold spaces and parentheses itself: the
  // fields are counted from its last ')'. f[0] is field 3 (state), so utime, stime, cutime
  // and cstime (fields 14 to 17) are f[11] to f[14].
  const close = stat.lastIndexOf(')');
  if (close < 0) return null;
  const f = stat.slice(close + 1).trim().split(/\s+/).slice(11, 15).map(Number);
  if (f.length < 4 || !f.every((n) => Number.isInteger(n) && n >= 0)) return null;
  return { selfS: (f[0] + f[1]) / ticks, childrenS: (f[2] + f[3]) / ticks };
}

/** The cost of the file between two samples of its worker. */
export function fileCost(start: CpuSample, end: CpuSample, pid: number, workerStartCpuS: number): FileCost {
  const selfCpuS = ms(end.selfS - start.selfS);
  const childrenCpuS = start.childrenS === null || end.childrenS === null ? null : ms(end.childrenS - start.childrenS);
  return {
    pid,
    cpuS: ms(selfCpuS + (childrenCpuS ?? 0)),
    selfCpuS,
    childrenCpuS,
    wallS: ms((end.atMs - start.atMs) / 1000),
    children: end.spawned - start.spawned,
    childrenRunning: end.running,
    workerStartCpuS: ms(workerStartCpuS),
  };
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The FileCost of a file's task meta, or null when it has none (or not one of this shape). */
export function costOf(meta: unknown): FileCost | null {
  const c = (meta as { selfCost?: unknown } | null | undefined)?.selfCost as Record<string, unknown> | undefined;
  if (!c || typeof c !== 'object') return null;
  const numbers = ['pid', 'cpuS', 'selfCpuS', 'wallS', 'children', 'childrenRunning', 'workerStartCpuS'].every((k) => isNum(c[k]));
  return numbers && (c.childrenCpuS === null || isNum(c.childrenCpuS)) ? (c as unknown as FileCost) : null;
}

/** The totals of some files. */
export function totalsOf(records: readonly FileRecord[]): Totals {
  const t: Totals = { files: records.length, unmeasured: 0, cpuS: 0, selfCpuS: 0, childrenCpuS: 0, workerStartCpuS: 0, fileWallS: 0, children: 0, childrenRunning: 0 };
  for (const { cost } of records) {
    if (!cost) {
      t.unmeasured++;
      continue;
    }
    t.cpuS += cost.cpuS;
    t.selfCpuS += cost.selfCpuS;
    t.childrenCpuS += cost.childrenCpuS ?? 0;
    t.workerStartCpuS += cost.workerStartCpuS;
    t.fileWallS += cost.wallS;
    t.children += cost.children;
    t.childrenRunning += cost.childrenRunning;
  }
  for (const k of ['cpuS', 'selfCpuS', 'childrenCpuS', 'workerStartCpuS', 'fileWallS'] as const) t[k] = ms(t[k]);
  return t;
}

/** Most CPU first, the unmeasured last; ties by file name, so the order is the same each time. */
export function byCpu(a: FileRecord, b: FileRecord): number {
  const ca = a.cost?.cpuS ?? -1;
  const cb = b.cost?.cpuS ?? -1;
  return cb - ca || a.file.localeCompare(b.file);
}

/** The report of a run from its files. */
export function selfTestsReport(records: readonly FileRecord[], run: RunFacts): SelfTestsReport {
  const names = [...new Set(records.map((r) => r.project))];
  return {
    ...run,
    runWallS: ms(run.runWallS),
    mainCpuS: ms(run.mainCpuS),
    totals: totalsOf(records),
    projects: names.map((name) => ({ name, ...totalsOf(records.filter((r) => r.project === name)) })),
    files: [...records].sort(byCpu),
  };
}

const s1 = (n: number | null): string => (n === null ? '-' : n.toFixed(1));
const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** Columns padded to their widest cell; the first two left-aligned, the numbers right-aligned. */
function columns(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd());
}

/** The table printed at the end of a run: the `top` files of most CPU, then the totals. */
export function costTable(report: SelfTestsReport, top: number, where: string): string {
  const shown = report.files.filter((f) => f.cost).slice(0, top);
  const rows = [['file', 'project', 'CPU s', 'self s', 'children s', 'wall s', 'children']];
  for (const f of shown) {
    const c = f.cost as FileCost;
    rows.push([f.file, f.project, s1(c.cpuS), s1(c.selfCpuS), s1(c.childrenCpuS), s1(c.wallS), String(c.children)]);
  }
  const t = report.totals;
  const lines = [
    `Self-test costs (${where}): the ${count(shown.length, 'file', 'files')} of most CPU`,
    ...columns(rows),
    `${count(t.files, 'file', 'files')}${t.unmeasured ? ` (${t.unmeasured} unmeasured)` : ''}: ${s1(t.cpuS)} s CPU (${s1(t.selfCpuS)} s in the workers, ${s1(t.childrenCpuS)} s in their children), ${s1(t.fileWallS)} s of file wall time, ${count(t.children, 'child process', 'child processes')}${t.childrenRunning ? ` (${t.childrenRunning} still running at their file's end: their CPU is not counted)` : ''}`,
    `run: ${s1(report.runWallS)} s wall; also ${s1(t.workerStartCpuS)} s CPU starting the workers, ${s1(report.mainCpuS)} s in vitest's main process`,
  ];
  for (const p of report.projects) lines.push(`  ${p.name}: ${count(p.files, 'file', 'files')}, ${s1(p.cpuS)} s CPU, ${s1(p.fileWallS)} s file wall, ${count(p.children, 'child', 'children')}`);
  return lines.join('\n');
}
