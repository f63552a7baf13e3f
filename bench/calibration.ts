// Whether merge-reports' calibration flag singles out a shard on a loaded machine, and only it
// (`npm run bench:calibration`): sets of four load shards (the built CLI, `run --attach --shard
// i/4`, started at one moment against one `gw-conformance mock` and the reference gateway), each
// shard in a CPU cgroup of its own. In a "constrained" set one shard's group is held to a small
// share of one CPU (--quota, a percent of one CPU) with the weight of one ordinary process: a
// busy machine. The other shards' groups weigh --weight ordinary processes (default 10), so the
// machine's other work slows them little, as machines of their own; they only take sooner the
// CPU they would take anyway (a shard's start, calibration and check: a second or two). With
// --weight 1 every shard is an ordinary process, as in a run beside other work. In an
// "unconstrained" set no group is held. The sets alternate, so both kinds meet the machine's
// other work alike. Each set's reports are judged as merge-reports judges them
// (src/report/run/load-calibration.ts); the bench prints, per set, each shard's CPU tries (least,
// lower quartile, median), the held group's throttling (that the limit bit), the verdicts and their
// reasons, and at the end flagged N of N constrained, false flags M of N unconstrained, and the
// spread of the shards' CPU figures over their partners'. Ctrl-C ends it and what it started.
//   npm run bench:calibration [-- --sets 6 --quota 10 --weight 10 --record sets.json]
// --record: the sets' calibrations as JSON (test/unit/report/calibration-recorded.json is one).
// Needs a writable cgroup CPU controller (root; cgroup v1 or v2).
import { spawn, spawnSync } from 'node:child_process';
import { serveCli, type Served } from './serve.js';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../src/core/paths.js';
import { judgeCalibration } from '../src/report/run/load-calibration.js';
import type { LoadCalibration, RunReport } from '../src/report/shared/types.js';

const BIN = join(ROOT, 'bin', 'gw-conformance.js');
const args = process.argv.slice(2);
const opt = (name: string, d: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : d);
const SETS = Number(opt('--sets', '6'));
const QUOTA = Number(opt('--quota', '10'));
const WEIGHT = Number(opt('--weight', '10'));
const RECORD = opt('--record', '');
const SHARDS = 4;
const V1 = '/sys/fs/cgroup/cpu';
const V2 = '/sys/fs/cgroup';
const v1 = existsSync(join(V1, 'cpu.cfs_quota_us'));

/** A CPU cgroup of its own: a weight of WEIGHT processes; held to `quota` % of one CPU (and the weight of one process) when given. */
function group(name: string, quota: number | null): { dir: string; throttled: () => string } {
  const dir = join(v1 ? V1 : V2, name);
  const weight = quota === null ? WEIGHT : 1;
  mkdirSync(dir);
  if (v1) {
    writeFileSync(join(dir, 'cpu.shares'), String(1024 * weight));
    if (quota !== null) {
      writeFileSync(join(dir, 'cpu.cfs_period_us'), '20000');
      writeFileSync(join(dir, 'cpu.cfs_quota_us'), String(Math.round(200 * quota)));
    }
  } else {
    writeFileSync(join(dir, 'cpu.weight'), String(100 * weight));
    if (quota !== null) writeFileSync(join(dir, 'cpu.max'), `${Math.round(200 * quota)} 20000`);
  }
  const throttled = () => {
    const stat = readFileSync(join(dir, 'cpu.stat'), 'utf8');
    const n = (k: string) => stat.match(new RegExp(`^${k} (\\d+)`, 'm'))?.[1] ?? '?';
    return `${n('nr_throttled')} of ${n('nr_periods')} periods throttled`;
  };
  return { dir, throttled };
}

/** One shard run in its cgroup: resolves with its report. */
function shard(i: number, gw: string, mock: string, dir: string, cg: string): Promise<RunReport> {
  const run = [BIN, 'run', '--target', gw, '--attach', mock, '--shard', `${i}/${SHARDS}`, '--profile', 'load', '--only', 'load.perf.cost', '--load-rate', '20', '--load-duration-s', '1', '--load-requests', '20', '--load-clients', '2', '--seed', '5', '--reporter', 'json', '--out', join(dir, `s${i}`)];
  const quoted = [process.execPath, ...run].map((a) => `'${a}'`).join(' ');
  const p = spawn('sh', ['-c', `echo $$ > '${cg}/cgroup.procs' && exec ${quoted}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  p.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve, reject) =>
    p.on('exit', (code) => {
      try {
        resolve(JSON.parse(readFileSync(join(dir, `s${i}`, 'report.json'), 'utf8')) as RunReport);
      } catch {
        reject(new Error(`shard ${i} exited ${code} without a report: ${err.trim().split('\n').slice(-3).join(' | ')}`));
      }
    }),
  );
}

/** The cgroups of the set under way (removed when its shards have exited). */
const live = new Set<string>();

interface SetResult {
  constrained: number | null;
  load: number;
  cal: LoadCalibration[];
  flagged: number[];
  unjudged: number[];
  throttled: string;
  why: string[];
}

async function oneSet(n: number, constrained: number | null, gw: string, mock: string): Promise<SetResult> {
  const dir = mkdtempSync(join(tmpdir(), 'gwc-bench-calibration-'));
  const load = Math.round(loadavg()[0] * 10) / 10;
  const groups = Array.from({ length: SHARDS }, (_, k) => group(`gwc-bench-cal-${process.pid}-${n}-${k + 1}`, k + 1 === constrained ? QUOTA : null));
  for (const g of groups) live.add(g.dir);
  try {
    const reports = await Promise.all(groups.map((g, k) => shard(k + 1, gw, mock, dir, g.dir)));
    const cal = reports.map((r) => r.load!.calibration!);
    const verdicts = cal.map((c, k) => judgeCalibration(c, cal.filter((_, j) => j !== k)));
    const which = (f: (v: (typeof verdicts)[number]) => unknown) => verdicts.flatMap((v, k) => (f(v) ? [k + 1] : []));
    return { constrained, load, cal, flagged: which((v) => v.flagged), unjudged: which((v) => v.unjudged), throttled: constrained ? groups[constrained - 1].throttled() : '', why: verdicts.flatMap((v, k) => [v.flagged, v.unjudged, v.noted].filter(Boolean).map((w) => `  shard ${k + 1}: ${w}`)) };
  } finally {
    for (const g of groups) {
      rmdirSync(g.dir);
      live.delete(g.dir);
    }
  }
}

if (!v1 && !(existsSync(join(V2, 'cgroup.subtree_control')) && readFileSync(join(V2, 'cgroup.subtree_control'), 'utf8').split(/\s+/).includes('cpu'))) {
  console.error('bench:calibration: no writable cgroup CPU controller here (cgroup v1 cpu, or v2 with cpu in cgroup.subtree_control; as root)');
  process.exit(2);
}
const started: Served[] = [];
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.once(sig, () => {
    for (const p of started) p.stop();
    for (const dir of live) spawnSync('sh', ['-c', `kill $(cat '${dir}/cgroup.procs') 2>/dev/null`]);
    if (live.size) console.error(`bench:calibration: stopped; once its shards have exited: rmdir ${[...live].join(' ')}`);
    process.exit(130);
  });
try {
  const serve = async (a: string[]) => (started[started.length] = await serveCli(a, 120_000)).url;
  const mock = await serve(['mock', '--listen', '127.0.0.1:0']);
  const gw = await serve(['reference', '--listen', '127.0.0.1:0', '--upstream', mock]);
  const sets: SetResult[] = [];
  for (let n = 0; n < 2 * SETS; n++) {
    const s = await oneSet(n, n % 2 === 0 ? 1 + ((n / 2) % SHARDS) : null, gw, mock);
    sets.push(s);
    const figures = s.cal.map((c, k) => `${k + 1}${k + 1 === s.constrained ? '*' : ''}: ${c.cpu!.minMs}/${c.cpu!.lowerQuartileMs}/${c.cpu!.medianMs}`).join(', ');
    console.log(`set ${n + 1} ${s.constrained ? `shard ${s.constrained} held to ${QUOTA} % of a CPU (${s.throttled})` : 'none constrained'}; load ${s.load}; CPU tries least/lower quartile/median ms ${figures}; flagged [${s.flagged}] could not judge [${s.unjudged}]`);
    for (const w of s.why) console.log(w);
  }
  const con = sets.filter((s) => s.constrained);
  const un = sets.filter((s) => !s.constrained);
  const hit = con.filter((s) => s.flagged.length === 1 && s.flagged[0] === s.constrained).length;
  const falseInCon = con.filter((s) => s.flagged.some((f) => f !== s.constrained)).length;
  const falseInUn = un.filter((s) => s.flagged.length).length;
  console.log(`constrained shard flagged (and no other): ${hit} of ${con.length} sets; another shard flagged in ${falseInCon} of ${con.length}`);
  console.log(`false flags in unconstrained sets: ${falseInUn} of ${un.length}`);
  // The spread of the shards not held: each one's CPU figure (its tries' lower quartile) over the median of its partners'.
  const over = (s: SetResult, k: number) => s.cal[k].cpu!.lowerQuartileMs / s.cal.filter((_, j) => j !== k).map((x) => x.cpu!.lowerQuartileMs).sort((a, b) => a - b)[1];
  const ratios = sets.flatMap((s) => s.cal.flatMap((_, k) => (k + 1 === s.constrained ? [] : [over(s, k)])));
  const cr = con.map((s) => over(s, s.constrained! - 1));
  const f = (xs: number[]) => `${Math.min(...xs).toFixed(2)} to ${Math.max(...xs).toFixed(2)}`;
  console.log(`lower quartile of the CPU tries over the partners' median: shards not held ${f(ratios)} (${ratios.length}); held shards ${f(cr)} (${cr.length})`);
  if (RECORD) writeFileSync(RECORD, `${JSON.stringify({ quota: QUOTA, weight: WEIGHT, sets: sets.map((x) => ({ constrained: x.constrained, load: x.load, calibrations: x.cal })) }, null, 1)}\n`);
  process.exitCode = hit === con.length && falseInUn === 0 ? 0 : 1;
} finally {
  for (const p of started) p.stop();
}
