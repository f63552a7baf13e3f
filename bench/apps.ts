// Wall time of the apps profile against the reference apps gateway on PGlite, as a user runs
// it (`gw-conformance demo --profile apps`, goal ≤ 20 s), and the part of it that is the
// embedded database's start (PGlite's initdb in WebAssembly). Median of N runs.
//   npm run bench:apps [-- --runs 3]
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { openEmbeddedFromTemplate } from '../reference/apps/store.js';

const args = process.argv.slice(2);
const i = args.indexOf('--runs');
const runs = i >= 0 ? Number(args[i + 1]) : 3;
const bin = fileURLToPath(new URL('../../bin/gw-conformance.js', import.meta.url));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const walls: number[] = [];
const dbs: number[] = [];
for (let n = 0; n < runs; n++) {
  const t0 = performance.now();
  const out = mkdtempSync(join(tmpdir(), 'gwc-bench-apps-'));
  const r = spawnSync(process.execPath, [bin, 'demo', '--profile', 'apps', '--reporter', 'json', '--out', out], { encoding: 'utf8' });
  walls.push(performance.now() - t0);
  if (r.status !== 0) {
    console.error(`run ${n + 1}: exit ${r.status}\n${r.stderr}`);
    process.exit(1);
  }
  const t1 = performance.now();
  const db = await openEmbeddedFromTemplate();
  dbs.push(performance.now() - t1);
  await db.close();
}
console.log(`apps profile (demo --profile apps, PGlite): median wall ${(median(walls) / 1000).toFixed(1)} s over ${runs} runs (${walls.map((w) => (w / 1000).toFixed(1)).join(', ')}); goal ≤ 20 s`);
console.log(`  of which PGlite start (in memory, from the cached migrated template): median ${(median(dbs) / 1000).toFixed(1)} s`);
