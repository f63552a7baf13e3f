// The load generator's own ceiling (`npm run bench:load`): requests per second it reaches
// straight to the recording upstream, and its p99 at half the goal rate, each beside a plain
// node:http server on the same machine (printed as ratios). Goal: >= 10,000 req/s, p99 < 2 ms
// at 5,000 req/s. The servers run in a process of their own, with the V8 settings a
// gw-conformance process applies at start-up (src/core/heap.ts, as `mock` runs the upstream);
// the generator in this one. Also printed: the CPU time per request of each side (less swayed
// by a busy machine than latency).
//   npm run bench:load [-- --requests 80000 --clients 8]
//   npm run bench:load -- --tail 5     (the p99 at 5,000/s only, warmed up: 5 rounds of both servers in turn)
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { percentiles } from '../src/core/histogram.js';
import { runLoad, type LoadResult } from '../src/load/engine.js';
import { messagesHeaders } from '../src/protocol/index.js';
import { applyHeapFlags } from '../src/core/heap.js';

// The generator runs with the V8 settings of a gw-conformance process, as a load run does (its
// WebAssembly HTTP parser then stays on the baseline compiler: about 10 % more CPU per request).
applyHeapFlags();

const args = process.argv.slice(2);
const arg = (name: string, d: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : d);
const REQUESTS = arg('--requests', 80_000);
const CLIENTS = arg('--clients', 8);
/** `--tail N`: only the p99 at 5,000/s, warmed up, N rounds (recording and plain in turn, each a fresh process warmed with as many requests first). */
const TAIL = arg('--tail', 0);
const SERVER_FLAGS = args.includes('--server-flags') ? args[args.indexOf('--server-flags') + 1].split(' ').filter(Boolean) : [];
const GOAL = 10_000;

/** A run's result, and the CPU time (user and system) per request of the server and of the generator, in microseconds. */
type Measured = LoadResult & { serverCpuUs: number; generatorCpuUs: number; gc: ServerGc };
/** The server's CPU time since the last mark (µs), and its garbage collector's pauses (ms). */
interface ServerGc {
  cpuUs: number;
  gcMs: number;
  gcCount: number;
  gcMaxMs: number;
}

/** The server process (`--server-flags` adds node flags to it, e.g. --cpu-prof). */
async function server(mode: 'recording' | 'plain', count: number): Promise<{ url: string; tokens: string[]; mark: () => Promise<ServerGc>; stop: () => Promise<ServerGc> }> {
  const child = spawn(process.execPath, [...SERVER_FLAGS, fileURLToPath(new URL('./load-server.js', import.meta.url)), mode, String(count)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const { url, tokens } = JSON.parse((await lines.next()).value as string) as { url: string; tokens: string[] };
  const cpu = async () => JSON.parse((await lines.next()).value as string) as ServerGc;
  const mark = async () => {
    child.stdin!.write('mark\n');
    return cpu();
  };
  const stop = async () => {
    child.stdin!.end();
    return cpu();
  };
  return { url, tokens, mark, stop };
}

/** `n` requests at `rate`, after `warm` requests at the same rate to the same server process (left out of the figures). */
async function measure(mode: 'recording' | 'plain', rate: number, n: number, warm = 0): Promise<Measured> {
  const s = await server(mode, warm + n);
  const headers = messagesHeaders().flat();
  const send = (count: number, first: number) =>
    runLoad({
      origin: s.url,
      rate,
      requests: count,
      durationMs: Math.ceil((count * 1000) / rate) + 1,
      clients: CLIENTS,
      connectionsPerClient: 4,
      make: (i) => ({ path: '/v1/messages', method: 'POST', headers, body: JSON.stringify({ model: 'm', max_tokens: 8, messages: [{ role: 'user', content: `${s.tokens[first + i] ?? 'plain'} load` }] }) }),
    });
  if (warm > 0) {
    await send(warm, 0);
    await s.mark();
  }
  const from = process.cpuUsage();
  let r: LoadResult | undefined;
  try {
    r = await send(n, warm);
  } finally {
    const used = await s.stop();
    if (r) Object.assign(r, { serverCpuUs: used.cpuUs / r.sent, generatorCpuUs: cpuUs(process.cpuUsage(from)) / r.sent, gc: used });
  }
  return r as Measured;
}

const cpuUs = (u: NodeJS.CpuUsage) => u.user + u.system;
const line = (what: string, r: Measured) =>
  `${what}: ${Math.round(r.achievedRate)} req/s achieved, ${r.failures} failed, CPU per request: server ${r.serverCpuUs.toFixed(1)} µs, generator ${r.generatorCpuUs.toFixed(1)} µs, latency ${JSON.stringify(percentiles(r.latency))}`;

/** The highest offered rate (doubling from 2,500/s, 2 s each) that is served at >= 95 % of the offer. */
async function ceiling(mode: 'recording' | 'plain'): Promise<{ rate: number; result: Measured | null; lines: string[] }> {
  let best: { rate: number; result: Measured | null } = { rate: 0, result: null };
  const lines: string[] = [];
  for (let rate = 2500; rate <= 40_000; rate *= 2) {
    const r = await measure(mode, rate, Math.min(REQUESTS, rate * 2));
    lines.push(line(`${mode}, offered ${rate}/s`, r));
    if (r.failures || r.achievedRate < rate * 0.95) break;
    best = { rate, result: r };
  }
  return { ...best, lines };
}

const gcText = (g: ServerGc) => `${g.gcMs} ms in ${g.gcCount} pauses (longest ${g.gcMaxMs} ms)`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The tail at 5,000/s, warmed up: rounds of both servers in turn (the order alternating), each round's ratio measured in it. */
async function tail(rounds: number): Promise<void> {
  const n = Math.min(REQUESTS, GOAL);
  const rows: Array<{ rec: Measured; plain: Measured }> = [];
  for (let i = 0; i < rounds; i++) {
    const first = i % 2 === 0 ? 'recording' : 'plain';
    const a = await measure(first, GOAL / 2, n, n);
    const b = await measure(first === 'recording' ? 'plain' : 'recording', GOAL / 2, n, n);
    const row = first === 'recording' ? { rec: a, plain: b } : { rec: b, plain: a };
    rows.push(row);
    const p = (r: Measured) => percentiles(r.latency);
    console.log(`round ${i + 1}: p99 recording ${p(row.rec).p99} ms, plain ${p(row.plain).p99} ms, ${(p(row.rec).p99 / p(row.plain).p99).toFixed(2)}x; p99.9 ${p(row.rec).p999} / ${p(row.plain).p999} ms; server CPU per request ${row.rec.serverCpuUs.toFixed(1)} / ${row.plain.serverCpuUs.toFixed(1)} µs; server GC ${gcText(row.rec.gc)} / ${gcText(row.plain.gc)}`);
  }
  const p99 = (r: Measured) => percentiles(r.latency).p99;
  const ratios = rows.map((r) => p99(r.rec) / p99(r.plain));
  console.log(`p99 at ${GOAL / 2}/s, warmed up (${n} requests first), median of ${rounds} rounds: recording upstream ${median(rows.map((r) => p99(r.rec)))} ms, plain node:http ${median(rows.map((r) => p99(r.plain)))} ms; median ratio ${median(ratios).toFixed(2)}x (rounds ${ratios.map((x) => x.toFixed(2)).join(', ')})`);
  console.log(`server CPU per request, median: recording upstream ${median(rows.map((r) => r.rec.serverCpuUs)).toFixed(1)} µs, plain ${median(rows.map((r) => r.plain.serverCpuUs)).toFixed(1)} µs; server GC pause per ${n} requests, median: recording upstream ${median(rows.map((r) => r.rec.gc.gcMs))} ms (longest ${median(rows.map((r) => r.rec.gc.gcMaxMs))} ms), plain ${median(rows.map((r) => r.plain.gc.gcMs))} ms (longest ${median(rows.map((r) => r.plain.gc.gcMaxMs))} ms)`);
}

if (TAIL > 0) {
  await tail(TAIL);
  process.exit(0);
}

const rec = await ceiling('recording');
const plain = await ceiling('plain');
const halfRec = await measure('recording', GOAL / 2, Math.min(REQUESTS, GOAL), Math.min(REQUESTS, GOAL));
const halfPlain = await measure('plain', GOAL / 2, Math.min(REQUESTS, GOAL), Math.min(REQUESTS, GOAL));
for (const l of [...rec.lines, ...plain.lines]) console.log(l);
console.log(line(`recording upstream, offered ${GOAL / 2}/s`, halfRec));
console.log(line(`plain node:http,    offered ${GOAL / 2}/s`, halfPlain));
const p99 = (r: LoadResult) => percentiles(r.latency).p99;
console.log(`ceiling (highest doubling step served at >= 95 %): recording upstream ${rec.rate} req/s (goal ${GOAL}), plain node:http ${plain.rate} req/s, ratio ${plain.rate ? (rec.rate / plain.rate).toFixed(2) : '-'}x`);
console.log(`p99 at ${GOAL / 2}/s: ${p99(halfRec)} ms (goal < 2 ms), ${(p99(halfRec) / p99(halfPlain)).toFixed(2)}x plain node:http (${p99(halfPlain)} ms)`);
console.log(`server CPU per request at ${GOAL / 2}/s: recording upstream ${halfRec.serverCpuUs.toFixed(1)} µs, ${(halfRec.serverCpuUs / halfPlain.serverCpuUs).toFixed(2)}x plain node:http (${halfPlain.serverCpuUs.toFixed(1)} µs); generator ${halfRec.generatorCpuUs.toFixed(1)} µs`);
