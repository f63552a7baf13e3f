// The process group of a started --gateway-cmd: signalled as a whole (the shell may exit before
// the gateway it started), and stopped with a grace period before SIGKILL.
import type { ChildProcess } from 'node:child_process';

const STOP_GRACE_MS = 5_000;

export const exitedOf = (c: ChildProcess) => c.exitCode !== null || c.signalCode !== null;

export const exitOf = (c: ChildProcess) => new Promise<void>((resolve) => (exitedOf(c) ? resolve() : c.once('exit', () => resolve())));

export function killGroup(c: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (c.pid !== undefined) process.kill(-c.pid, signal);
  } catch {
    /* already gone */
  }
}

/** Whether any process of the command's group is left. */
function groupAlive(c: ChildProcess): boolean {
  try {
    if (c.pid !== undefined) process.kill(-c.pid, 0);
    return c.pid !== undefined;
  } catch {
    return false;
  }
}

/** Resolves true once the group is gone, false at the deadline (polled: a group gives no event). */
async function groupGone(c: ChildProcess, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  let backoff = 10;
  while (groupAlive(c)) {
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, backoff));
    backoff = Math.min(backoff * 2, 100);
  }
  return true;
}

/** SIGTERM, then SIGKILL after the grace period; resolves with the command's exit code once the whole group is gone. */
export async function stopGroup(c: ChildProcess): Promise<number | null> {
  if (!exitedOf(c) || groupAlive(c)) {
    killGroup(c, 'SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const gone = await Promise.race([exitOf(c).then(() => groupGone(c, STOP_GRACE_MS)), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), STOP_GRACE_MS)))]);
    clearTimeout(timer);
    if (!gone) {
      killGroup(c, 'SIGKILL');
      await exitOf(c);
    }
  }
  // The whole group goes: a worker the command left behind must not hold the port, nor answer
  // the readiness probe of the next start (a restart waits until the group is gone).
  killGroup(c, 'SIGKILL');
  await groupGone(c, STOP_GRACE_MS);
  return c.exitCode;
}
