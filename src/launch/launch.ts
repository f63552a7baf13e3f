// The gateway the harness starts itself: --gateway-cmd (a shell command, its own process
// group) or --gateway-image (a container, src/launch/image.ts). Both get the same
// placeholders: free loopback ports picked here, the recording upstream's URL, a work folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { HarnessError } from '../core/errors.js';
import { requireOptional } from '../core/optional.js';
import type { LaunchInfo } from '../report/shared/types.js';
import { maskLogLine } from './image.js';
import { connects, freePort } from './ports.js';
import { exitedOf, exitOf, stopGroup, killGroup } from './process-group.js';
import { Tail, TAIL_LINES } from './tail.js';
import { performance } from 'node:perf_hooks';
import { containerPid, imageBytes, ResourceSampler } from './resources.js';

export { freePort };

export const PLACEHOLDERS = ['upstream_url', 'upstream_port', 'listen_port', 'workdir', 'upstream_ca'] as const;
export type PlaceholderValues = Record<(typeof PLACEHOLDERS)[number], string>;
/** The environment variables the placeholders are also given as (a container's only way to see them). */
export const PLACEHOLDER_ENV: Record<(typeof PLACEHOLDERS)[number], string> = {
  upstream_url: 'GWC_UPSTREAM_URL',
  upstream_port: 'GWC_UPSTREAM_PORT',
  listen_port: 'GWC_LISTEN_PORT',
  workdir: 'GWC_WORKDIR',
  upstream_ca: 'GWC_UPSTREAM_CA',
};


/** `{name}` placeholders (a shell's `${VAR}` is left alone); an unknown one is a harness error. */
export function checkPlaceholders(text: string, label: string): void {
  for (const m of text.matchAll(/(^|[^$])\{([A-Za-z_][A-Za-z0-9_]*)\}/g))
    if (!(PLACEHOLDERS as readonly string[]).includes(m[2])) throw new HarnessError('BAD_FLAG', `${label}: unknown placeholder "{${m[2]}}" (known: ${PLACEHOLDERS.map((p) => `{${p}}`).join(', ')})`);
}

export function expandPlaceholders(text: string, values: PlaceholderValues): string {
  return text.replace(/(^|[^$])\{(upstream_url|upstream_port|listen_port|workdir|upstream_ca)\}/g, (_m, pre: string, name: keyof PlaceholderValues) => `${pre}${values[name]}`);
}

/** `K=V` items of --gateway-env. */
export function parseEnvList(items: string[]): Array<[string, string]> {
  return items.map((x) => {
    const eq = x.indexOf('=');
    if (eq <= 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(x.slice(0, eq))) throw new HarnessError('BAD_FLAG', `--gateway-env: expected NAME=VALUE, got "${x}"`);
    checkPlaceholders(x.slice(eq + 1), '--gateway-env');
    return [x.slice(0, eq), x.slice(eq + 1)];
  });
}

/** A started gateway: the harness stops it at the end; checks may restart it (`ctx.gateway.restart()`). */
export interface LaunchedGateway {
  readonly target: string;
  restart(): Promise<void>;
  stop(): Promise<void>;
  info(): LaunchInfo;
  /** Its memory and CPU over the run, and its cold start (src/launch/resources.ts); checks read it through the gateway client. */
  readonly resources: ResourceSampler;
  /** The run's first good answer came (the readiness gate passed): the end of the cold start. */
  answered(): void;
  /** Calls `listener` with how the gateway ended when it exits on its own (not stopped or restarted by the harness); returns the unsubscribe. */
  onExit?(listener: (how: string) => void): () => void;
}

export interface CommandOptions {
  command: string;
  env: Array<[string, string]>;
  values: PlaceholderValues;
  listenPort: number;
  startTimeoutMs: number;
  secrets: string[];
  /** The harness's environment, which the command inherits (the CLI's io.env); this process's when absent. */
  processEnv?: NodeJS.ProcessEnv;
  /**
   * How the process ends when a SIGINT or SIGTERM no one else listens to stops it (the gateway
   * already killed): the CLI exits with the code (130, 143). Absent: the signal is raised again,
   * so the process ends as it would have without this gateway.
   */
  onSignal?: (code: number) => void;
}

/** The command's environment: ours, the placeholders as variables, then --gateway-env (placeholders expanded). */
function commandEnv(opts: CommandOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...(opts.processEnv ?? process.env) };
  for (const [k, p] of Object.entries(PLACEHOLDER_ENV)) env[p] = opts.values[k as keyof PlaceholderValues];
  for (const [k, v] of opts.env) env[k] = expandPlaceholders(v, opts.values);
  return env;
}

/**
 * Starts `--gateway-cmd` with `sh -c` in its own process group and resolves once its listen
 * port accepts connections; a command that exits first is a one-line harness error with its
 * exit code and last lines of output.
 */
export async function startCommand(opts: CommandOptions): Promise<LaunchedGateway> {
  const tail = new Tail(opts.secrets);
  const sampler = new ResourceSampler(performance.now(), 'process group');
  const command = expandPlaceholders(opts.command, opts.values);
  const env = commandEnv(opts);
  let child: ChildProcess | undefined;
  let restarts = 0;
  let lastExit: number | null = null;
  const onProcessExit = () => child && killGroup(child, 'SIGKILL');
  process.once('exit', onProcessExit);
  // Stopped by a signal, the harness takes its gateway down with it (a default handler would not run
  // 'exit'), then ends as the caller says (the CLI exits 130 or 143). A run that handles Ctrl-C
  // itself (cli/shared/interrupt.ts) writes its reports first, then exits, which stops the gateway
  // through 'exit'.
  const onSignal = (sig: NodeJS.Signals) => {
    if (process.listenerCount(sig) > 1) return;
    onProcessExit();
    if (opts.onSignal) return opts.onSignal(sig === 'SIGINT' ? 130 : 143);
    process.removeListener('SIGTERM', onSignal);
    process.removeListener('SIGINT', onSignal);
    process.kill(process.pid, sig);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  // Children the harness stops itself: their exit is not the gateway going away.
  const stopping = new WeakSet<ChildProcess>();
  const exitListeners = new Set<(how: string) => void>();
  const stopChild = async () => {
    if (!child) return;
    stopping.add(child);
    lastExit = await stopGroup(child);
  };
  const start = async () => {
    const c = (child = spawn('sh', ['-c', command], { cwd: opts.values.workdir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true }));
    c.once('exit', (code, signal) => {
      if (stopping.has(c)) return;
      const how = code !== null ? `the gateway process exited with code ${code}` : `the gateway process was killed by ${signal}`;
      for (const f of exitListeners) f(how);
    });
    // detached: the shell leads a process group of its own, whose id is its pid.
    if (child.pid !== undefined) sampler.watch(child.pid, child.pid);
    await untilListening(child, tail, opts, stopChild);
    await sampler.ready();
  };

  await start();
  let stopped: Promise<void> | undefined;
  return {
    target: `http://127.0.0.1:${opts.listenPort}`,
    async restart() {
      await stopChild();
      restarts++;
      await start();
    },
    stop() {
      return (stopped ??= (async () => {
        await sampler.stop();
        await stopChild();
        tail.flush();
        process.removeListener('exit', onProcessExit);
        process.removeListener('SIGTERM', onSignal);
        process.removeListener('SIGINT', onSignal);
        await rm(opts.values.workdir, { recursive: true, force: true });
      })());
    },
    info: () => ({ kind: 'command', what: maskLogLine(command, opts.secrets), target: `http://127.0.0.1:${opts.listenPort}`, restarts, exitCode: lastExit, logTail: tail.last(TAIL_LINES), resources: sampler.figures() }),
    resources: sampler,
    answered: () => sampler.answered(),
    onExit(listener) {
      exitListeners.add(listener);
      return () => void exitListeners.delete(listener);
    },
  };
}

/** Resolves once the started command listens; stops it and throws a one-line harness error when it exits first or the time runs out. */
async function untilListening(c: ChildProcess, tail: Tail, opts: CommandOptions, stop: () => Promise<void>): Promise<void> {
  c.stdout?.on('data', (d: Buffer) => tail.feed(d));
  c.stderr?.on('data', (d: Buffer) => tail.feed(d));
  let spawnError: Error | undefined;
  c.once('error', (e) => (spawnError = e));
  const exited = exitOf(c);
  const deadline = Date.now() + opts.startTimeoutMs;
  let backoff = 20;
  for (;;) {
    if (spawnError || exitedOf(c)) {
      await new Promise((r) => setImmediate(r));
      tail.flush();
      const said = tail.summary();
      const why = spawnError ? `could not be started (${spawnError.message})` : `exited with ${c.exitCode ?? c.signalCode} before listening on 127.0.0.1:${opts.listenPort}`;
      await stop();
      throw new HarnessError('GATEWAY_START', `--gateway-cmd ${why}${said ? `; ${said}` : '; it wrote nothing'}`);
    }
    if (await connects(opts.listenPort)) return;
    if (Date.now() >= deadline) {
      const last = tail.last(5).join(' | ');
      await stop();
      throw new HarnessError('GATEWAY_START', `--gateway-cmd did not listen on 127.0.0.1:${opts.listenPort} ({listen_port}) within ${Math.round(opts.startTimeoutMs / 1000)} s${last ? `; last output: ${last}` : ''}`);
    }
    // Polls the port (the gateway gives no other sign), or wakes at its exit.
    await Promise.race([new Promise((r) => setTimeout(r, backoff)), exited]);
    backoff = Math.min(backoff * 2, 250);
  }
}

/** A fresh work folder for the started gateway ({workdir}); removed when it stops. */
export async function workdir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'gwc-gateway-'));
}

export interface LaunchRequest {
  cmd?: string;
  image?: string;
  env: string[];
  args: string[];
  upstreamUrl: string;
  upstreamPort: number;
  /** The recording upstream's CA file (--upstream-tls), for {upstream_ca}; empty without TLS. */
  upstreamCa?: string;
  startTimeoutMs: number;
  secrets: string[];
  /** The harness's environment, which a --gateway-cmd inherits (the CLI's io.env); this process's when absent. */
  processEnv?: NodeJS.ProcessEnv;
  /** For a --gateway-cmd: how the process ends on a signal (CommandOptions.onSignal). */
  onSignal?: (code: number) => void;
}

/** Checks the launch flags before anything starts: placeholders, env items, one of cmd and image. */
export function checkLaunch(req: Pick<LaunchRequest, 'cmd' | 'image' | 'env' | 'args'>): void {
  if (req.cmd && req.image) throw new HarnessError('BAD_FLAG', '--gateway-cmd and --gateway-image: give one of them');
  if (!req.cmd && !req.image && (req.env.length || req.args.length)) throw new HarnessError('BAD_FLAG', `${req.env.length ? '--gateway-env' : '--gateway-arg'} needs --gateway-cmd or --gateway-image`);
  if (req.cmd !== undefined) checkPlaceholders(req.cmd, '--gateway-cmd');
  if (req.args.length && !req.image) throw new HarnessError('BAD_FLAG', '--gateway-arg goes with --gateway-image (put arguments in the --gateway-cmd command line)');
  for (const a of req.args) checkPlaceholders(a, '--gateway-arg');
  parseEnvList(req.env);
  if (req.image) requireOptional('image');
}

/** Starts the gateway of --gateway-cmd or --gateway-image on a free loopback port; resolves once it listens. */
export async function launchGateway(req: LaunchRequest): Promise<LaunchedGateway> {
  checkLaunch(req);
  const listenPort = await freePort();
  const dir = await workdir();
  const values: PlaceholderValues = { upstream_url: req.upstreamUrl, upstream_port: String(req.upstreamPort), listen_port: String(listenPort), workdir: dir, upstream_ca: req.upstreamCa ?? '' };
  const env = parseEnvList(req.env);
  try {
    if (req.cmd) return await startCommand({ command: req.cmd, env, values, listenPort, startTimeoutMs: req.startTimeoutMs, secrets: req.secrets, processEnv: req.processEnv, onSignal: req.onSignal });
    return await startImageGateway(req, values, env, dir);
  } catch (e) {
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
}

/** --gateway-image: the container, its placeholders as environment variables, the work folder mounted at the same path. */
async function startImageGateway(req: LaunchRequest, values: PlaceholderValues, env: Array<[string, string]>, dir: string): Promise<LaunchedGateway> {
  const { startImage } = await import('./image.js');
  const containerEnv: Record<string, string> = {};
  for (const [k, p] of Object.entries(PLACEHOLDER_ENV)) containerEnv[p] = values[k as keyof PlaceholderValues];
  for (const [k, v] of env) containerEnv[k] = expandPlaceholders(v, values);
  const args = req.args.map((a) => expandPlaceholders(a, values));
  // The image's size first: the cold start counts from the container's start, not from a pull.
  const size = await imageBytes(req.image!);
  const sampler = new ResourceSampler(performance.now(), 'container');
  sampler.imageBytes = size;
  const running = await startImage({ image: req.image!, env: containerEnv, args, binds: [{ source: dir, target: dir }], readyPort: Number(values.listen_port), startTimeoutMs: req.startTimeoutMs, secrets: req.secrets });
  sampler.markReady();
  const pid = await containerPid(running.id);
  if (pid !== null) sampler.watch(pid, null);
  await sampler.ready();
  let stopped: Promise<void> | undefined;
  const target = `http://127.0.0.1:${values.listen_port}`;
  return {
    target,
    restart: () => Promise.reject(new Error('restarting a --gateway-image gateway is not supported yet')),
    stop: () =>
      (stopped ??= (async () => {
        await sampler.stop();
        await running.stop();
        await rm(dir, { recursive: true, force: true });
      })()),
    info: () => ({ kind: 'image', what: req.image!, target, restarts: 0, exitCode: null, logTail: running.logTail(), resources: sampler.figures() }),
    resources: sampler,
    answered: () => sampler.answered(),
  };
}
