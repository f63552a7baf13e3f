// What the self-tests' setup file (test/helpers/self-costs-setup.ts) reads in a vitest worker
// process: its CPU and its reaped children's (a CpuSample, test/helpers/self-costs.ts), and a
// count of the child processes it has started.
//
// The count: node:child_process's every asynchronous start (spawn, exec, execFile, fork, and
// the libraries that use them) goes through ChildProcess.prototype.spawn, which is wrapped once
// per process; a start counts when it got a pid (an ENOENT does not). spawnSync, execSync and
// execFileSync each call the module's own spawnSync, not its export, so the three exports are
// wrapped, and a call counts when its result (or the error thrown) has a pid. Not counted: the
// processes a child starts itself (a shell's commands, npm's scripts, grandchildren of any
// kind), processes started by a container engine or any other process outside this one,
// worker threads, and what a test starts through process.binding.
import * as childProcess from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { performance } from 'node:perf_hooks';
import { procStatCpu, type CpuSample } from './self-costs.js';

/** Kept on globalThis, so a worker process that runs several files (isolate: false) wraps once and counts on. */
interface ProbeState {
  spawned: number;
  /** The asynchronous children started and not yet exited (their CPU is not in cutime yet). */
  running: Set<object>;
  /** Whether a file's window has started in this process already. */
  started: boolean;
}
const KEY = Symbol.for('gw-conformance.self-costs');
const state = (): ProbeState => ((globalThis as Record<symbol, ProbeState>)[KEY] ??= { spawned: 0, running: new Set(), started: false });

const hasPid = (r: unknown): boolean => typeof (r as { pid?: unknown } | null)?.pid === 'number' && (r as { pid: number }).pid > 0;

/** Wraps the starts of child processes to count them; once per process. */
export function installSpawnCount(): void {
  const s = state() as ProbeState & { installed?: boolean };
  if (s.installed) return;
  s.installed = true;
  const proto = childProcess.ChildProcess.prototype as unknown as { spawn: (...a: unknown[]) => unknown };
  const spawn = proto.spawn;
  proto.spawn = function (this: childProcess.ChildProcess, ...args: unknown[]) {
    try {
      return spawn.apply(this, args);
    } finally {
      if (typeof this.pid === 'number') {
        s.spawned++;
        s.running.add(this);
        this.once('exit', () => s.running.delete(this));
      }
    }
  };
  // The CommonJS exports: replacing them and syncing the ESM ones makes `import { spawnSync }` see the wrapper too.
  const cjs = createRequire(import.meta.url)('node:child_process') as Record<string, (...a: unknown[]) => unknown>;
  for (const name of ['spawnSync', 'execSync', 'execFileSync']) {
    const f = cjs[name];
    cjs[name] = function (this: unknown, ...args: unknown[]) {
      let result: unknown;
      try {
        result = f.apply(this, args);
      } catch (e) {
        if (hasPid(e)) s.spawned++;
        throw e;
      }
      // execSync and execFileSync return only the output: they got a pid unless they threw.
      if (name !== 'spawnSync' || hasPid(result)) s.spawned++;
      return result;
    };
  }
  syncBuiltinESMExports();
}

/** Child processes this process has started since installSpawnCount. */
export const spawned = (): number => state().spawned;

/** Asynchronous children started and not exited yet. */
export const running = (): number => state().running.size;

/** True the first time in a process, false after: whether the calling file is its process's first. */
export function firstFileOfProcess(): boolean {
  const s = state();
  const first = !s.started;
  s.started = true;
  return first;
}

/** This process now. */
export function sampleCpu(): CpuSample {
  const r = process.resourceUsage();
  let childrenS: number | null = null;
  try {
    childrenS = procStatCpu(readFileSync('/proc/self/stat', 'utf8'))?.childrenS ?? null;
  } catch {
    // no /proc (not Linux): the children's CPU is not known
  }
  return { selfS: (r.userCPUTime + r.systemCPUTime) / 1e6, childrenS, atMs: performance.now(), spawned: spawned(), running: running() };
}
