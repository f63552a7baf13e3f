// Whether one load shard's calibration is far from the other shards': the lower quartile of its
// CPU tries, set against the others' middle value and their noise (how far the others' figures
// stray from their middle), with its straight p99 beside it (far alone, a note, not a flag). A shard is flagged past the others' middle plus three times
// their noise and past a ratio of the middle set against the spread measured between shards that
// calibrated at the same time on one machine (`npm run bench:calibration`, docs/performance.md);
// when that noise is itself a large part of the middle value, the figures cannot tell a busy
// machine from a noisy one, and the shard's calibration is "could not judge" instead.
import type { LoadCalibration } from '../shared/types.js';

/** A figure is flagged past the others' middle plus this many times their noise. */
export const NOISE_TIMES = 3;
/**
 * ...and past this many times their middle. A shard's CPU figure is the lower quartile of its
 * twelve tries (the pace it keeps in its better quarter: a busy core slows every try, another
 * program's turn only some). Over its three partners' median, for the 210 shards that were not
 * held back in 60 sets of four run at once on a shared 2-core machine at a load average of 8 to
 * 23 (`npm run bench:calibration`, docs/performance.md): 0.61 to 1.57; 2 is 1.27 times the most
 * of them. A shard held to a tenth of a core beside them came out at 2.10 to 12.0 times its
 * partners'. (The least try strayed from 0.39 to 1.78 times, the median to 1.62.)
 */
export const CPU_FLAG_RATIO = 2;
/**
 * A straight p99 (of some 20 to 100 requests: nearly the slowest of them) is far from the
 * others' past this many times theirs and this many ms above: over the same 210 shards it came
 * out at 0.20 to 2.96 times their partners' (one slow answer is the whole p99); 4.5 is 1.52 times
 * the most. It does not flag a shard by itself: on a quiet machine (load average 1.2 to 2.9,
 * 2026-12-04) one shard not held came out at 4.7 times its partners' while its CPU tries were
 * within theirs, and held shards' p99s came out as low as 0.79 times their partners' in the
 * recorded sets. Far alone, it is a note; beside a CPU figure past its bound, part of the flag.
 */
export const P99_FLAG_RATIO = 4.5;
export const P99_FLAG_MIN_MS = 2;
/** The rate reached is judged only while every shard's straight p99 is within this part of the calibration's duration. */
export const REACH_P99_SHARE = 0.1;
/** Noise above this part of the others' middle value: too noisy to tell. */
export const UNJUDGED_NOISE = 0.5;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const r1 = (x: number) => Math.round(x * 10) / 10;

/** How a figure stands against the others': their middle, their noise, the bound past which it is flagged. */
export interface Standing {
  value: number;
  middle: number;
  noise: number;
  bound: number;
  verdict: 'flagged' | 'within' | 'could not judge';
}

/**
 * One figure against the others': middle = their median; noise = the median distance of their
 * figures from it (one busy shard among the others moves neither); bound = the larger of
 * middle + NOISE_TIMES × noise and middle × ratio, and at least `minAbove` over the middle.
 */
export function stand(value: number, others: number[], ratio: number, minAbove = 0): Standing {
  const middle = median(others);
  const noise = median(others.map((o) => Math.abs(o - middle)));
  const bound = Math.max(middle + NOISE_TIMES * noise, middle * ratio, middle + minAbove);
  const verdict = noise > middle * UNJUDGED_NOISE ? 'could not judge' : value > bound ? 'flagged' : 'within';
  return { value: r1(value), middle: r1(middle), noise: r1(noise), bound: r1(bound), verdict };
}

const margin = (s: Standing, ratio: number) => `bound ${s.bound} ms: their ${s.middle} ms + ${NOISE_TIMES} × their noise ${s.noise} ms, and at least ${ratio} times theirs`;

/** The verdict on one shard's calibration against the others': why it is flagged, or why it could not be judged. */
export function judgeCalibration(c: LoadCalibration, others: LoadCalibration[]): { flagged?: string; unjudged?: string; noted?: string } {
  if (!others.length) return {};
  // The tries' lower quartile: the least of twelve is one lucky moment, which a busy machine has too; older reports recorded only the least (cpuMs).
  const typical = (x: LoadCalibration) => x.cpu?.lowerQuartileMs ?? x.cpuMs;
  const what = c.cpu ? 'the lower quartile of its CPU tries' : 'its least CPU try';
  const cpu = stand(typical(c), others.map(typical), CPU_FLAG_RATIO);
  const p99 = stand(c.latencyMs.p99, others.map((o) => o.latencyMs.p99), P99_FLAG_RATIO, P99_FLAG_MIN_MS);
  const why: string[] = [];
  const noisy: string[] = [];
  if (cpu.verdict === 'flagged') why.push(`${what} took ${cpu.value} ms against the others' ${cpu.middle} ms (${margin(cpu, CPU_FLAG_RATIO)})`);
  if (cpu.verdict === 'could not judge') noisy.push(`the other shards' CPU tries (${c.cpu ? 'lower quartile' : 'least'}) stray by ${cpu.noise} ms around ${cpu.middle} ms (over ${UNJUDGED_NOISE} of it), so its ${cpu.value} ms cannot tell a busy machine from noise`);
  const tail = `its p99 straight to the upstream was ${p99.value} ms against the others' ${p99.middle} ms (${margin(p99, P99_FLAG_RATIO)}, and ${P99_FLAG_MIN_MS} ms above)`;
  const notes: string[] = [];
  if (p99.verdict === 'flagged') (cpu.verdict === 'flagged' ? why : notes).push(tail);
  // The rate reached over a calibration of a second says little once its slowest answers take a
  // sizeable part of that second: the last answers' wait then lowers it, not the machine's pace.
  const reached = (x: LoadCalibration) => x.achieved >= x.rate * 0.9;
  const windowMs = (x: LoadCalibration) => (x.requests / x.rate) * 1000;
  const slow = [c, ...others].filter((x) => x.latencyMs.p99 > windowMs(x) * REACH_P99_SHARE);
  if (!reached(c) && others.every(reached)) {
    if (slow.length) noisy.push(`it reached ${c.achieved}/s of ${c.rate}/s, but the straight p99 of ${slow.length} shard(s) took over ${REACH_P99_SHARE * 100} % of the calibration's ${windowMs(c)} ms, so the rate reached says more of the answers' wait than of the machine`);
    else why.push(`it reached ${c.achieved}/s of ${c.rate}/s straight to the upstream; the others reached theirs`);
  }
  return {
    ...(why.length ? { flagged: `calibration far from the other shards': ${why.join('; ')} (a slow or busy machine: its figures say more of it than of the gateway)` } : {}),
    ...(noisy.length ? { unjudged: `could not judge: ${noisy.join('; ')}` } : {}),
    ...(notes.length && !why.length ? { noted: `not flagged: ${notes.join('; ')}; one slow answer makes the p99 of so few requests, and its CPU tries were within the others'` } : {}),
  };
}
