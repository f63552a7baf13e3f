// Peak RSS of a full demo run (the whole default suite, the reference gateway and the recording
// upstream in the same process), as `/usr/bin/time -v` reports it ("Maximum resident set size"):
// median of N runs. Issue 13's goal: at most 150 MB.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The median peak RSS in MB of `runs` demo runs, or null without /usr/bin/time (Debian package `time`). */
export function demoPeakRss(runs: number, extra: string[] = []): { medianMB: number; minMB: number; maxMB: number; perRunKB: number[]; command: string } | null {
  if (!existsSync('/usr/bin/time')) return null;
  const cli = fileURLToPath(new URL('../../bin/gw-conformance.js', import.meta.url));
  const out = `/tmp/gwc-bench-rss-${process.pid}`;
  const mb: number[] = [];
  const perRunKB: number[] = [];
  for (let n = 0; n < runs; n++) {
    const r = spawnSync('/usr/bin/time', ['-v', process.execPath, cli, 'demo', '--seed', String(n + 1), '--out', out, ...extra], { encoding: 'utf8' });
    const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1];
    if (r.status !== 0 || !kb) throw new Error(`demo exited ${r.status}: ${r.stderr.slice(-400)}`);
    perRunKB.push(Number(kb));
    mb.push((Number(kb) * 1024) / 1e6);
  }
  mb.sort((a, b) => a - b);
  return { medianMB: mb[Math.floor(runs / 2)], minMB: mb[0], maxMB: mb[runs - 1], perRunKB, command: `/usr/bin/time -v node bin/gw-conformance.js demo --seed N --out ${out}${extra.length ? ` ${extra.join(' ')}` : ''}` };
}
