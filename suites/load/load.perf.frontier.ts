// LOAD-PERF-2 (--load-frontier): the gateway's throughput frontier. One sweep of rising rates per
// workload (plain messages, streamed messages, a large body, and a route the gateway translates
// where it translates one); at each rate the same requests go
// straight to the recording upstream and through the gateway, and the added p50 and p99 are
// their difference. The frontier is, for each bound, the highest rate swept before the added p99
// first reached it.
import { defineCheck, type Verdict } from '../../src/check/check.js';
import { percentiles } from '../../src/core/histogram.js';
import type { Protocol } from '../../src/protocols/index.js';
import { limitedSkip, loadSettings, sendMix, type Kind, type PlanOptions, type Route } from './common.js';

/** The bounds of the added p99 (ms) the frontier is given for. */
export const BOUNDS_MS = [1, 5, 10, 50];
/** Each rate is sent for about this long on each route. */
const STEP_MS = 1000;
/** The sweep's first rate and its most steps (each doubling the rate). */
const FIRST_RATE = 25;
const MAX_STEPS = 8;
/** A large body's prompt: 64 KiB. */
const LARGE_CHARS = 64 * 1024;

export interface Workload {
  name: string;
  kind: Kind;
  plan?: PlanOptions;
}

/**
 * The workloads swept: plain, streamed and large-bodied requests of one protocol the gateway does
 * not translate (messages where it can), and one plain workload per declared protocol the gateway
 * translates (its readiness canary reached the upstream in another protocol). Where every declared
 * protocol is translated, the three run on the translated route and say so in their names.
 */
export function workloadsFor(protocols: readonly Protocol[], translated: Partial<Record<Protocol, Protocol>> = {}): Workload[] {
  const open = protocols.filter((p) => !translated[p]);
  const base: Protocol = open.includes('messages') ? 'messages' : (open[0] ?? (protocols.includes('messages') || !protocols.length ? 'messages' : protocols[0]));
  const via = translated[base] ? `, translated to ${translated[base]}` : '';
  const named = base === 'messages' && !via;
  return [
    { name: named ? 'plain messages' : `plain ${base}${via}`, kind: { protocol: base, stream: false } },
    { name: named ? 'streamed messages' : `streamed ${base}${via}`, kind: { protocol: base, stream: true } },
    { name: named ? 'large body (64 KiB)' : `large body (64 KiB, ${base}${via})`, kind: { protocol: base, stream: false }, plan: { padChars: LARGE_CHARS } },
    ...protocols.filter((p) => p !== base && translated[p]).map((p): Workload => ({ name: `translated route (${p} → ${translated[p]})`, kind: { protocol: p, stream: false } })),
  ];
}

export interface SweepStep {
  rate: number;
  requests: number;
  direct: { p50: number; p99: number; achieved: number };
  through: { p50: number; p99: number; achieved: number; failures: number };
  added: { p50: number; p99: number };
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;

/** For each bound, the highest rate swept before the added p99 first reached it (null: it did at the first rate). */
export function frontierOf(steps: SweepStep[], bounds = BOUNDS_MS): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const b of bounds) {
    const first = steps.findIndex((s) => s.added.p99 >= b || s.through.failures > s.requests * 0.01);
    out[`${b}ms`] = first === 0 ? null : (steps[(first < 0 ? steps.length : first) - 1]?.rate ?? null);
  }
  return out;
}

/** Why the sweep stops after this step: the gateway failed or passed the largest bound, or the harness could not send the rate itself. */
export function stopAfter(step: SweepStep, largest = BOUNDS_MS[BOUNDS_MS.length - 1]): string | null {
  if (step.through.failures > step.requests * 0.01) return `${step.through.failures} of ${step.requests} failed at ${step.rate}/s`;
  if (step.added.p99 >= largest) return `the added p99 reached ${step.added.p99} ms at ${step.rate}/s`;
  if (step.direct.achieved < step.rate * 0.9) return `the harness reached only ${step.direct.achieved}/s of ${step.rate}/s straight to the upstream (its own ceiling)`;
  return null;
}

export default defineCheck({
  id: 'load.perf.frontier',
  title: "The gateway's throughput frontier: the highest rate at which its added p99 stays under 1, 5, 10 and 50 ms, per workload (--load-frontier)",
  requirements: ['LOAD-PERF-2'],
  level: 'INFO',
  profile: 'load',
  exclusive: true,
  timeLimitMs: (settings) => (workloadsFor(settings.load?.protocols ?? [], settings.load?.translated).length * MAX_STEPS * 2 * (STEP_MS / 1000 + 4) + 30) * 1000,
  requirement:
    "The gateway's throughput frontier is measured: one sweep of rising rates per workload (plain messages, streamed messages, a large body, and a plain request of each declared protocol the gateway translates into another, where it translates one) gives the highest rate at which the added p99 (through the gateway against straight to the recording upstream, at the same rate in the same run) stays under each of 1, 5, 10 and 50 ms, with the added p50 and p99 at every rate swept. A declared budget (--budget added-p99-ms=N) that no rate swept met is a finding.",
  fix: "Compare the frontier with the harness's own ceiling in the evidence (the rate it reached straight to the upstream): a frontier at that ceiling is the harness's, not the gateway's. Lower it by taking work off the request path, and keep connections to the upstream alive.",
  async run(ctx): Promise<Verdict> {
    const s = loadSettings(ctx);
    if (!s.frontier) return { ok: true, skip: true, message: 'the frontier sweep is off: --load-frontier turns it on (it sends rising rates for up to a minute)' };
    const limited = limitedSkip(ctx);
    if (limited) return limited;
    const at = async (route: Route, w: Workload, rate: number, n: number) => (await sendMix(ctx, { route, kinds: () => w.kind, rate, count: n, keepBytes: 0, plan: () => w.plan ?? {} })).result;
    const sweeps: Array<{ workload: string; steps: SweepStep[]; frontier: Record<string, number | null>; stoppedBy: string | null }> = [];
    for (const w of workloadsFor(s.protocols, s.translated)) {
      const steps: SweepStep[] = [];
      let stoppedBy: string | null = null;
      for (let i = 0, rate = FIRST_RATE; i < MAX_STEPS && !stoppedBy; i++, rate *= 2) {
        const n = Math.max(1, Math.min(s.requests, Math.ceil((rate * STEP_MS) / 1000)));
        const d = await at('direct', w, rate, n);
        const g = await at('gateway', w, rate, n);
        const [pd, pg] = [percentiles(d.latency), percentiles(g.latency)];
        const step: SweepStep = {
          rate,
          requests: n,
          direct: { p50: pd.p50, p99: pd.p99, achieved: Math.round(d.achievedRate) },
          through: { p50: pg.p50, p99: pg.p99, achieved: Math.round(g.achievedRate), failures: g.failures },
          added: { p50: r3(pg.p50 - pd.p50), p99: r3(pg.p99 - pd.p99) },
        };
        steps.push(step);
        stoppedBy = stopAfter(step) ?? (n >= s.requests ? `the request cap (--load-requests ${s.requests}) at ${rate}/s` : null);
      }
      sweeps.push({ workload: w.name, steps, frontier: frontierOf(steps), stoppedBy });
    }
    // A declared budget (--budget added-p99-ms=N): a workload with no rate under it is a finding.
    const budget = s.budgetAddedP99Ms;
    const over = budget === null ? [] : sweeps.filter((x) => frontierOf(x.steps, [budget])[`${budget}ms`] === null);
    const text = sweeps.map((x) => `${x.workload}: ${Object.entries(x.frontier).map(([b, r]) => `${b} ${r === null ? `none (over it at ${FIRST_RATE}/s)` : `${r}/s`}`).join(', ')}${x.stoppedBy ? ` (swept to ${x.steps.at(-1)!.rate}/s; stopped: ${x.stoppedBy})` : ''}`).join('; ');
    const evidence = { boundsMs: BOUNDS_MS, stepMs: STEP_MS, budgetMs: budget, sweeps };
    if (over.length) return { ok: false, message: `no rate swept kept the added p99 under the declared budget of ${budget} ms for ${over.map((x) => x.workload).join(', ')}: ${text}`, expected: `added p99 < ${budget} ms at ${FIRST_RATE}/s at least`, actual: over.map((x) => `${x.workload}: ${x.steps[0].added.p99} ms at ${x.steps[0].rate}/s`).join('; '), evidence };
    return { ok: true, message: `highest rate with the added p99 under each bound: ${text}`, evidence };
  },
});
