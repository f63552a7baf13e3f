// Wall time of a full default run against the reference gateway, as a user starts it: the
// reference gateway (`gw-conformance reference`, with the given upstream time-out) and the run
// (`gw-conformance run`) as two processes. Median of N runs, and the ratio of the run's wall
// time to its longest single check (the goal: within 1.2x, so checks overlap instead of
// queueing).
//   npm run bench [-- --runs 5] [--upstream-timeout-ms 600000] [--skip <id>]... [--cli <path to bin/gw-conformance.js>]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoPeakRss } from './rss.js';

const args = process.argv.slice(2);
const arg = (name: string, dflt: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const runs = Number(arg('--runs', '5'));
const upstreamTimeoutMs = arg('--upstream-timeout-ms', '2000');
const cli = arg('--cli', fileURLToPath(new URL('../../bin/gw-conformance.js', import.meta.url)));
const skips = args.flatMap((a, i) => (a === '--skip' ? ['--skip', args[i + 1]] : []));
if (!Number.isInteger(runs) || runs < 1 || !/^\d+$/.test(upstreamTimeoutMs)) {
  console.error('bench: --runs takes a whole number >= 1 and --upstream-timeout-ms a whole number of milliseconds');
  process.exit(2);
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** Starts the reference gateway; resolves with its URL once it says it listens. */
function startReference(upstream: string) {
  const child = spawn(process.execPath, [cli, 'reference', '--listen', '127.0.0.1:0', '--upstream', upstream, '--upstream-timeout-ms', upstreamTimeoutMs], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+?),/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`reference gateway exited ${code}: ${out}`)));
  });
  return { child, url };
}

interface One {
  wallMs: number;
  longestMs: number;
  longestId: string;
}

async function once(n: number): Promise<One> {
  const port = await freePort();
  const ref = startReference(`http://127.0.0.1:${port}`);
  const out = mkdtempSync(join(tmpdir(), 'gwc-bench-'));
  try {
    const target = await ref.url;
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [cli, 'run', '--target', target, '--upstream-listen', `127.0.0.1:${port}`, '--seed', String(n + 1), '--reporter', 'json', '--out', out, ...skips], { encoding: 'utf8' });
    const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0) throw new Error(`run exited ${r.status}: ${r.stderr}${r.stdout}`);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { results: Array<{ id: string; durationMs: number }> };
    const longest = report.results.reduce((a, b) => (b.durationMs > a.durationMs ? b : a));
    return { wallMs, longestMs: longest.durationMs, longestId: longest.id };
  } finally {
    ref.child.kill();
    rmSync(out, { recursive: true, force: true });
  }
}

/** One run; a port another process took between our choice and the run's listen is chosen again (the machine is shared). */
async function measured(n: number): Promise<One> {
  for (let tries = 1; ; tries++) {
    try {
      return await once(n);
    } catch (e) {
      if (tries >= 3 || !/already in use/.test(String(e))) throw e;
    }
  }
}

const all: One[] = [];
for (let n = 0; n < runs; n++) all.push(await measured(n));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const walls = all.map((x) => x.wallMs);
const ratios = all.map((x) => x.wallMs / x.longestMs);
const longest = all.map((x) => `${x.longestId} ${s(x.longestMs)}`);
console.log(`default run against the reference gateway (upstream time-out ${upstreamTimeoutMs} ms${skips.length ? `, ${skips.join(' ')}` : ''}), ${runs} runs:`);
console.log(`  wall time: median ${s(median(walls))}, min ${s(Math.min(...walls))}, max ${s(Math.max(...walls))}`);
console.log(`  longest single check per run: ${longest.join('; ')}`);
console.log(`  wall / longest check: median ${median(ratios).toFixed(2)}x, max ${Math.max(...ratios).toFixed(2)}x`);

// Peak RSS (the goal: at most 150 MB, whatever the gateway sends), measured on its own runs
// with /usr/bin/time -v.
const rss = demoPeakRss(Math.min(runs, 3));
console.log(
  rss
    ? `demo peak RSS over ${Math.min(runs, 3)} runs: median ${rss.medianMB.toFixed(0)} MB, min ${rss.minMB.toFixed(0)} MB, max ${rss.maxMB.toFixed(0)} MB (goal <= 150 MB; ${rss.command})`
    : 'demo peak RSS: not measured (/usr/bin/time is missing: apt-get install time)',
);
