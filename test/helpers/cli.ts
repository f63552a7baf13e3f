// Runs the built CLI as a user would (node bin/gw-conformance.js), bounded in time.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export function cli(args: string[], opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string } = {}): Promise<CliResult> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [`${ROOT}/bin/gw-conformance.js`, ...args], { cwd: opts.cwd ?? ROOT, env: { ...process.env, ...opts.env } });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => p.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - t0 });
    });
  });
}

export { freePort } from '../../src/launch/ports.js';

/**
 * Leaves out the default profile's 15 s idle probe (streaming.idle.default), for tests of the CLI's
 * wiring, reports, sharding, certify and packaging, which are not about idle streams: the probe
 * only waits, and would set each such run's length to 15 s. The detection matrix
 * (test/detection.test.ts: the clean gateway passes it, `idle-cut-10s` fails it) and the nginx
 * tests prove the probe itself.
 */
export const NO_IDLE_PROBE = ['--skip', 'streaming.idle.default'] as const;
/** The id of that probe, for in-process runs (`skip` of resolveConfig). */
export const IDLE_PROBE = 'streaming.idle.default';
