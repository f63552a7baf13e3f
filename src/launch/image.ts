// Starts the gateway under test as a container (--gateway-image), with testcontainers.
// Host networking only: the harness, its recording upstream and the gateway talk over
// 127.0.0.1, never over a bridge address, so the gateway's configuration is the same as for a
// gateway started as a process. The container's output is kept (a masked tail for the report)
// and the container is removed at the end.
//
// testcontainers is an optional package, loaded on first use: runs without --gateway-image never
// pay for it, and without it installed --gateway-image says what to install. Its
// reaper (Ryuk) is a container image pulled from a registry, which CI machines here cannot
// reach; unless the user says otherwise it is disabled, and stop() removes the container.
import type { Readable } from 'node:stream';
import type { StartedTestContainer } from 'testcontainers';
import { HarnessError } from '../core/errors.js';
import { maskCredentialsInText } from '../core/mask.js';
import { importOptional } from '../core/optional.js';
import { connects } from './ports.js';

export interface ImageOptions {
  image: string;
  /** Environment of the container (the placeholders go here as variables). */
  env?: Record<string, string>;
  /** Command (the image's CMD) with its arguments; the image's own when absent. */
  args?: string[];
  /** Host folders mounted into the container (read-write), e.g. the {workdir} at the same path. */
  binds?: Array<{ source: string; target: string }>;
  /** Files written into the container before it starts (a config file, for example). */
  files?: Array<{ content: string; target: string }>;
  /** Loopback port the gateway listens on: start() resolves once it accepts connections. */
  readyPort?: number;
  /** Bound for the start (image pull excluded) and for readiness; default 30 s. */
  startTimeoutMs?: number;
  /** Bound for pulling an image that is not present locally; default 120 s. */
  pullTimeoutMs?: number;
  /** Strings scrubbed from the captured output (credentials given to the harness). */
  secrets?: string[];
  /** Lines of output kept; default 200. */
  tailLines?: number;
}

export interface RunningImage {
  readonly id: string;
  readonly image: string;
  /** The last lines the container wrote (stdout and stderr), credentials masked. */
  logTail(): string[];
  /** True once the container has stopped (its output stream ended). */
  exited(): boolean;
  /** Stops the container (TERM, KILL after 5 s) and removes it. Safe to call twice. */
  stop(): Promise<void>;
}

const STOP_GRACE_MS = 5_000;
/** How long stop() waits, after the removal, for the container's output stream to end. */
const LOG_END_MS = 5_000;

/** One line of gateway output as it may appear in a report: secrets and credential values masked (the one masker's rule for free text). */
export const maskLogLine = maskCredentialsInText;

const firstLine = (err: unknown) => String((err as Error)?.message ?? err).split('\n')[0].trim();

function withTimeout<T>(p: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

async function loadTestcontainers() {
  process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
  return importOptional('image', () => import('testcontainers'));
}

/** The host of a DOCKER_HOST that is not on this machine (tcp://10.0.0.5:2376), else null. */
export function remoteDaemon(dockerHost: string | undefined): string | null {
  if (!dockerHost || /^(unix|npipe):/.test(dockerHost)) return null;
  let host: string;
  try {
    host = new URL(dockerHost).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return null;
  }
  return ['localhost', '127.0.0.1', '::1', ''].includes(host) ? null : host;
}

/** The container runtime, or a one-line HarnessError saying Docker is not there. */
async function runtimeClient() {
  const tc = await loadTestcontainers();
  let client: Awaited<ReturnType<typeof tc.getContainerRuntimeClient>>;
  try {
    client = await tc.getContainerRuntimeClient();
  } catch {
    throw new HarnessError('DOCKER_UNAVAILABLE', '--gateway-image: no Docker daemon answers (DOCKER_HOST or /var/run/docker.sock); install Docker and start it, or start the gateway with --gateway-cmd');
  }
  // testcontainers' own idea of the host (containerRuntime.host) is where mapped ports are
  // reached, a bridge gateway when it runs inside a container; with host networking what counts
  // is whether the daemon is on this machine, which DOCKER_HOST says.
  const remote = remoteDaemon(process.env.DOCKER_HOST);
  if (remote) {
    throw new HarnessError('DOCKER_UNAVAILABLE', `--gateway-image: the Docker daemon runs on ${remote}, not on this machine; host networking needs a local daemon`);
  }
  return { tc, client };
}

/** True when a local Docker daemon answers. */
export async function dockerAvailable(): Promise<boolean> {
  try {
    await runtimeClient();
    return true;
  } catch {
    return false;
  }
}


/** The image, pulled first when it is not on this machine (bounded); a bad name or a failed pull is a harness error. */
async function ensureImage(tc: Awaited<ReturnType<typeof runtimeClient>>['tc'], client: Awaited<ReturnType<typeof runtimeClient>>['client'], opts: ImageOptions): Promise<void> {
  let imageName;
  try {
    imageName = tc.ImageName.fromString(opts.image);
  } catch {
    throw new HarnessError('IMAGE_NOT_FOUND', `--gateway-image: "${opts.image}" is not an image name`);
  }
  if (await client.image.exists(imageName)) return;
  const pullMs = opts.pullTimeoutMs ?? 120_000;
  try {
    await withTimeout(client.image.pull(imageName), pullMs, () => new Error(`no answer within ${Math.round(pullMs / 1000)} s`));
  } catch (err) {
    throw new HarnessError('IMAGE_NOT_FOUND', `--gateway-image: ${opts.image} is not on this machine and cannot be pulled (${firstLine(err)})`);
  }
}

/** The container's output: the last `keep` lines, masked; `ended` resolves when the stream ends (the container stopped). */
class ContainerLog {
  private lines: string[] = [];
  private partial = '';
  done = false;
  private onEnd: () => void = () => {};
  readonly ended = new Promise<void>((resolve) => (this.onEnd = resolve));
  constructor(
    private readonly secrets: string[],
    private readonly keep: number,
  ) {}
  private push(line: string) {
    this.lines.push(maskLogLine(line, this.secrets));
    if (this.lines.length > this.keep) this.lines.splice(0, this.lines.length - this.keep);
  }
  consume = (stream: Readable) => {
    stream.on('data', (chunk: string | Buffer) => {
      const parts = (this.partial + chunk.toString()).split('\n');
      this.partial = parts.pop() ?? '';
      for (const l of parts) this.push(l.replace(/\r$/, ''));
    });
    stream.once('end', () => {
      if (this.partial) this.push(this.partial);
      this.partial = '';
      this.done = true;
      this.onEnd();
    });
    stream.on('error', () => {});
  };
  tail(): string[] {
    return [...this.lines, ...(this.partial ? [maskLogLine(this.partial, this.secrets)] : [])];
  }
}

export async function startImage(opts: ImageOptions): Promise<RunningImage> {
  const { tc, client } = await runtimeClient();
  const startTimeoutMs = opts.startTimeoutMs ?? 30_000;
  await ensureImage(tc, client, opts);
  const log = new ContainerLog(opts.secrets ?? [], opts.tailLines ?? 200);
  let container = new tc.GenericContainer(opts.image).withNetworkMode('host').withEnvironment(opts.env ?? {}).withStartupTimeout(startTimeoutMs).withLogConsumer(log.consume);
  if (opts.args?.length) container = container.withCommand(opts.args);
  if (opts.files?.length) container = container.withCopyContentToContainer(opts.files);
  if (opts.binds?.length) container = container.withBindMounts(opts.binds.map((b) => ({ ...b, mode: 'rw' as const })));

  let started: StartedTestContainer;
  try {
    started = await withTimeout(container.start(), startTimeoutMs, () => new Error(`not started within ${Math.round(startTimeoutMs / 1000)} s`));
  } catch (err) {
    throw new HarnessError('GATEWAY_START', `--gateway-image: ${opts.image} did not start (${firstLine(err)})`);
  }
  let stopping: Promise<void> | undefined;
  const running: RunningImage = {
    id: started.getId(),
    image: opts.image,
    logTail: () => log.tail(),
    exited: () => log.done,
    // Stopped means removed and its output read to the end: the log stream can end a moment after
    // the daemon reports the removal, so stop() waits for it too (bounded).
    stop: () => (stopping ??= started.stop({ timeout: STOP_GRACE_MS, remove: true }).then(() => withTimeout(log.ended, LOG_END_MS, () => new Error('log did not end')).catch(() => undefined))),
  };
  if (opts.readyPort !== undefined) await untilReady(running, log, opts.readyPort, startTimeoutMs);
  return running;
}

/** Resolves once the container listens on `port`; stops it and throws a one-line harness error when it exits first or the time runs out. */
async function untilReady(running: RunningImage, log: ContainerLog, port: number, startTimeoutMs: number): Promise<void> {
  const deadline = Date.now() + startTimeoutMs;
  let backoff = 20;
  for (;;) {
    if (await connects(port)) return;
    const failure = log.done
      ? 'exited'
      : Date.now() >= deadline
        ? `did not listen on 127.0.0.1:${port} within ${Math.round(startTimeoutMs / 1000)} s (a daemon in another network namespace, as with Docker Desktop, does not share this 127.0.0.1)`
        : null;
    if (failure) {
      const tail = running.logTail().filter(Boolean).slice(-3).join(' | ');
      await running.stop().catch(() => {});
      throw new HarnessError('GATEWAY_START', `--gateway-image: ${running.image} ${failure}${tail ? `; last output: ${tail}` : ''}`);
    }
    // Wait for the next try, or for the container's exit, whichever comes first.
    await Promise.race([new Promise((r) => setTimeout(r, backoff)), log.ended]);
    backoff = Math.min(backoff * 2, 250);
  }
}
