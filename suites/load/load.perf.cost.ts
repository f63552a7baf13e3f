import { defineCheck } from '../../src/check/check.js';
import type { LoadResult } from '../../src/load/engine.js';
import { addedLatency, belowZeroNote, encodeHistogram, percentiles } from '../../src/core/histogram.js';
import { loadSettings, sendMix, type Kind, type Route, unlessLimited } from './common.js';

/** The step-up: each step doubles the rate, for at most this long, at most this many steps. */
const STEP_MS = 1000;
const STEPS = 4;

const json: Kind = { protocol: 'messages', stream: false };
const stream: Kind = { protocol: 'messages', stream: true };
const r3 = (x: number) => Math.round(x * 1000) / 1000;

export default defineCheck({
  id: 'load.perf.cost',
  title: "The gateway's cost: added latency (p50, p95, p99, p99.9) and added time to first byte against the same requests straight to the upstream, and the rate where it starts to fail",
  requirements: ['LOAD-PERF-1'],
  level: 'INFO',
  profile: 'load',
  // Alone: it measures time, and another check's load would be in its figures.
  exclusive: true,
  timeLimitMs: (s) => ((s.load?.durationS ?? 2) * 4 + STEPS * 4 + 20) * 1000,
  requirement:
    "The gateway's cost is measured, not claimed: added latency (p50, p95, p99, p99.9) for JSON answers and added time to first byte for streams, each the difference between the same requests through the gateway and straight to the recording upstream in the same run at declared rates, and the rate at which the gateway starts to fail or its p99 doubles. A declared budget (--budget added-p99-ms=N) turns the added p99 into a finding.",
  fix: 'Take work off the request path (logging, authentication lookups, body rewriting), keep connections to the upstream alive and unbounded, and compare with the harness ceiling in the evidence: a figure near it is the harness\'s limit, not the gateway\'s. The evidence has the percentiles straight and through, the step-up and the histograms.',
  run: unlessLimited(async (ctx) => {
    const s = loadSettings(ctx);
    const count = Math.max(1, Math.min(s.requests, s.rate * s.durationS));
    const at = async (route: Route, kind: Kind, rate: number, n: number) => (await sendMix(ctx, { route, kinds: () => kind, rate, count: n, keepBytes: 0 })).result;
    const direct = await at('direct', json, s.rate, count);
    const through = await at('gateway', json, s.rate, count);
    const directTtfb = await at('direct', stream, s.rate, Math.ceil(count / 4));
    const throughTtfb = await at('gateway', stream, s.rate, Math.ceil(count / 4));
    const added = addedLatency(percentiles(through.latency), percentiles(direct.latency));
    const addedTtfb = addedLatency(percentiles(throughTtfb.ttfb), percentiles(directTtfb.ttfb));
    const steps = await stepUp(s.rate, s.requests, percentiles(through.latency).p99, at);
    const ceiling = steps.at(-1)!;
    const budget = s.budgetAddedP99Ms;
    const failing = steps.find((x) => x.limit);
    const bounded = failing && failing.direct.achieved < failing.rate * 0.9;
    const evidence = {
      rate: s.rate,
      requests: count,
      addedMs: added,
      addedTtfbMs: addedTtfb,
      direct: percentiles(direct.latency),
      through: percentiles(through.latency),
      failureRate: r3(through.failures / Math.max(1, through.sent)),
      // What ended in each second of the JSON phase at the declared rate (answers, failures).
      throughput: { direct: direct.perSecond.completed, through: through.perSecond.completed },
      failuresPerSecond: { direct: direct.perSecond.failed, through: through.perSecond.failed },
      stepUp: steps.map(({ limit, ...x }) => ({ ...x, ...(limit ? { limit } : {}) })),
      harnessCeiling: { rate: ceiling.rate, achieved: ceiling.direct.achieved, p99: ceiling.direct.p99 },
      histograms: { direct: encodeHistogram(direct.latency), through: encodeHistogram(through.latency), directTtfb: encodeHistogram(directTtfb.ttfb), throughTtfb: encodeHistogram(throughTtfb.ttfb) },
    };
    const noise = belowZeroNote({ 'added p50': added.p50, 'added p99': added.p99, 'added time to first byte (p50)': addedTtfb.p50 });
    if (noise) Object.assign(evidence, { noise });
    const noiseText = noise ? ` (${noise})` : '';
    const figures = `added p50 ${added.p50} ms, p99 ${added.p99} ms, time to first byte ${signed(addedTtfb.p50)} ms (p50) at ${s.rate}/s${noiseText}; ${failing ? `${failing.limit} at ${failing.rate}/s${bounded ? ' (bounded by the harness: straight to the upstream it reached only ' + failing.direct.achieved + '/s)' : ''}` : `no failure up to ${ceiling.rate}/s`}; the harness straight to the upstream at ${ceiling.rate}/s: ${ceiling.direct.achieved}/s, p99 ${ceiling.direct.p99} ms`;
    if (budget !== null && added.p99 > budget) return { ok: false, message: `over the declared budget: ${figures}`, expected: `added p99 <= ${budget} ms`, actual: `${added.p99} ms`, evidence };
    if (through.failures) return { ok: false, message: `${through.failures} of ${through.sent} requests failed at the declared rate: ${figures}`, evidence };
    return { ok: true, message: figures, evidence };
  }),
});

const signed = (x: number) => (x < 0 ? `${x}` : `+${x}`);

interface Step {
  rate: number;
  /** `firstP99`: the p99 of a first measurement that doubled (the step was measured again). */
  gateway: { achieved: number; p99: number; failures: number; firstP99?: number };
  direct: { achieved: number; p99: number };
  limit?: string;
}

/** Doubles the rate step by step (bounded by the request cap) until the gateway fails or its p99 doubles (twice in a row at one rate). */
export async function stepUp(base: number, cap: number, baseP99: number, at: (r: Route, k: Kind, rate: number, n: number) => Promise<LoadResult>): Promise<Step[]> {
  const steps: Step[] = [];
  const doubled = (p99: number) => p99 > Math.max(2 * baseP99, baseP99 + 5);
  for (let i = 1, rate = base * 2; i <= STEPS; i++, rate *= 2) {
    const n = Math.min(cap, Math.ceil((rate * STEP_MS) / 1000));
    const d = await at('direct', json, rate, n);
    let g = await at('gateway', json, rate, n);
    let p99 = percentiles(g.latency).p99;
    // A step's p99 is its few slowest requests: one pause of a busy machine can double it. Such a
    // step is measured again, and the rate is the gateway's limit only when the p99 doubles twice.
    let first: number | undefined;
    if (g.failures <= n * 0.01 && doubled(p99)) {
      first = p99;
      g = await at('gateway', json, rate, n);
      p99 = percentiles(g.latency).p99;
    }
    const step: Step = { rate, gateway: { achieved: Math.round(g.achievedRate), p99, failures: g.failures, ...(first !== undefined ? { firstP99: first } : {}) }, direct: { achieved: Math.round(d.achievedRate), p99: percentiles(d.latency).p99 } };
    if (g.failures > n * 0.01) step.limit = `${g.failures} of ${n} failed`;
    else if (doubled(p99)) step.limit = `p99 ${p99} ms, more than double ${baseP99} ms (${first} ms the first time)`;
    steps.push(step);
    if (step.limit || n >= cap) break;
  }
  return steps;
}
