// Samples the memory and CPU of the gateway the harness launched, over the whole run: for a
// --gateway-cmd every process of its process group and their descendants (a shell, the gateway,
// its workers), for a --gateway-image the process tree of the container's init as this machine's
// /proc shows it (host networking, one kernel), read from /proc/<pid>/stat (CPU) and
// /proc/<pid>/status (VmRSS). The readings, the load windows the checks declare and the launch's
// moments become the report's figures (src/core/resources.ts).
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { summarizeResources, type GatewayResources, type LoadWindow, type ResourceProbe, type ResourceSample } from '../core/resources.js';

/** A reading every this often: a load phase of a second (the shortest) still holds several. */
export const SAMPLE_INTERVAL_MS = 200;
/** Readings kept: past this, every other one is dropped (a long soak keeps its shape). */
const MAX_SAMPLES = 20_000;
/** USER_HZ: the unit of utime and stime in /proc/<pid>/stat on Linux. */
const TICKS_PER_S = 100;

interface ProcStat {
  pid: number;
  ppid: number;
  pgrp: number;
  cpuTicks: number;
}

/** The fields of /proc/<pid>/stat that matter here (after the command name, which may hold spaces and parentheses). */
export function parseStat(text: string): ProcStat | null {
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  const pid = Number(text.slice(0, text.indexOf(' ')));
  const f = text.slice(close + 2).split(' ');
  // f[0] is field 3 (state): ppid 4, pgrp 5, utime 14, stime 15.
  const n = (i: number) => Number(f[i - 3]);
  if (!Number.isFinite(pid) || f.length < 13) return null;
  return { pid, ppid: n(4), pgrp: n(5), cpuTicks: n(14) + n(15) };
}

/** VmRSS of /proc/<pid>/status, in bytes (0 for a zombie or a kernel thread). */
export function parseRss(status: string): number {
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return m ? Number(m[1]) * 1024 : 0;
}

async function readAll(): Promise<ProcStat[]> {
  const names = (await readdir('/proc').catch(() => [] as string[])).filter((n) => /^\d+$/.test(n));
  const stats = await Promise.all(names.map((n) => readFile(`/proc/${n}/stat`, 'utf8').then(parseStat, () => null)));
  return stats.filter((s): s is ProcStat => s !== null);
}

/** The processes of a gateway: those of the group `pgid` (when given) and every descendant of `root`. */
export function membersOf(all: ProcStat[], root: number, pgid: number | null): ProcStat[] {
  const children = new Map<number, ProcStat[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const out = new Map<number, ProcStat>();
  const walk = (p: ProcStat) => {
    if (out.has(p.pid)) return;
    out.set(p.pid, p);
    for (const c of children.get(p.pid) ?? []) walk(c);
  };
  for (const p of all) if (p.pid === root || (pgid !== null && p.pgrp === pgid)) walk(p);
  return [...out.values()];
}

/** One reading of the processes rooted at `root` (and of group `pgid`): null when none is left. */
export async function readProcesses(root: number, pgid: number | null, clock: () => number): Promise<(ResourceSample & { processes: number }) | null> {
  const all = await readAll();
  // The moment of the CPU figures: when their files were read (a loaded machine may take long to list /proc).
  const at = clock();
  const members = membersOf(all, root, pgid);
  if (!members.length) return null;
  const rss = await Promise.all(members.map((p) => readFile(`/proc/${p.pid}/status`, 'utf8').then(parseRss, () => 0)));
  // Only zombies left (no VmRSS): the gateway is gone, there is nothing to read.
  if (rss.every((x) => x === 0)) return null;
  return { at, rssBytes: rss.reduce((t, x) => t + x, 0), cpuMs: (members.reduce((t, p) => t + p.cpuTicks, 0) * 1000) / TICKS_PER_S, processes: members.length };
}

/** A container image's size in bytes (docker image inspect), or undefined when docker cannot say. */
export async function imageBytes(image: string): Promise<number | undefined> {
  try {
    const { stdout } = await promisify(execFile)('docker', ['image', 'inspect', '--format', '{{.Size}}', image], { timeout: 10_000 });
    const n = Number(stdout.trim());
    return Number.isFinite(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

/** The host pid of a container's init (docker inspect), or null. */
export async function containerPid(id: string): Promise<number | null> {
  try {
    const { stdout } = await promisify(execFile)('docker', ['inspect', '--format', '{{.State.Pid}}', id], { timeout: 10_000 });
    const n = Number(stdout.trim());
    return n > 0 ? n : null;
  } catch {
    return null;
  }
}

/**
 * The sampler of one launched gateway, from the launch's start (`t0`, performance.now()). The
 * launcher tells it the processes (`watch`, again after a restart), the moment the port listens
 * (`ready`) and the first good answer (`answered`); checks mark their load (`loadBegins`).
 */
export class ResourceSampler implements ResourceProbe {
  private samples: ResourceSample[] = [];
  private windows: LoadWindow[] = [];
  private timer: NodeJS.Timeout | undefined;
  private target: { root: number; pgid: number | null } | undefined;
  private readyAt: number | null = null;
  private firstAnswerAt: number | null = null;
  private pending: Promise<unknown> = Promise.resolve();
  private processes = 0;
  imageBytes?: number;
  constructor(
    private readonly t0: number,
    private readonly label: string,
  ) {}

  get source(): string {
    return `${this.label}${this.processes ? ` (${this.processes} ${this.processes === 1 ? 'process' : 'processes'})` : ''}`;
  }

  private now(): number {
    return performance.now() - this.t0;
  }

  /** Starts (or moves) the readings to the processes rooted at `root` (and of group `pgid`). */
  watch(root: number, pgid: number | null): void {
    this.target = { root, pgid };
    this.timer ??= setInterval(() => void this.sample(), SAMPLE_INTERVAL_MS).unref();
  }

  /** The port listens: the first figure of the cold start. */
  markReady(): void {
    this.readyAt ??= this.now();
  }

  /** The port listens (markReady), and a reading at once (the idle memory). */
  async ready(): Promise<void> {
    this.markReady();
    await this.sample();
  }

  /** A good answer came (the readiness gate passed): the second figure of the cold start. */
  answered(): void {
    this.firstAnswerAt ??= this.now();
  }

  async sample(): Promise<ResourceSample | null> {
    if (!this.target) return null;
    const { root, pgid } = this.target;
    // One reading at a time: a slow /proc under load does not pile readings up.
    const next = this.pending.then(() => readProcesses(root, pgid, () => this.now()));
    this.pending = next.catch(() => null);
    const s = await next.catch(() => null);
    if (!s) return null;
    this.processes = s.processes;
    const kept: ResourceSample = { at: s.at, rssBytes: s.rssBytes, cpuMs: s.cpuMs };
    this.samples.push(kept);
    if (this.samples.length > MAX_SAMPLES) this.samples = this.samples.filter((_, i) => i % 2 === 0);
    return kept;
  }

  loadBegins(): (requests: number) => void {
    const from = this.now();
    return (requests) => {
      this.windows.push({ from, to: this.now(), requests });
      this.windows.sort((a, b) => a.from - b.from);
    };
  }

  /** Stops the readings (a last one first). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.sample();
    this.target = undefined;
  }

  figures(): GatewayResources {
    return summarizeResources({ source: this.source, intervalMs: SAMPLE_INTERVAL_MS, samples: this.samples, windows: this.windows, readyAt: this.readyAt, firstAnswerAt: this.firstAnswerAt, firstTrafficAt: this.firstAnswerAt, imageBytes: this.imageBytes });
  }
}
