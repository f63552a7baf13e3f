// The load generator: open-loop, at a constant arrival rate. Each request has its moment on a
// timetable fixed before the run (start + i / rate), and its latency is counted from that
// moment, not from when a free connection let it go: a slow answer cannot hide the requests
// queued behind it (no coordinated omission). Each simulated client is an undici Pool of its
// own; latencies go into HDR histograms (src/core/histogram.ts), and what ended in each second
// of the run (answers, failures) into per-second counts, bounded like the histograms. Bounded by
// a request count and a duration; whatever is still open at the end is cut by the abort signal,
// and reported.
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { newHistogram, PER_SECOND_MAX, recordMs, type LatencyHistogram } from '../core/histogram.js';

export interface LoadRequest {
  path: string;
  method: string;
  /** Flat header list: name, value, name, value... */
  headers: string[];
  body?: string;
}

export interface LoadOutcome {
  index: number;
  client: number;
  status: number;
  /** From the scheduled moment to the response headers, and to the last body byte (ms). */
  ttfbMs: number;
  totalMs: number;
  /** performance.now() when the request was handed to its client's pool: the moment it was offered, to pair with the upstream's arrival. */
  sentAt: number;
  /** The body as text, up to `keepBytes` (empty when bodies are not kept). */
  body: string;
  /** Response headers, lower-case names (only when bodies are kept). */
  headers: Record<string, string | string[] | undefined>;
  /** performance.now() of each body chunk's arrival, with its text end offset (kept bodies only). */
  chunks: Array<{ at: number; end: number }>;
  error?: string;
}

export interface LoadPlan {
  /** Base URL (origin and base path) the requests go to. */
  origin: string;
  /** Requests per second, the whole run (all clients together). */
  rate: number;
  /** The run's requests: at most this many... */
  requests: number;
  /** ...and none scheduled later than this after the start. */
  durationMs: number;
  clients: number;
  /** Connections each client's pool may open. */
  connectionsPerClient?: number;
  make(index: number, client: number): LoadRequest;
  /** Keep this much of each body (0: bodies are drained unread; for the harness's own ceiling). */
  keepBytes?: number;
  signal?: AbortSignal;
  /** Requests still open this long after the start are cut (and reported with an error). */
  deadlineMs?: number;
  /** Given the wall clock (Date.now()) of the first request sent, when it is still null (the run's first load request). */
  firstSend?: { at: number | null };
}

export interface LoadResult {
  outcomes: LoadOutcome[];
  latency: LatencyHistogram;
  ttfb: LatencyHistogram;
  sent: number;
  elapsedMs: number;
  /** Answers per second over the whole run (to the last answer). */
  achievedRate: number;
  /** Requests that ended in a transport error, or a status of 500 or more. */
  failures: number;
  /**
   * What ended in each second since the start, both arrays of one length (to the second of the
   * last end): `completed` the answers that were not failures, `failed` the failures, so the two
   * sum to `sent`. At most PER_SECOND_MAX seconds; a request ending later counts in the last.
   */
  perSecond: { completed: number[]; failed: number[] };
  /** The most requests in flight at once at the client (sent, their answer not yet ended). */
  peakInFlight: number;
}

/** Where each request's end is recorded. */
interface Tally {
  t0: number;
  inFlight: number;
  peakInFlight: number;
  outcomes: LoadOutcome[];
  latency: LatencyHistogram;
  ttfb: LatencyHistogram;
  completed: number[];
  failed: number[];
}

/** Why the run was cut, as the error its open requests end with. */
const reasonOf = (signal: AbortSignal): Error => (signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));

const isFailure = (o: LoadOutcome) => Boolean(o.error) || o.status >= 500;

/** The second (since the start t0) a moment falls in, within the PER_SECOND_MAX the counts hold. */
export const secondOf = (at: number, t0: number) => Math.min(PER_SECOND_MAX - 1, Math.max(0, Math.floor((at - t0) / 1000)));

/** Counts one end in its second, growing both arrays to that second. */
function countEnd(t: Tally, at: number, failure: boolean): void {
  const s = secondOf(at, t.t0);
  while (t.completed.length <= s) {
    t.completed.push(0);
    t.failed.push(0);
  }
  (failure ? t.failed : t.completed)[s]++;
}

export async function runLoad(plan: LoadPlan): Promise<LoadResult> {
  const base = new URL(plan.origin);
  const prefix = base.pathname.replace(/\/+$/, '');
  const pools = Array.from({ length: plan.clients }, () => new Pool(base.origin, { connections: plan.connectionsPerClient ?? 8, pipelining: 1, keepAliveTimeout: 10_000 }));
  const total = Math.max(0, Math.min(plan.requests, Math.floor((plan.rate * plan.durationMs) / 1000) || 1));
  const gapMs = 1000 / plan.rate;
  const open: Array<Promise<void>> = [];
  // The run's end (the caller's signal or the deadline) destroys the pools, which ends every
  // open and queued request with the reason. No signal per request: an AbortSignal's listeners
  // are a list that each new listener walks, so thousands of requests in flight, each listening,
  // cost time quadratic in their number (the generator spent most of its time there).
  const stop = new AbortController();
  stop.signal.addEventListener('abort', () => {
    const reason = reasonOf(stop.signal);
    for (const p of pools) void p.destroy(reason);
  });
  const onAbort = () => stop.abort(plan.signal?.reason);
  if (plan.signal?.aborted) onAbort();
  else plan.signal?.addEventListener('abort', onAbort, { once: true });
  const run = { ...plan, signal: stop.signal };
  const deadline = plan.deadlineMs ? setTimeout(() => stop.abort(new Error(`still open ${plan.deadlineMs} ms after the load started`)), plan.deadlineMs) : undefined;
  const t0 = performance.now();
  if (plan.firstSend && plan.firstSend.at === null && total > 0) plan.firstSend.at = Date.now();
  const tally: Tally = { t0, inFlight: 0, peakInFlight: 0, outcomes: [], latency: newHistogram(), ttfb: newHistogram(), completed: [], failed: [] };
  const { outcomes, latency, ttfb } = tally;
  try {
    await new Promise<void>((resolve) => {
      let i = 0;
      const tick = () => {
        const due = Math.min(total, Math.floor((performance.now() - t0) / gapMs) + 1);
        for (; i < due; i++) open.push(one(pools, prefix, run, i, t0 + i * gapMs, tally));
        if (i >= total || stop.signal.aborted) return resolve();
        // Pacing to the timetable, not synchronisation: the next request's moment.
        setTimeout(tick, Math.max(0, t0 + i * gapMs - performance.now()));
      };
      tick();
    });
    await Promise.all(open);
  } finally {
    clearTimeout(deadline);
    plan.signal?.removeEventListener('abort', onAbort);
    await Promise.all(pools.map((p) => p.destroy()));
  }
  const elapsedMs = performance.now() - t0;
  outcomes.sort((a, b) => a.index - b.index);
  const failures = outcomes.filter(isFailure).length;
  const perSecond = { completed: tally.completed, failed: tally.failed };
  return { outcomes, latency, ttfb, sent: outcomes.length, elapsedMs, achievedRate: (outcomes.length * 1000) / Math.max(1, elapsedMs), failures, perSecond, peakInFlight: tally.peakInFlight };
}

async function one(pools: Pool[], prefix: string, plan: LoadPlan, index: number, scheduled: number, tally: Tally): Promise<void> {
  const client = index % pools.length;
  const req = plan.make(index, client);
  const keep = plan.keepBytes ?? 0;
  const o: LoadOutcome = { index, client, status: 0, ttfbMs: 0, totalMs: 0, sentAt: 0, body: '', headers: {}, chunks: [] };
  tally.peakInFlight = Math.max(tally.peakInFlight, ++tally.inFlight);
  try {
    // The pools end with the run (destroyed with its reason when it is cut): no signal here.
    if (plan.signal?.aborted) throw reasonOf(plan.signal);
    o.sentAt = performance.now();
    const res = await pools[client].request({ path: `${prefix}${req.path}`, method: req.method as 'POST', headers: req.headers, body: req.body });
    o.status = res.statusCode;
    o.ttfbMs = performance.now() - scheduled;
    if (keep > 0) {
      o.headers = res.headers;
      for await (const c of res.body as AsyncIterable<Buffer>) {
        if (o.body.length < keep) o.body += c.toString('utf8');
        o.chunks.push({ at: performance.now(), end: o.body.length });
      }
    } else await res.body.dump({ limit: Number.MAX_SAFE_INTEGER });
  } catch (e) {
    o.error = (e as Error).message;
  }
  tally.inFlight--;
  const end = performance.now();
  o.totalMs = end - scheduled;
  if (!o.error) {
    recordMs(tally.latency, o.totalMs);
    recordMs(tally.ttfb, o.ttfbMs);
  }
  countEnd(tally, end, isFailure(o));
  tally.outcomes.push(o);
}
