// Reliability of the stream timing oracle: runs the streaming suite many times against the
// clean reference gateway (optionally with both cores loaded by stress-ng) and against each
// buffering fault, and counts false verdicts. A CI gate must not cry wolf.
//   npm run build && node dist/bench/oracle.js [--runs 50] [--stress] [--only CHECK]
import { spawn, spawnSync } from 'node:child_process';
import { RecordingUpstream } from '../mocks/upstream/server.js';
import { ReferenceGateway } from '../reference/gateway.js';
import { faultByName } from '../reference/faults/index.js';
import { runSuite } from '../src/cli/run.js';
import { resolveConfig } from '../src/config/config.js';
import { CHECKS } from '../suites/index.js';

const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const runs = Number(opt('--runs', '50'));
const only = opt('--only', 'streaming');
const stress = args.includes('--stress');
// A fault that must fail the incremental-delivery checks, and the clean gateway that must pass them.
const CASES: Array<{ fault?: string; mustFail: boolean }> = [{ mustFail: false }, ...['buffer-stream', 'buffer-4k', 'gzip-stream', 'delay-per-event'].map((fault) => ({ fault, mustFail: true }))];
const TIMING_CHECKS = ['streaming.delivery.incremental', 'chat.stream.incremental'];

async function once(fault: string | undefined, seed: number) {
  const upstream = new RecordingUpstream();
  await upstream.start('127.0.0.1', 0);
  const gw = new ReferenceGateway({ upstream: upstream.url, fault: fault ? faultByName(fault) : undefined });
  try {
    const target = await gw.start('127.0.0.1', 0);
    return await runSuite(CHECKS, resolveConfig({ seed: String(seed), reporter: ['json'], only: [only] }, {}, {}), target, upstream, () => {});
  } finally {
    await gw.stop();
    await upstream.stop();
  }
}

const stressor = stress
  ? (() => {
      if (spawnSync('stress-ng', ['--version']).status !== 0) throw new Error('--stress needs stress-ng (apt-get install stress-ng)');
      return spawn('stress-ng', ['--cpu', '2', '--timeout', '0'], { stdio: 'ignore' });
    })()
  : null;
try {
  console.log(`oracle reliability: ${runs} runs per case of --only ${only}${stress ? ', both cores loaded by stress-ng --cpu 2 throughout' : ''}`);
  for (const c of CASES) {
    let falseVerdicts = 0;
    const delivered: Record<string, number> = {};
    const lags: number[] = [];
    const t0 = Date.now();
    for (let i = 0; i < runs; i++) {
      const r = await once(c.fault, 1000 + i);
      for (const x of r.results.filter((x) => TIMING_CHECKS.includes(x.id))) {
        const d = String((x.evidence as { delivery?: string }).delivery ?? x.outcome);
        delivered[d] = (delivered[d] ?? 0) + 1;
        const lag = (x.evidence as { maxLagMs?: number }).maxLagMs;
        if (typeof lag === 'number' && !c.mustFail) lags.push(lag);
        if ((x.outcome === 'pass') === c.mustFail) falseVerdicts++;
      }
      // Other streaming checks must hold on the clean gateway too.
      if (!c.mustFail) for (const x of r.results.filter((x) => x.outcome !== 'pass')) if (!TIMING_CHECKS.includes(x.id)) { falseVerdicts++; console.log(`  false: ${x.id}: ${x.message}`); }
    }
    lags.sort((a, b) => a - b);
    const lagText = lags.length ? `, clean max lag p50 ${lags[Math.floor(lags.length / 2)]} ms, max ${lags[lags.length - 1]} ms` : '';
    console.log(`${(c.fault ?? 'clean').padEnd(16)} ${runs} runs, ${falseVerdicts} false verdicts, verdicts ${JSON.stringify(delivered)}${lagText} (${Math.round((Date.now() - t0) / 1000)} s)`);
  }
} finally {
  stressor?.kill('SIGTERM');
}
