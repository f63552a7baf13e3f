// One runner for a job inside a loopback-only network namespace (`unshare -n`, as root): the
// namespace's loopback is brought up, the third-party programs' phone-home switches are set, and
// a Node script of the caller's runs with its options as one JSON argument, in its own process
// group so a run past its limit is ended whole (servers and clients with it). The script prints
// its result as the last line of its standard output, as JSON.
import { spawn } from 'node:child_process';

/** Brings loopback up, sets the switches that keep Claude Code, Codex and Gemini CLI quiet, then runs the script. */
const SCRIPT = 'ip link set lo up && CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 exec "$0" "$1" "$2"';

export interface NamespaceOptions {
  cwd: string;
  /** A bound on the whole namespace run, past which its process group is killed: it times nothing. */
  limitMs: number;
  /** Names the run in the errors ("the namespace run LABEL ..."). */
  label: string;
}

export interface NamespaceResult<T> {
  result: T;
  code: number | null;
  stderr: string;
}

/** Runs `runner` (a Node script) in its own namespace with `opts`; rejects when it printed no JSON result. */
export function runInLoopbackNamespace<T>(runner: string, opts: unknown, o: NamespaceOptions): Promise<NamespaceResult<T>> {
  return new Promise((resolve, reject) => {
    const child = spawn('unshare', ['-n', 'sh', '-c', SCRIPT, process.execPath, runner, JSON.stringify(opts)], { cwd: o.cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group ended on its own meanwhile.
      }
    }, o.limitMs);
    child.once('error', (e) => (clearTimeout(timer), reject(new Error(`could not start unshare: ${e.message}`))));
    child.once('close', (code) => {
      clearTimeout(timer);
      const last = stdout.trim().split('\n').pop() ?? '';
      try {
        resolve({ result: JSON.parse(last) as T, code, stderr });
      } catch {
        reject(new Error(`the namespace run ${o.label} ended with ${code} and no result: ${stderr || stdout}`));
      }
    });
  });
}
