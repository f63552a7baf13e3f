// The report folder is checked before any check runs: a folder that cannot be made or written
// would otherwise end a whole run without a report. The check is bounded: it never opens
// anything but a regular file it creates, and refuses the kernel's own file systems (/proc,
// /sys), where a write can block or mean something else.
import { closeSync, mkdirSync, openSync, rmSync, statfsSync, statSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { HarnessError } from '../../src/core/errors.js';

/** statfs types of file systems that are not storage: proc, sysfs, debugfs, securityfs, cgroup, cgroup2. */
const NOT_STORAGE = new Set([0x9fa0, 0x62656572, 0x64626720, 0x73636673, 0x27e0eb, 0x63677270]);

/** The nearest part of `path` that exists (the path itself, or a parent). */
function nearestExisting(path: string): string {
  let p = path;
  for (;;) {
    try {
      statSync(p);
      return p;
    } catch {
      const up = dirname(p);
      if (up === p) return p;
      p = up;
    }
  }
}

/**
 * Makes the report folder `dir` (`flag` names where it came from in the message) and writes a
 * probe file in it; throws one line (exit 2) when it is not a folder, cannot be made, is not
 * storage, or cannot be written.
 */
export function assertWritableDir(dir: string, flag = '--out'): void {
  const abs = resolve(dir);
  const fail = (why: string): never => {
    throw new HarnessError('BAD_FLAG', `${flag} ${dir}: ${why}; reports could not be written there`);
  };
  const existing = nearestExisting(abs);
  const st = statSync(existing);
  if (!st.isDirectory()) fail(existing === abs ? 'not a folder' : `${existing} is not a folder`);
  if (NOT_STORAGE.has(statfsSync(existing).type)) fail(`${existing} is a kernel file system, not storage`);
  try {
    mkdirSync(abs, { recursive: true });
  } catch (e) {
    fail(`cannot be created (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const probe = `${abs}/.gwc-write-probe-${process.pid}`;
  try {
    const fd = openSync(probe, 'wx');
    try {
      writeSync(fd, 'probe');
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    fail(`not writable (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  } finally {
    rmSync(probe, { force: true });
  }
}
