// Load shards as containers on this host, for test/load/load-shards-containers.test.ts and
// `npm run bench:barrier`: each shard is `gw-conformance run --attach <mock> --shard i/n` in a
// container of its own, started by the real container runtime (docker). The image is
// gwc-nginx:bookworm (a Debian bookworm root filesystem, scripts/build-nginx-image.sh; its nginx
// is not used): what a shard needs, node and the built harness, is bind-mounted read-only from
// this machine, so every shard runs the binary and build that a shard process here runs. Each has
// its own process, mount and PID namespaces and cgroup; it shares the host's network (--network
// host), so it reaches the mock and the gateway on the host's loopback, and the host's one clock.
import { spawn, spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../src/core/paths.js';

export const SHARD_IMAGE = 'gwc-nginx:bookworm';

/** Why shards cannot run as containers here (no docker daemon, no image), or null. */
export function containersUnavailable(): string | null {
  if (spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 20_000 }).status !== 0) return 'no docker daemon answers `docker info` (scripts/start-dockerd.sh)';
  if (spawnSync('docker', ['image', 'inspect', SHARD_IMAGE], { stdio: 'ignore', timeout: 20_000 }).status !== 0) return `no image ${SHARD_IMAGE} (scripts/build-nginx-image.sh)`;
  // This machine's node must run on the image's libraries (a node linked to a shared libnode does not).
  const probe = spawnSync('docker', ['run', '--rm', '--network', 'host', ...mounts(ROOT), SHARD_IMAGE, process.execPath, '-e', '0'], { encoding: 'utf8', timeout: 120_000 });
  if (probe.status !== 0) return `this machine's node (${process.execPath}) does not run in ${SHARD_IMAGE}: ${(probe.stderr || probe.error?.message || `exit ${probe.status}`).trim().split('\n')[0]}`;
  return null;
}

/** The bind mounts: node, the harness (and node_modules where it links elsewhere) read-only, the reports' folder writable. */
function mounts(out: string): string[] {
  const paths = [[process.execPath, 'ro'], [ROOT, 'ro'], [realpathSync(join(ROOT, 'node_modules')), 'ro'], [out, 'rw']];
  const seen = new Set<string>();
  return paths.filter(([p]) => !seen.has(p) && seen.add(p)).flatMap(([p, mode]) => ['-v', `${p}:${p}:${mode}`]);
}

export interface ShardRun {
  name: string;
  code: number | null;
  output: string;
}

/** The containers started here and not yet ended (removed by stopShardContainers). */
const live = new Set<string>();

/** Runs one shard in a container until it exits (bounded by `timeoutMs`, then removed); `args` follow `run`. */
export function shardContainer(index: number, args: string[], out: string, timeoutMs: number): Promise<ShardRun> {
  const name = `gwc-shard-${process.pid}-${Date.now().toString(36)}-${index}`;
  live.add(name);
  const p = spawn('docker', ['run', '--rm', '--name', name, '--network', 'host', ...mounts(out), '-w', ROOT, SHARD_IMAGE, process.execPath, join(ROOT, 'bin', 'gw-conformance.js'), 'run', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  p.stdout!.on('data', (d) => (output += d));
  p.stderr!.on('data', (d) => (output += d));
  const timer = setTimeout(() => spawnSync('docker', ['rm', '-f', name], { stdio: 'ignore', timeout: 30_000 }), timeoutMs);
  return new Promise((resolve) =>
    p.on('close', (code) => {
      clearTimeout(timer);
      live.delete(name);
      resolve({ name, code, output });
    }),
  );
}

/** Removes every shard container still running (a test's or bench's end). */
export function stopShardContainers(): void {
  for (const name of live) spawnSync('docker', ['rm', '-f', name], { stdio: 'ignore', timeout: 30_000 });
  live.clear();
}
