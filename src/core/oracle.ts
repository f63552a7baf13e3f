// The timing oracle for stream delivery (SSE-INC-1, SSE-LAT-1, CHAT-SSE-1). The upstream stamps
// when it wrote each frame and the client stamps when each event's last byte arrived, on one
// clock (performance.now() in one process). From the two timelines it tells two things apart:
// buffering (SSE-INC-1, a MUST: the stream held to its end or until a buffer fills, events sent
// apart delivered together, or an event later than a coarse bound) and added latency
// (SSE-LAT-1, a SHOULD: the median lag per event, with its likely cause). A small constant
// delay is latency, not buffering: a bound placed on a kernel timer value (40 ms, 200 ms) would
// turn one into a MUST failure that flips from machine to machine.
import { plural } from './words.js';

export interface OracleBounds {
  /** Coarse bound of SSE-INC-1: no event may arrive later than this after it was sent. */
  maxLagMs: number;
  /** Events arriving within this window of each other arrived together (one burst). */
  burstWindowMs: number;
  /** Bound of SSE-LAT-1 on the median lag per event. */
  latP50Ms: number;
}

/** Defaults that hold on a busy 2-core machine: loopback lag is ~1 ms, scripted gaps are 100-300 ms. */
export const DEFAULT_BOUNDS: OracleBounds = { maxLagMs: 1000, burstWindowMs: 50, latP50Ms: 50 };

/**
 * The margin band: a measured value within this fraction of its bound is not decided on one
 * measurement; the check measures again with more events and decides on that (and says so).
 */
export const MARGIN = 0.25;

export type Delivery = 'incremental' | 'buffered-until-end' | 'buffered-in-blocks' | 'late' | 'incomplete';

/** Each delivery in words, for a result's `actual` (the evidence keeps the token, `delivery`). */
export const DELIVERY_WORDS: Record<Delivery, string> = {
  incremental: 'incremental: no burst, every event in time',
  'buffered-until-end': 'buffered until the end: every event arrived together',
  'buffered-in-blocks': 'buffered in blocks: events sent apart arrived together',
  late: 'late: the events arrived one by one, but past the lag bound',
  incomplete: 'incomplete: not every event arrived',
};

export interface TimelineRow {
  index: number;
  name: string;
  sentMs: number | null;
  arrivedMs: number | null;
  lagMs: number | null;
}

export interface OracleResult {
  delivery: Delivery;
  /** One line saying what happened, with the figures. */
  summary: string;
  timeToFirstEventMs: number | null;
  maxLagMs: number;
  /** Median lag (arrival minus send) over the events that arrived. */
  p50LagMs: number;
  lags: number[];
  /** Groups of two or more events that were sent apart but arrived together. */
  bursts: number;
  burstSizes: number[];
  /** The measured values of the buffering verdict that lie within MARGIN of their bound (empty: a clear verdict). */
  nearBound: string[];
  timeline: TimelineRow[];
}

const r1 = (n: number) => Math.round(n * 10) / 10;

/** The q-quantile (0..1) of `xs` (nearest rank). */
export function quantile(xs: number[], q: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}

/** Whether `value` lies within MARGIN of `bound` (on either side). */
export function nearBound(value: number, bound: number): boolean {
  return value >= bound * (1 - MARGIN) && value <= bound * (1 + MARGIN);
}

/**
 * The buffering verdict (SSE-INC-1, CHAT-SSE-1).
 * @param sentAt when the upstream wrote each frame (one event per frame)
 * @param arrivals when each event arrived at the client, in order
 * @param startedAt when the client sent its request
 * @param heldMs how long this process's event loop was held while the stream was read (src/core/stall.ts)
 */
export function judgeDelivery(sentAt: number[], arrivals: number[], startedAt: number, names: string[], bounds: OracleBounds = DEFAULT_BOUNDS, heldMs = 0): OracleResult {
  const n = Math.min(sentAt.length, arrivals.length);
  const lags = Array.from({ length: n }, (_, i) => r1(arrivals[i] - sentAt[i]));
  const maxLag = lags.length ? Math.max(...lags) : 0;
  const p50 = r1(quantile(lags, 0.5));
  const timeline: TimelineRow[] = Array.from({ length: Math.max(sentAt.length, arrivals.length) }, (_, i) => ({
    index: i,
    name: names[i] ?? '',
    sentMs: i < sentAt.length ? r1(sentAt[i] - startedAt) : null,
    arrivedMs: i < arrivals.length ? r1(arrivals[i] - startedAt) : null,
    lagMs: i < n ? lags[i] : null,
  }));
  // Group arrivals that came together; a group counts as a burst when its events were sent apart.
  const groups: number[][] = [];
  const near: string[] = [];
  for (let i = 0; i < n; i++) {
    const gap = i > 0 ? arrivals[i] - arrivals[i - 1] : Infinity;
    if (i > 0 && sentAt[i] - sentAt[i - 1] > bounds.burstWindowMs && nearBound(gap, bounds.burstWindowMs))
      near.push(`events ${i - 1} and ${i}, sent ${r1(sentAt[i] - sentAt[i - 1])} ms apart, arrived ${r1(gap)} ms apart (burst window ${bounds.burstWindowMs} ms)`);
    if (gap <= bounds.burstWindowMs) groups[groups.length - 1].push(i);
    else groups.push([i]);
  }
  if (n && nearBound(maxLag, bounds.maxLagMs)) near.push(`largest lag ${maxLag} ms (bound ${bounds.maxLagMs} ms)`);
  const bursts = groups.filter((g) => g.length >= 2 && sentAt[g[g.length - 1]] - sentAt[g[0]] > bounds.burstWindowMs);
  // A buffer holds events again and again; a lone small burst can be one pause of a loaded
  // machine (the harness or the gateway descheduled for a gap's length). Decided on a second,
  // longer stream: a buffer shows there again.
  const bursted = bursts.reduce((k, g) => k + g.length, 0);
  if (bursts.length && bursted < n * MARGIN) near.push(`only ${bursted} of ${n} events arrived in bursts (one pause of a loaded machine can do that)`);
  // This process (the client, and in a demo the upstream and the gateway too) held as long as a
  // burst took to send: the burst may be the hold's, not a buffer's. Decided on a second stream.
  const span = bursts.length ? Math.min(...bursts.map((g) => sentAt[g[g.length - 1]] - sentAt[g[0]])) : Infinity;
  if (heldMs > 0 && heldMs >= span - bounds.burstWindowMs) near.push(`this process was held ${r1(heldMs)} ms while the stream was read, about as long as a burst took to send (${r1(span)} ms): one pause of a loaded machine can merge events so`);
  const ttfe = arrivals.length ? r1(arrivals[0] - startedAt) : null;
  const base = { timeToFirstEventMs: ttfe, maxLagMs: maxLag, p50LagMs: p50, lags, bursts: bursts.length, burstSizes: bursts.map((g) => g.length), nearBound: near, timeline };
  if (arrivals.length < sentAt.length)
    return { ...base, nearBound: [], delivery: 'incomplete', summary: `only ${arrivals.length} of ${sentAt.length} events arrived` };
  if (bursts.length === 1 && bursts[0].length === n)
    return { ...base, delivery: 'buffered-until-end', summary: `buffered until the end: all ${n} events, sent over ${r1(sentAt[n - 1] - sentAt[0])} ms, arrived together ${r1(arrivals[n - 1] - sentAt[n - 1])} ms after the last was sent (first event lag ${lags[0]} ms)` };
  if (bursts.length >= 1)
    return { ...base, delivery: 'buffered-in-blocks', summary: `buffered in blocks: ${plural(bursts.length, 'burst')} of ${bursts.map((g) => g.length).join(', ')} events that were sent apart arrived together; largest lag ${maxLag} ms` };
  if (maxLag > bounds.maxLagMs)
    return { ...base, delivery: 'late', summary: `late: events arrived one by one, but lag ${Math.min(...lags)} to ${maxLag} ms, past the coarse bound of ${bounds.maxLagMs} ms` };
  return { ...base, delivery: 'incremental', summary: `incremental: no burst, every event within ${bounds.maxLagMs} ms of its sending (largest lag ${maxLag} ms, median ${p50} ms, first event after ${ttfe} ms)` };
}

export interface LatencyResult {
  ok: boolean;
  p10Ms: number;
  p50Ms: number;
  p90Ms: number;
  maxMs: number;
  events: number;
  /** The likely cause of the added latency, in words (null when there is none to speak of). */
  cause: string | null;
  /** Whether the median lies within MARGIN of its bound. */
  nearBound: boolean;
  /** Events that arrived before the upstream sent the event they are paired with: the pairing is wrong, and no latency is judged (0: every pair holds). */
  unpaired: number;
  summary: string;
}

/**
 * How far before its paired upstream event an event may seem to arrive and still be that event's:
 * the upstream notes its sending before the write, in the same process as the client's reading,
 * so a true pair's lag is never below 0; 1 ms covers the rounding of both times to 0.1 ms.
 */
const PAIR_SLACK_MS = 1;

/** Kernel timer values that show up as a constant per-event offset, with what they mean. */
const TIMERS: Array<{ lo: number; hi: number; text: string }> = [
  {
    lo: 34,
    hi: 50,
    text: "a constant offset of about 40 ms: TCP coalescing, Nagle's algorithm waiting for a delayed ACK (Linux's 40 ms minimum); the gateway should set TCP_NODELAY on its connection to the client",
  },
  {
    lo: 170,
    hi: 250,
    text: "a constant offset of about 200 ms: TCP coalescing, the 200 ms timer of MSG_MORE/TCP_CORK or of Nagle's algorithm waiting for a delayed ACK; the gateway should send stream events without MSG_MORE or corking, with TCP_NODELAY",
  },
];

/**
 * The latency verdict (SSE-LAT-1): the median lag per event against `bounds.latP50Ms`, with the
 * delay's size and likely cause. `bursts` comes from judgeDelivery on the same timeline.
 */
export function judgeLatency(lags: number[], bursts: number, bounds: OracleBounds = DEFAULT_BOUNDS): LatencyResult {
  const p10 = r1(quantile(lags, 0.1));
  const p50 = r1(quantile(lags, 0.5));
  const p90 = r1(quantile(lags, 0.9));
  const max = lags.length ? r1(Math.max(...lags)) : 0;
  const ok = p50 <= bounds.latP50Ms;
  let cause: string | null = null;
  if (bursts > 0) cause = `buffering: ${plural(bursts, 'burst')} of events sent apart arrived together (SSE-INC-1)`;
  else if (p50 > bounds.latP50Ms * (1 - MARGIN)) {
    const constant = p90 - p10 <= Math.max(10, 0.2 * p50);
    const timer = TIMERS.find((t) => p50 >= t.lo && p50 <= t.hi);
    if (constant && timer) cause = timer.text;
    else if (constant) cause = `a constant per-event delay of about ${Math.round(p50)} ms, not a kernel timer value: a pacing or processing delay in the gateway`;
    else cause = `a variable delay (p10 ${p10} ms, p90 ${p90} ms): queueing or load in the gateway`;
  }
  const figures = `median lag ${p50} ms per event (p10 ${p10}, p90 ${p90}, max ${max} ms, ${plural(lags.length, 'event')}; bound ${bounds.latP50Ms} ms)`;
  const unpaired = lags.filter((l) => l < -PAIR_SLACK_MS).length;
  if (unpaired)
    return { ok: false, p10Ms: p10, p50Ms: p50, p90Ms: p90, maxMs: max, events: lags.length, cause: null, nearBound: false, unpaired, summary: `could not judge: ${unpaired} of ${plural(lags.length, 'event')} arrived before the upstream sent the event paired with it (lag down to ${r1(Math.min(...lags))} ms): the client's events do not pair one for one with the upstream's, so no lag can be measured` };
  return {
    unpaired: 0,
    ok,
    p10Ms: p10,
    p50Ms: p50,
    p90Ms: p90,
    maxMs: max,
    events: lags.length,
    cause,
    nearBound: nearBound(p50, bounds.latP50Ms),
    summary: ok ? `little added latency: ${figures}` : `added latency: ${figures}; likely cause: ${cause}`,
  };
}

/**
 * Decides on a measurement with a margin: when `near(first)` names values within MARGIN of
 * their bounds, measures again with more events (`again`) and decides on that. Returns the
 * measurement to decide on and, when measured twice, a line saying so for the evidence.
 */
export async function withMargin<T>(first: T, near: (t: T) => string[], again: () => Promise<T>, describe: (t: T) => string): Promise<{ decide: T; remeasured: string | null }> {
  const close = near(first);
  if (!close.length) return { decide: first, remeasured: null };
  const second = await again();
  return {
    decide: second,
    remeasured: `first measurement within ${MARGIN * 100}% of its bound (${close.join('; ')}: ${describe(first)}); measured again with more events and decided on that: ${describe(second)}`,
  };
}

/** The two timelines side by side, for a failed check's evidence. */
export function timelineText(rows: TimelineRow[]): string {
  const f = (v: number | null) => (v === null ? '-' : v.toFixed(1)).padStart(9);
  return [`${'#'.padStart(3)}  ${'event'.padEnd(22)} ${'sent ms'.padStart(9)} ${'arrived'.padStart(9)} ${'lag'.padStart(9)}`, ...rows.map((r) => `${String(r.index).padStart(3)}  ${r.name.slice(0, 22).padEnd(22)} ${f(r.sentMs)} ${f(r.arrivedMs)} ${f(r.lagMs)}`)].join('\n');
}

/** What a timing check reports of the oracle's verdict: the figures and both timelines. */
export function oracleEvidence(result: OracleResult, bounds: OracleBounds): Record<string, unknown> {
  return {
    delivery: result.delivery,
    timeToFirstEventMs: result.timeToFirstEventMs,
    maxLagMs: result.maxLagMs,
    p50LagMs: result.p50LagMs,
    bursts: result.bursts,
    burstSizes: result.burstSizes,
    bounds,
    timeline: timelineText(result.timeline),
  };
}
