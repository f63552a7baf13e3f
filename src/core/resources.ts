// What a launched gateway costs in memory and CPU, from samples taken over the run: the types a
// sampler (src/launch/resources.ts) fills and the report carries, and the pure arithmetic that
// turns a timeline of samples and the load's windows into the figures (idle, steady, peak,
// growth per 10,000 requests, what remains after the load, cold start).

/** One reading of the gateway's processes (a process group summed, or a container's cgroup). */
export interface ResourceSample {
  /** Milliseconds since the launch began (performance.now() based). */
  at: number;
  rssBytes: number;
  /** CPU time used so far (user + system, every process of the group or the container). */
  cpuMs: number;
}

/** A stretch of load traffic to the gateway, with the requests it sent. */
export interface LoadWindow {
  from: number;
  to: number;
  requests: number;
}

/** What a check reads of the launched gateway: a fresh reading, and the load windows it declares. */
export interface ResourceProbe {
  /** A reading now (null when the gateway's processes cannot be read: gone, or no /proc). */
  sample(): Promise<ResourceSample | null>;
  /** Marks load traffic sent to the gateway: call the returned function with the requests sent when it ends. */
  loadBegins(): (requests: number) => void;
  /** Where the readings come from, for a message ("process group 1234 (3 processes)", "container abc123"). */
  readonly source: string;
}

export interface MemoryFigures {
  /** Bytes (RSS of the group summed, or the container's memory); idle: the median after the first good answer, before the first load window. */
  idle: number | null;
  steady: number | null;
  peak: number | null;
  /** After the last load window, the last reading before the stop. */
  afterLoad: number | null;
  /** The slope of memory over the requests sent, per 10,000 requests (bytes); null with fewer than two windows' edges. */
  growthPer10k: number | null;
}

export interface CpuFigures {
  /** Percent of one core: idle (after the first good answer, before the first load window), the mean under load, the highest between two readings. */
  idle: number | null;
  steady: number | null;
  peak: number | null;
}

/** The resource part of a launched gateway's report entry. */
export interface GatewayResources {
  source: string;
  samples: number;
  intervalMs: number;
  memory: MemoryFigures;
  cpu: CpuFigures;
  /** Launch to its port listening, and to the first good answer (the readiness gate's canaries forwarded). */
  coldStart: { readyMs: number | null; firstAnswerMs: number | null };
  /** The load the windows sent (requests), for the growth's denominator. */
  loadRequests: number;
  /** A container image's size (bytes), when the gateway is an image. */
  imageBytes?: number;
}

const median = (xs: number[]): number | null => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
};

const within = (s: ResourceSample, w: LoadWindow) => s.at >= w.from && s.at <= w.to;

/** CPU percent of one core between two readings. */
const cpuPct = (a: ResourceSample, b: ResourceSample) => (b.at > a.at ? ((b.cpuMs - a.cpuMs) / (b.at - a.at)) * 100 : 0);

const round1 = (x: number | null) => (x === null ? null : Math.round(x * 10) / 10);

/** The memory at a moment: the reading nearest to it. */
function nearest(samples: ResourceSample[], at: number): ResourceSample | undefined {
  let best: ResourceSample | undefined;
  for (const s of samples) if (!best || Math.abs(s.at - at) < Math.abs(best.at - at)) best = s;
  return best;
}

/**
 * Least-squares slope of memory over the requests sent so far, at the edges of the load windows
 * after the first (the first window's start holds the warm-up: allocations a gateway makes once),
 * per 10,000 requests. Null when fewer than two points remain.
 */
export function growthPer10k(samples: ResourceSample[], windows: LoadWindow[]): number | null {
  const pts: Array<[number, number]> = [];
  let sent = 0;
  windows.forEach((w, i) => {
    const a = nearest(samples, w.from);
    const b = nearest(samples, w.to);
    if (i > 0 && a) pts.push([sent, a.rssBytes]);
    sent += w.requests;
    if (b) pts.push([sent, b.rssBytes]);
  });
  if (pts.length < 2) return null;
  const mx = pts.reduce((t, p) => t + p[0], 0) / pts.length;
  const my = pts.reduce((t, p) => t + p[1], 0) / pts.length;
  const sxx = pts.reduce((t, p) => t + (p[0] - mx) ** 2, 0);
  if (sxx === 0) return null;
  const sxy = pts.reduce((t, p) => t + (p[0] - mx) * (p[1] - my), 0);
  return Math.round((sxy / sxx) * 10_000);
}

/** The figures of a run's readings: `readyAt` the launch's ready moment, `firstTrafficAt` the first request's (or null). */
export function summarizeResources(o: { source: string; intervalMs: number; samples: ResourceSample[]; windows: LoadWindow[]; readyAt: number | null; firstAnswerAt: number | null; firstTrafficAt: number | null; imageBytes?: number }): GatewayResources {
  const { samples, windows } = o;
  // Idle: up and answering (after the first good answer, or the port listening), before the
  // first load window; the start-up before it (a runtime loading its code) is not idle. Without
  // load windows, nothing after the first answer is known to be quiet: the reading nearest to it
  // (the launcher takes one as the port listens).
  const idleFrom = o.firstTrafficAt ?? o.readyAt ?? 0;
  const idleTo = windows[0]?.from ?? idleFrom;
  const quiet = samples.filter((s) => s.at >= idleFrom && s.at <= idleTo);
  const near = nearest(samples, idleFrom);
  const idle = quiet.length ? quiet : near ? [near] : [];
  const loaded = samples.filter((s) => windows.some((w) => within(s, w)));
  const lastEnd = windows.length ? Math.max(...windows.map((w) => w.to)) : null;
  const after = lastEnd === null ? [] : samples.filter((s) => s.at > lastEnd);
  // Readings closer than half the interval (a check's own reading beside the timer's) make a CPU
  // percent of a few clock ticks (10 ms each): left out of the peak and the idle figure.
  const pairs = samples
    .slice(1)
    .map((s, i) => ({ pct: cpuPct(samples[i], s), a: samples[i], b: s }))
    .filter((p) => p.b.at - p.a.at >= o.intervalMs / 2);
  const loadCpu = windows.map((w) => {
    const inside = samples.filter((s) => within(s, w));
    return inside.length >= 2 ? { cpu: inside[inside.length - 1].cpuMs - inside[0].cpuMs, wall: inside[inside.length - 1].at - inside[0].at } : { cpu: 0, wall: 0 };
  });
  const loadWall = loadCpu.reduce((t, x) => t + x.wall, 0);
  const idlePairs = pairs.filter((p) => p.a.at >= idleFrom && p.b.at <= idleTo);
  return {
    source: o.source,
    samples: samples.length,
    intervalMs: o.intervalMs,
    memory: {
      idle: median(idle.map((s) => s.rssBytes)),
      steady: median(loaded.map((s) => s.rssBytes)),
      peak: samples.length ? Math.max(...samples.map((s) => s.rssBytes)) : null,
      afterLoad: after.length ? after[after.length - 1].rssBytes : null,
      growthPer10k: growthPer10k(samples, windows),
    },
    cpu: {
      idle: round1(median(idlePairs.map((p) => p.pct))),
      steady: loadWall > 0 ? round1((loadCpu.reduce((t, x) => t + x.cpu, 0) / loadWall) * 100) : null,
      peak: pairs.length ? round1(Math.max(...pairs.map((p) => p.pct))) : null,
    },
    coldStart: { readyMs: o.readyAt === null ? null : Math.round(o.readyAt), firstAnswerMs: o.firstAnswerAt === null ? null : Math.round(o.firstAnswerAt) },
    loadRequests: windows.reduce((t, w) => t + w.requests, 0),
    ...(o.imageBytes !== undefined ? { imageBytes: o.imageBytes } : {}),
  };
}

/** Bytes as MB with one decimal (for messages and tables); '-' for none. */
export const mb = (b: number | null | undefined): string => (b === null || b === undefined ? '-' : `${(b / 1e6).toFixed(1)} MB`);
