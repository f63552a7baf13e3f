// The timing oracle for stream delivery (SSE-INC-1, CHAT-SSE-1). The upstream stamps when it
// wrote each frame and the client stamps when each event's last byte arrived, on one clock
// (performance.now() in one process). From the two timelines it tells incremental delivery
// from buffering until the end, buffering in blocks, and a steady delay.

export interface OracleBounds {
  /** Largest lag (arrival minus send) an event may have and still count as incremental. */
  maxLagMs: number;
  /** Events arriving within this window of each other arrived together (one burst). */
  burstWindowMs: number;
}

/** Defaults that hold on a busy 2-core machine: loopback lag is ~1 ms, scripted gaps are 300 ms. */
export const DEFAULT_BOUNDS: OracleBounds = { maxLagMs: 200, burstWindowMs: 50 };

export type Delivery = 'incremental' | 'buffered-until-end' | 'buffered-in-blocks' | 'delayed' | 'incomplete';

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
  lags: number[];
  /** Groups of two or more events that were sent apart but arrived together. */
  bursts: number;
  burstSizes: number[];
  timeline: TimelineRow[];
}

const r1 = (n: number) => Math.round(n * 10) / 10;

/**
 * @param sentAt when the upstream wrote each frame (one event per frame)
 * @param arrivals when each event arrived at the client, in order
 * @param startedAt when the client sent its request
 */
export function judgeDelivery(sentAt: number[], arrivals: number[], startedAt: number, names: string[], bounds: OracleBounds = DEFAULT_BOUNDS): OracleResult {
  const n = Math.min(sentAt.length, arrivals.length);
  const lags = Array.from({ length: n }, (_, i) => r1(arrivals[i] - sentAt[i]));
  const maxLag = lags.length ? Math.max(...lags) : 0;
  const timeline: TimelineRow[] = Array.from({ length: Math.max(sentAt.length, arrivals.length) }, (_, i) => ({
    index: i,
    name: names[i] ?? '',
    sentMs: i < sentAt.length ? r1(sentAt[i] - startedAt) : null,
    arrivedMs: i < arrivals.length ? r1(arrivals[i] - startedAt) : null,
    lagMs: i < n ? lags[i] : null,
  }));
  // Group arrivals that came together; a group counts as a burst when its events were sent apart.
  const groups: number[][] = [];
  for (let i = 0; i < n; i++) {
    if (i > 0 && arrivals[i] - arrivals[i - 1] <= bounds.burstWindowMs) groups[groups.length - 1].push(i);
    else groups.push([i]);
  }
  const bursts = groups.filter((g) => g.length >= 2 && sentAt[g[g.length - 1]] - sentAt[g[0]] > bounds.burstWindowMs);
  const ttfe = arrivals.length ? r1(arrivals[0] - startedAt) : null;
  const base = { timeToFirstEventMs: ttfe, maxLagMs: maxLag, lags, bursts: bursts.length, burstSizes: bursts.map((g) => g.length), timeline };
  if (arrivals.length < sentAt.length)
    return { ...base, delivery: 'incomplete', summary: `only ${arrivals.length} of ${sentAt.length} events arrived` };
  if (maxLag <= bounds.maxLagMs)
    return { ...base, delivery: 'incremental', summary: `incremental: every event within ${bounds.maxLagMs} ms of its sending (largest lag ${maxLag} ms, first event after ${ttfe} ms)` };
  if (bursts.length === 1 && bursts[0].length === n)
    return { ...base, delivery: 'buffered-until-end', summary: `buffered until the end: all ${n} events, sent over ${r1(sentAt[n - 1] - sentAt[0])} ms, arrived together ${r1(arrivals[n - 1] - sentAt[n - 1])} ms after the last was sent (first event lag ${lags[0]} ms)` };
  if (bursts.length >= 1)
    return { ...base, delivery: 'buffered-in-blocks', summary: `buffered in blocks: ${bursts.length} burst(s) of ${bursts.map((g) => g.length).join(', ')} events that were sent apart; largest lag ${maxLag} ms (bound ${bounds.maxLagMs} ms)` };
  return { ...base, delivery: 'delayed', summary: `delayed: events arrived one by one but late, lag ${Math.min(...lags)} to ${maxLag} ms (bound ${bounds.maxLagMs} ms)` };
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
    bursts: result.bursts,
    burstSizes: result.burstSizes,
    bounds,
    timeline: timelineText(result.timeline),
  };
}
