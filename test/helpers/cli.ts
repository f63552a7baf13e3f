// Runs the built CLI as a user would (node bin/gw-conformance.js), bounded in time: for the tests
// about the process (signals, pipes, start-up, the working directory...); the others call the CLI in
// their own process (./in-process.ts, CONTRIBUTING "The CLI in the tests").
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * The environment of a CLI run: the test's own, without what would change the console under a CI
 * or a terminal that runs the tests (GitHub Actions adds the github reporter; FORCE_COLOR colours).
 */
export function cliEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { GITHUB_ACTIONS: _a, GITHUB_STEP_SUMMARY: _s, FORCE_COLOR: _f, ...env } = process.env;
  return { ...env, ...extra };
}

export function cli(args: string[], opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string } = {}): Promise<CliResult> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [`${ROOT}/bin/gw-conformance.js`, ...args], { cwd: opts.cwd ?? ROOT, env: cliEnv(opts.env) });
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
