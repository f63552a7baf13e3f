// Runs a real nginx from a config template (examples/nginx/*.conf) in a throwaway prefix, on
// ports chosen by the test. The template uses the literal listen address 127.0.0.1:8080 and
// upstream address 127.0.0.1:18080; both are replaced by plain string substitution.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { connects } from '../../src/launch/ports.js';

export const LISTEN_PLACEHOLDER = '127.0.0.1:8080';
export const UPSTREAM_PLACEHOLDER = '127.0.0.1:18080';
/** The *_temp_path folders of the example configs, relative to the prefix. */
export const TEMP_DIRS = ['client_body_temp', 'proxy_temp', 'fastcgi_temp', 'uwsgi_temp', 'scgi_temp'];

const START_DEADLINE_MS = 10_000;
const STOP_GRACE_MS = 5_000;

export interface RunningNginx {
  /** Base URL of the proxy, e.g. http://127.0.0.1:41234 */
  url: string;
  /** The prefix folder (config, pid, error.log, temp folders); removed by stop(). */
  dir: string;
  /** The current content of the error log ('' when there is none). */
  errorLog(): string;
  /** SIGTERM, SIGKILL after a bound, waits for the exit, removes the prefix folder. */
  stop(): Promise<void>;
}

/** True when an `nginx` binary is on PATH and answers `nginx -v`. */
export function nginxAvailable(): boolean {
  const r = spawnSync('nginx', ['-v'], { stdio: 'ignore', timeout: 5_000 });
  return !r.error && r.status === 0;
}

/** Whether the installed nginx has `-e` (error log path on the command line, nginx >= 1.19.5). */
function supportsErrorLogFlag(): boolean {
  const r = spawnSync('nginx', ['-h'], { encoding: 'utf8', timeout: 5_000 });
  return /^\s*-e\s/m.test(`${r.stdout ?? ''}${r.stderr ?? ''}`);
}

export { freePort } from '../../src/launch/ports.js';

/** Replaces a literal address, not a longer one that starts with it (…:8080 is not …:80800). */
function substitute(text: string, literal: string, replacement: string, templatePath: string): string {
  const re = new RegExp(`${literal.replace(/[.]/g, '\\.')}(?!\\d)`, 'g');
  if (!re.test(text)) throw new Error(`${templatePath}: the template does not contain ${literal}, so its port cannot be substituted`);
  return text.replace(re, replacement);
}


function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Resolves true when the child has exited within `ms`. */
async function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (exited(child)) return true;
  let timer: NodeJS.Timeout | undefined;
  const res = await Promise.race([
    once(child, 'exit').then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]);
  clearTimeout(timer);
  return res;
}

/**
 * Starts nginx from `confTemplatePath` with the ports substituted, in a fresh temp prefix.
 * Resolves once the listen port accepts a TCP connection; rejects (with nginx's output and
 * error log) when nginx exits early or the port is not accepting within 10 s.
 */
export async function startNginx(confTemplatePath: string, ports: { listenPort: number; upstreamPort: number }): Promise<RunningNginx> {
  const template = await readFile(confTemplatePath, 'utf8');
  let conf = substitute(template, LISTEN_PLACEHOLDER, `127.0.0.1:${ports.listenPort}`, confTemplatePath);
  conf = substitute(conf, UPSTREAM_PLACEHOLDER, `127.0.0.1:${ports.upstreamPort}`, confTemplatePath);

  const dir = await mkdtemp(path.join(os.tmpdir(), 'gwc-nginx-'));
  // Run as root, nginx's workers switch to user nobody: they must be able to reach the temp
  // folders (a request body over client_body_buffer_size is written to client_body_temp).
  await chmod(dir, 0o755);
  for (const d of TEMP_DIRS) await mkdir(path.join(dir, d), { recursive: true });
  const confPath = path.join(dir, 'nginx.conf');
  const errorLogPath = path.join(dir, 'error.log');
  await writeFile(confPath, conf);

  const args = ['-p', `${dir}/`, '-c', confPath];
  if (supportsErrorLogFlag()) args.push('-e', errorLogPath);
  // Its own process group, so stop() can reach the workers too if the master must be killed.
  const child = spawn('nginx', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString('utf8')));
  let spawnError: Error | undefined;
  child.once('error', (e) => (spawnError = e));

  const killGroup = (signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  // Never leave nginx behind if the test process exits without calling stop().
  const onExit = () => killGroup('SIGKILL');
  process.once('exit', onExit);

  const errorLog = () => (existsSync(errorLogPath) ? readFileSync(errorLogPath, 'utf8') : '');
  // nginx writes its pid file only after it has bound every listen socket: a connection that
  // succeeds before that reaches some other process that holds the port.
  const pidDirective = /^\s*pid\s+([^;\s]+)\s*;/m.exec(conf)?.[1];
  const pidPath = pidDirective ? path.resolve(dir, pidDirective) : undefined;
  const pidFileIsOurs = () => !pidPath || (existsSync(pidPath) && readFileSync(pidPath, 'utf8').trim() === String(child.pid));
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (!exited(child)) {
      child.kill('SIGTERM'); // the master shuts its workers down and exits
      if (!(await waitExit(child, STOP_GRACE_MS))) {
        killGroup('SIGKILL');
        await waitExit(child, STOP_GRACE_MS);
      }
    }
    process.removeListener('exit', onExit);
    await rm(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + START_DEADLINE_MS;
  let backoff = 10;
  for (;;) {
    if (spawnError || exited(child)) {
      const why = spawnError ? `could not be started: ${spawnError.message}` : `exited with ${child.exitCode ?? child.signalCode}`;
      const detail = `nginx ${why}\n${output}${errorLog()}`;
      await stop();
      throw new Error(detail.trimEnd());
    }
    if (pidFileIsOurs() && (await connects(ports.listenPort))) break;
    if (Date.now() >= deadline) {
      const detail = `nginx did not accept connections on 127.0.0.1:${ports.listenPort} within ${START_DEADLINE_MS} ms\n${output}${errorLog()}`;
      await stop();
      throw new Error(detail.trimEnd());
    }
    await new Promise((r) => setTimeout(r, backoff));
    backoff = Math.min(backoff * 2, 200);
  }
  return { url: `http://127.0.0.1:${ports.listenPort}`, dir, errorLog, stop };
}
