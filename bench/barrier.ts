// How far apart four load shards send their first load request, without and with the start
// barrier (`npm run bench:barrier`): four shards as containers on this host (bench/shard-
// containers.ts: docker, --network host, node and the built harness bind-mounted), attached to
// one `gw-conformance mock` and loading one reference gateway, each container started once the
// one before has attached to the mock (as pods of a Job come up one after another). Each round
// runs them without --start-together, then with it; the figure is the spread of the four
// reports' load.firstRequestAt (one clock: the containers share the host's).
//   npm run bench:barrier [-- --runs 3]
import { mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunReport } from '../src/report/shared/types.js';
import { serveCli, type Served } from './serve.js';
import { containersUnavailable, shardContainer, stopShardContainers } from './shard-containers.js';

const args = process.argv.slice(2);
const RUNS = Number(args.includes('--runs') ? args[args.indexOf('--runs') + 1] : '3');
const SHARDS = 4;
/** A bound on each wait (a container's start, a shard's run): it times nothing. */
const WAIT_MS = 300_000;
const LOAD = ['--profile', 'load', '--only', 'load.concurrency.attribution', '--load-rate', '20', '--load-duration-s', '1', '--load-requests', '20', '--load-clients', '2', '--seed', '5', '--reporter', 'json'];

const why = containersUnavailable();
if (why) {
  console.error(`bench:barrier: ${why}`);
  process.exit(2);
}

const started: Served[] = [];
let attached = 0;

/** One round of four shard containers; returns the spread (ms) of their first load requests and each one's moment. */
async function round(mock: Served, gw: string, together: boolean): Promise<{ spreadMs: number; firsts: string[]; waited: number[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'gwc-bench-barrier-'));
  const runs = [];
  for (let i = 1; i <= SHARDS; i++) {
    const a = ['--target', gw, '--attach', mock.url, '--shard', `${i}/${SHARDS}`, ...(together ? ['--start-together', '600'] : []), ...LOAD, '--out', join(dir, `s${i}`)];
    runs.push(shardContainer(i, a, dir, WAIT_MS));
    await mock.until(/load run attached from/, ++attached, WAIT_MS);
  }
  for (const r of await Promise.all(runs)) if (r.code !== 0 && r.code !== 1) throw new Error(`${r.name} exited ${r.code}: ${r.output}`);
  const reports = [1, 2, 3, 4].map((i) => JSON.parse(readFileSync(join(dir, `s${i}`, 'report.json'), 'utf8')) as RunReport);
  const firsts = reports.map((r) => r.load!.firstRequestAt!);
  const at = firsts.map((f) => Date.parse(f));
  return { spreadMs: Math.max(...at) - Math.min(...at), firsts, waited: reports.map((r) => r.load!.start?.waitedMs ?? 0) };
}

try {
  const mock = (started[0] = await serveCli(['mock', '--listen', '127.0.0.1:0'], WAIT_MS));
  const gw = (started[1] = await serveCli(['reference', '--listen', '127.0.0.1:0', '--upstream', mock.url], WAIT_MS)).url;
  const spreads: Record<string, number[]> = { apart: [], together: [] };
  for (let n = 1; n <= RUNS; n++)
    for (const together of [false, true]) {
      const load = loadavg()[0].toFixed(1);
      const r = await round(mock, gw, together);
      spreads[together ? 'together' : 'apart'].push(r.spreadMs);
      console.log(`round ${n} ${together ? 'with --start-together' : 'without the barrier'} (load ${load}): first load requests within ${r.spreadMs} ms (${r.firsts.map((f) => f.slice(11, 23)).join(', ')})${together ? `; waited at the barrier ${r.waited.join(', ')} ms` : ''}`);
    }
  console.log(`spread without the barrier: ${spreads.apart.join(', ')} ms; with it: ${spreads.together.join(', ')} ms`);
} finally {
  stopShardContainers();
  for (const s of started) s.stop();
}
