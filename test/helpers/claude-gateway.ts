// The real Claude apps gateway (`claude gateway --config FILE`) as an oracle for lint-config:
// started only inside a loopback-only network namespace (unshare -n), with a clean environment.
// A file the gateway accepts gets as far as connecting to PostgreSQL, which is refused inside
// the namespace: that line is the "valid" verdict, and the process group is ended right away.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './cli.js';
import { CLAUDE_CODE_PINNED } from '../../src/core/paths.js';

export const CLAUDE_VERSION = CLAUDE_CODE_PINNED;
const PLATFORM_BIN = 'node_modules/@anthropic-ai/claude-code-linux-x64/claude';

/** GWC_CLAUDE_BIN, else the folder .ci/run installs into (GWC_CLAUDE_DIR, /opt/claude-code by default), else a project cache. */
export function findClaude(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = [env.GWC_CLAUDE_BIN, join(env.GWC_CLAUDE_DIR || '/opt/claude-code', PLATFORM_BIN), join(ROOT, '.cache/claude-code', PLATFORM_BIN)];
  return candidates.find((p): p is string => !!p && existsSync(p));
}

export interface GatewayVerdict {
  verdict: 'valid' | 'invalid';
  /** What the gateway printed (validation errors for an invalid file). */
  output: string;
}

const VALID = /could not connect to Postgres/;

export function gatewayVerdict(bin: string, configFile: string, vars: Record<string, string>, timeoutMs = 30_000): Promise<GatewayVerdict> {
  const home = mkdtempSync(join(tmpdir(), 'gwc-claude-home-'));
  const env: NodeJS.ProcessEnv = {
    PATH: '/usr/sbin:/usr/bin:/sbin:/bin',
    HOME: home,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    ...vars,
  };
  return new Promise((resolve, reject) => {
    const p = spawn('unshare', ['-n', 'sh', '-c', 'ip link set lo up && exec "$0" gateway --config "$1"', bin, configFile], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let settled = false;
    const finish = (v: GatewayVerdict | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      try {
        process.kill(-p.pid!, 'SIGKILL'); // the process group we started: unshare, sh, claude
      } catch {
        /* already gone */
      }
      if (v instanceof Error) reject(v);
      else resolve(v);
    };
    const onData = (d: Buffer) => {
      output += d;
      if (VALID.test(output)) finish({ verdict: 'valid', output });
    };
    p.stdout.on('data', onData);
    p.stderr.on('data', onData);
    p.on('error', (e) => finish(new Error(`cannot start unshare: ${e.message}`)));
    p.on('close', (code) => {
      if (VALID.test(output)) return finish({ verdict: 'valid', output });
      if (/unshare: |Operation not permitted|Cannot find device/.test(output)) return finish(new Error(`the network namespace could not be set up: ${output.trim()}`));
      finish(code === 0 ? new Error(`gateway exited 0 without reaching its database: ${output}`) : { verdict: 'invalid', output });
    });
    const timer = setTimeout(() => finish(new Error(`gateway gave no verdict within ${timeoutMs} ms: ${output}`)), timeoutMs);
  });
}
