// Stability of the stream timing oracle: many consecutive runs of the timing checks against the
// clean reference gateway and against faults, optionally with both cores loaded by stress-ng,
// counting the verdicts that differed from run to run and from the detection matrix (goal: 0).
// Each case (the clean gateway or one fault) runs its runs one after another in a process of
// its own; the cases run side by side (--jobs), which loads the machine further.
//   npm run build && node dist/bench/oracle.js [--runs 100] [--stress] [--jobs 6] [--cases clean,delay-per-event-60,...]
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { RecordingUpstream } from '../mocks/upstream/server.js';
import { ReferenceGateway } from '../reference/gateway.js';
import { faultByName } from '../reference/faults/index.js';
import { runSuite } from '../src/runner/run.js';
import { resolveConfig } from '../src/config/config.js';
import { CHECKS } from '../suites/index.js';

const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const runs = Number(opt('--runs', '100'));
const stress = args.includes('--stress');
const jobs = Number(opt('--jobs', '6'));
const TIMING_CHECKS = ['streaming.delivery.incremental', 'streaming.delivery.latency', 'chat.stream.incremental'];
// The clean gateway and five faults: the delays around the latency bound (30 passes, 60 fails
// after a re-measurement), at a kernel timer (210), past the coarse bound (1500), and a buffer.
const DEFAULT_CASES = ['clean', 'delay-per-event-30', 'delay-per-event-60', 'delay-per-event-210', 'delay-per-event-1500', 'buffer-4k'];
const cases = opt('--cases', DEFAULT_CASES.join(',')).split(',');
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What the detection matrix expects of the timing checks for a case ('pass' where it names nothing). */
function expected(name: string): Record<string, string> {
  const matrix = JSON.parse(readFileSync(`${ROOT}/test/detection/streaming.json`, 'utf8')) as { faults: Record<string, Record<string, string>> };
  const listed = name === 'clean' ? {} : matrix.faults[name];
  if (!listed) throw new Error(`no fault ${name} in test/detection/streaming.json`);
  return Object.fromEntries(TIMING_CHECKS.map((id) => [id, listed[id] ?? 'pass']));
}

interface CaseResult {
  name: string;
  runs: number;
  seconds: number;
  /** check id -> outcome -> count */
  outcomes: Record<string, Record<string, number>>;
  /** check id -> runs whose verdict differed from the most common one */
  differing: Record<string, number>;
  /** check id -> runs whose verdict differed from the detection matrix */
  unexpected: Record<string, number>;
  /** check id -> runs that measured twice (a first value within 25% of its bound) */
  remeasured: Record<string, number>;
  /** Median lag of streaming.delivery.latency per run: min, median, max. */
  p50: { min: number; median: number; max: number } | null;
  /** Largest lag of streaming.delivery.incremental per run: min, median, max. */
  maxLag: { min: number; median: number; max: number } | null;
}

async function once(fault: string | undefined, seed: number) {
  const upstream = new RecordingUpstream();
  await upstream.start('127.0.0.1', 0);
  const gw = new ReferenceGateway({ upstream: upstream.url, fault: fault ? faultByName(fault) : undefined });
  try {
    const target = await gw.start('127.0.0.1', 0);
    return await runSuite(CHECKS, resolveConfig({ seed: String(seed), reporter: ['json'], only: TIMING_CHECKS }, {}, {}), target, upstream, () => {});
  } finally {
    await gw.stop();
    await upstream.stop();
  }
}

const spread = (xs: number[]) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0], median: s[Math.floor(s.length / 2)], max: s[s.length - 1] };
};

async function runCase(name: string): Promise<CaseResult> {
  const want = expected(name);
  const outcomes: Record<string, Record<string, number>> = {};
  const unexpected: Record<string, number> = {};
  const remeasured: Record<string, number> = {};
  const p50s: number[] = [];
  const maxLags: number[] = [];
  const t0 = Date.now();
  for (let i = 0; i < runs; i++) {
    const r = await once(name === 'clean' ? undefined : name, 1000 + i);
    for (const id of TIMING_CHECKS) {
      const x = r.results.find((y) => y.id === id);
      const outcome = x?.outcome ?? 'missing';
      (outcomes[id] ??= {})[outcome] = (outcomes[id][outcome] ?? 0) + 1;
      if (outcome !== want[id]) unexpected[id] = (unexpected[id] ?? 0) + 1;
      const ev = (x?.evidence ?? {}) as { remeasured?: string; latency?: { p50Ms?: number }; maxLagMs?: number };
      if (ev.remeasured) remeasured[id] = (remeasured[id] ?? 0) + 1;
      if (id === 'streaming.delivery.latency' && typeof ev.latency?.p50Ms === 'number') p50s.push(ev.latency.p50Ms);
      if (id === 'streaming.delivery.incremental' && typeof ev.maxLagMs === 'number') maxLags.push(ev.maxLagMs);
      if (outcome !== want[id]) console.error(`  ${name} run ${i + 1}: ${id} ${outcome} (matrix: ${want[id]}): ${x?.message ?? ''}`);
    }
  }
  const differing = Object.fromEntries(
    TIMING_CHECKS.map((id) => {
      const counts = Object.values(outcomes[id] ?? {});
      return [id, runs - Math.max(0, ...counts)];
    }),
  );
  return { name, runs, seconds: Math.round((Date.now() - t0) / 1000), outcomes, differing, unexpected, remeasured, p50: spread(p50s), maxLag: spread(maxLags) };
}

function childCase(name: string): Promise<CaseResult> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [fileURLToPath(import.meta.url), '--case', name, '--runs', String(runs)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as CaseResult) : reject(new Error(`case ${name} exited ${code}`))));
  });
}

async function main() {
  const one = args.indexOf('--case');
  if (one >= 0) {
    process.stdout.write(JSON.stringify(await runCase(args[one + 1])));
    return;
  }
  const stressor = stress
    ? (() => {
        if (spawnSync('stress-ng', ['--version']).status !== 0) throw new Error('--stress needs stress-ng (apt-get install stress-ng)');
        return spawn('stress-ng', ['--cpu', '2', '--timeout', '0'], { stdio: 'ignore' });
      })()
    : null;
  const loads: number[] = [];
  const sample = setInterval(() => loads.push(loadavg()[0]), 10_000);
  const la = () => loadavg().map((x) => x.toFixed(2)).join(' ');
  try {
    console.log(`oracle stability: ${runs} consecutive runs of ${TIMING_CHECKS.join(', ')} per case, ${jobs} case(s) side by side${stress ? ', both cores loaded by stress-ng --cpu 2 throughout' : ''}`);
    console.log(`load average at the start: ${la()} (${spawnSync('nproc').stdout?.toString().trim()} cores)`);
    const t0 = Date.now();
    const results: CaseResult[] = [];
    const queue = [...cases];
    await Promise.all(
      Array.from({ length: Math.min(jobs, queue.length) }, async () => {
        for (let c = queue.shift(); c; c = queue.shift()) results.push(await childCase(c));
      }),
    );
    clearInterval(sample);
    results.sort((a, b) => cases.indexOf(a.name) - cases.indexOf(b.name));
    let totalDiffering = 0;
    let totalUnexpected = 0;
    for (const r of results) {
      console.log(`${r.name.padEnd(22)} ${r.runs} runs in ${r.seconds} s`);
      for (const id of TIMING_CHECKS) {
        totalDiffering += r.differing[id];
        totalUnexpected += r.unexpected[id] ?? 0;
        console.log(`  ${id.padEnd(32)} ${JSON.stringify(r.outcomes[id])} differing ${r.differing[id]}, unlike the matrix ${r.unexpected[id] ?? 0}, measured twice ${r.remeasured[id] ?? 0}`);
      }
      const f = (s: CaseResult['p50']) => (s ? `${s.min} / ${s.median} / ${s.max} ms` : '-');
      console.log(`  latency median per run (min / median / max): ${f(r.p50)}; incremental largest lag per run: ${f(r.maxLag)}`);
    }
    const sorted = [...loads].sort((a, b) => a - b);
    console.log(
      `total: ${results.reduce((n, r) => n + r.runs, 0)} runs, ${totalDiffering} verdicts differed between runs, ${totalUnexpected} differed from the detection matrix; ${Math.round((Date.now() - t0) / 1000)} s; 1-min load average during the bench: min ${sorted[0]?.toFixed(2) ?? '-'}, median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(2) ?? '-'}, max ${sorted[sorted.length - 1]?.toFixed(2) ?? '-'}; at the end ${la()}`,
    );
    process.exitCode = totalDiffering || totalUnexpected ? 1 : 0;
  } finally {
    stressor?.kill('SIGTERM');
  }
}

await main();
