// Peak RSS of a whole default demo run (the harness, the reference gateway and the recording
// upstream in one process), as `/usr/bin/time -v` reports it: seeds 1..N, median. Issue 13's
// goal: at most 150 MB (1 MB = 10^6 bytes; /usr/bin/time reports KiB).
//   npm run bench:memory [-- --runs 3] [-- <demo flags, e.g. --only errors.body.large>]
import { demoPeakRss } from './rss.js';

const args = process.argv.slice(2);
const at = args.indexOf('--runs');
const runs = at >= 0 ? Number(args[at + 1]) : 3;
const extra = at >= 0 ? [...args.slice(0, at), ...args.slice(at + 2)] : args;
if (!Number.isInteger(runs) || runs < 1) {
  console.error('bench:memory: --runs takes a whole number >= 1');
  process.exit(2);
}
const r = demoPeakRss(runs, extra);
if (!r) {
  console.error('bench:memory: /usr/bin/time is missing (apt-get install time)');
  process.exit(2);
}
const mb = (kb: number) => ((kb * 1024) / 1e6).toFixed(1);
console.log(`demo peak RSS, ${runs} runs (${r.command}):`);
r.perRunKB.forEach((kb, i) => console.log(`  seed ${i + 1}: ${kb} KiB = ${mb(kb)} MB`));
console.log(`  median ${r.medianMB.toFixed(1)} MB, min ${r.minMB.toFixed(1)} MB, max ${r.maxMB.toFixed(1)} MB (goal <= 150 MB)`);
process.exitCode = r.maxMB <= 150 ? 0 : 1;
