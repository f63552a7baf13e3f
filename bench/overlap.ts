// That LOAD-1 catches a gateway which mixes up answers only while requests overlap, every time
// (`npm run bench:overlap`): LOAD-1 (load.concurrency.attribution) through the reference gateway
// with the fault load-mixup-when-overlapping, --runs times (default 20), and as many times
// against the clean gateway; prints caught N/runs and false verdicts M/runs, with the concurrency
// each run reached at the client and at the upstream. `--no-hold` strips the recording upstream's
// hold from the replies (as before overlap was made certain), for comparison. The load is the
// detection matrix's (test/detection/load.json), unless --load-rate, --load-duration-s or
// --load-requests say otherwise.
//   npm run bench:overlap [-- --runs 20 --no-hold --load-rate 200]
import { RecordingUpstream } from '../mocks/upstream/server.js';
import { DEMO_UPSTREAM_TIMEOUT_MS, ReferenceGateway } from '../reference/gateway.js';
import { faultByName } from '../reference/faults/index.js';
import { runSuite } from '../src/runner/run.js';
import { resolveConfig } from '../src/config/config.js';
import type { RecordedCase } from '../src/upstream/expectation.js';
import type { Reply } from '../src/upstream/scenario.js';
import { CHECKS } from '../suites/index.js';

const args = process.argv.slice(2);
const opt = (name: string, d: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : d);
const RUNS = Number(opt('--runs', '20'));
const NO_HOLD = args.includes('--no-hold');
const FAULT = 'load-mixup-when-overlapping';
const CHECK = 'load.concurrency.attribution';
const load = { loadRate: opt('--load-rate', '200'), loadDurationS: opt('--load-duration-s', '1'), loadRequests: opt('--load-requests', '100') };

/** The recording upstream, its replies' hold taken off (--no-hold). */
class Unheld extends RecordingUpstream {
  override expectAs(token: string, reply: Reply): RecordedCase | null {
    return super.expectAs(token, reply.kind === 'json' || reply.kind === 'sse' ? { ...reply, hold: undefined } : reply);
  }
}

async function once(fault: string | undefined, seed: number): Promise<{ outcome: string; message: string; concurrency: string }> {
  const upstream = NO_HOLD ? new Unheld() : new RecordingUpstream();
  await upstream.start('127.0.0.1', 0);
  const cfg = resolveConfig({ seed: String(seed), reporter: ['json'], profile: 'load', only: [CHECK], ...load }, {}, {});
  const gw = new ReferenceGateway({ upstream: upstream.url, fault: fault ? faultByName(fault) : undefined, upstreamTimeoutMs: DEMO_UPSTREAM_TIMEOUT_MS });
  try {
    const r = await runSuite(CHECKS, cfg, await gw.start('127.0.0.1', 0), upstream, () => {});
    const x = r.results.find((y) => y.id === CHECK);
    const c = (x?.evidence as { concurrency?: { client: number; upstream: number } } | undefined)?.concurrency;
    return { outcome: x?.outcome ?? 'missing', message: x?.message ?? '', concurrency: c ? `client ${c.client}, upstream ${c.upstream}` : 'none stated' };
  } finally {
    await gw.stop();
    await upstream.stop();
  }
}

async function series(fault: string | undefined, want: string): Promise<number> {
  let hits = 0;
  for (let i = 0; i < RUNS; i++) {
    const r = await once(fault, 2000 + i);
    if (r.outcome === want) hits++;
    console.log(`  ${fault ?? 'clean'} run ${i + 1}: ${r.outcome} (in flight at once: ${r.concurrency})${r.outcome === want ? '' : `: ${r.message}`}`);
  }
  return hits;
}

console.log(`LOAD-1 at ${load.loadRate}/s, ${load.loadRequests} requests at most over ${load.loadDurationS} s, ${NO_HOLD ? 'answers NOT held (--no-hold)' : 'answers held until a batch is waiting'}`);
const caught = await series(FAULT, 'fail');
const clean = await series(undefined, 'pass');
console.log(`${FAULT}: caught ${caught}/${RUNS}`);
console.log(`clean reference gateway: passed ${clean}/${RUNS}, false verdicts ${RUNS - clean}/${RUNS}`);
process.exitCode = caught === RUNS && clean === RUNS ? 0 : 1;
