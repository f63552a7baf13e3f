// Wall time of a full demo run (the whole default suite against the reference gateway):
// median of N runs of the real CLI, as a user starts it.
//   npm run bench [-- --runs 5]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const i = args.indexOf('--runs');
const runs = i >= 0 ? Number(args[i + 1]) : 5;
const cli = fileURLToPath(new URL('../../bin/gw-conformance.js', import.meta.url));
const times: number[] = [];
for (let n = 0; n < runs; n++) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, 'demo', '--seed', String(n + 1), '--reporter', 'json', '--out', `/tmp/gwc-bench-${process.pid}`], { encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`demo exited ${r.status}: ${r.stderr}`);
  times.push(ms);
}
times.sort((a, b) => a - b);
console.log(`demo wall time over ${runs} runs: median ${(times[Math.floor(runs / 2)] / 1000).toFixed(2)} s, min ${(times[0] / 1000).toFixed(2)} s, max ${(times[runs - 1] / 1000).toFixed(2)} s`);

// Peak RSS (issue 13: at most 150 MB), measured on its own runs with /usr/bin/time -v.
import { demoPeakRss } from './rss.js';
const rss = demoPeakRss(Math.min(runs, 3));
console.log(
  rss
    ? `demo peak RSS over ${Math.min(runs, 3)} runs: median ${rss.medianMB.toFixed(0)} MB, min ${rss.minMB.toFixed(0)} MB, max ${rss.maxMB.toFixed(0)} MB (goal <= 150 MB; ${rss.command})`
    : 'demo peak RSS: not measured (/usr/bin/time is missing: apt-get install time)',
);
