// The load generator's own ceiling (`npm run bench:load`): requests per second it reaches
// straight to the recording upstream, and its p99 at half the goal rate, each beside a plain
// node:http server on the same machine (printed as ratios). Goal: >= 10,000 req/s, p99 < 2 ms
// at 5,000 req/s. The servers run in a process of their own, with the V8 settings a
// gw-conformance process applies at start-up (src/core/heap.ts, as `mock` runs the upstream);
// the generator in this one. Also printed: the CPU time per request of each side (less swayed
// by a busy machine than latency).
//   npm run bench:load [-- --requests 80000 --clients 8]
//   npm run bench:load -- --tail 10    (the p99 at 5,000/s only, warmed up: both servers in turn, 10 blocks of 5,000 requests each)
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { newHistogram, percentiles } from '../src/core/histogram.js';
import { runLoad, type LoadResult } from '../src/load/engine.js';
import { messagesHeaders } from '../src/protocols/index.js';
import { applyHeapFlags } from '../src/core/heap.js';

// The generator runs with the V8 settings of a gw-conformance process, as a load run does (its
// WebAssembly HTTP parser then stays on the baseline compiler: about 10 % more CPU per request).
applyHeapFlags();

const args = process.argv.slice(2);
const arg = (name: string, d: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : d);
const REQUESTS = arg('--requests', 80_000);
const CLIENTS = arg('--clients', 8);
/** `--tail N`: only the p99 at 5,000/s, warmed up: both servers side by side, N blocks of 5,000 requests each (tail()). */
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
  /** The same per kind of collection (young, full, incremental, weak callbacks). */
  kinds: Record<string, { ms: number; count: number; maxMs: number }>;
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
  const send = (count: number, first: number) => load(s.url, rate, count, (i) => s.tokens[first + i]);
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

const gcText = (g: ServerGc) => `${g.gcMs} ms in ${g.gcCount} pauses (longest ${g.gcMaxMs} ms; ${Object.entries(g.kinds).map(([k, v]) => `${k} ${v.ms} ms in ${v.count}, longest ${v.maxMs} ms`).join(', ')})`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The tail at 5,000/s, warmed up, both servers measured side by side: each server process starts
 * once and is warmed with 10,000 requests, then they take turns in blocks of 5,000 requests (one
 * second each; `rounds` blocks each, the order alternating), every block's latencies added to its
 * server's histogram. A stall from other work on the machine falls in either server's blocks
 * alike, where a round of one server after the other put a whole stall on one side; the p99 of
 * each side's pooled histogram is the figure, the blocks' own ratios show the spread. The
 * recording upstream keeps every request's record all along, as a load run's cases do.
 */
async function tail(rounds: number): Promise<void> {
  const warm = Math.min(REQUESTS, GOAL);
  const block = GOAL / 2;
  const servers = { recording: await server('recording', warm + rounds * block), plain: await server('plain', 0) };
  const pooled = { recording: newHistogram(), plain: newHistogram() };
  const sent = { recording: 0, plain: 0 };
  const send = (mode: Mode, count: number) => {
    const s = servers[mode];
    const first = sent[mode];
    sent[mode] += count;
    return load(s.url, GOAL / 2, count, (i) => s.tokens[first + i]);
  };
  for (const mode of MODES) {
    await send(mode, warm);
    await servers[mode].mark();
  }
  const ratios: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const order: Mode[] = i % 2 === 0 ? ['recording', 'plain'] : ['plain', 'recording'];
    const p99: Partial<Record<Mode, number>> = {};
    for (const mode of order) {
      const r = await send(mode, block);
      pooled[mode].add(r.latency);
      p99[mode] = percentiles(r.latency).p99;
    }
    ratios.push(p99.recording! / p99.plain!);
  }
  const used = { recording: await servers.recording.stop(), plain: await servers.plain.stop() };
  const p = { recording: percentiles(pooled.recording), plain: percentiles(pooled.plain) };
  const n = rounds * block;
  console.log(`p99 at ${GOAL / 2}/s, warmed up (${warm} requests first), ${rounds} blocks of ${block} requests each, the two servers in turn: recording upstream ${p.recording.p99} ms, plain node:http ${p.plain.p99} ms, ratio ${(p.recording.p99 / p.plain.p99).toFixed(2)}x; p99.9 ${p.recording.p999} / ${p.plain.p999} ms; p50 ${p.recording.p50} / ${p.plain.p50} ms`);
  console.log(`the blocks' p99 ratios: median ${median(ratios).toFixed(2)}x (${ratios.map((x) => x.toFixed(2)).join(', ')})`);
  console.log(`server CPU per request: recording upstream ${(used.recording.cpuUs / n).toFixed(1)} µs, plain ${(used.plain.cpuUs / n).toFixed(1)} µs; server GC per ${n} requests: recording upstream ${gcText(used.recording)}, plain ${gcText(used.plain)}`);
}

type Mode = 'recording' | 'plain';
const MODES: Mode[] = ['recording', 'plain'];

/** `count` requests at `rate` to the server at `url`, the i-th carrying the case token `token(i)`. */
function load(url: string, rate: number, count: number, token: (i: number) => string | undefined): Promise<LoadResult> {
  const headers = messagesHeaders().flat();
  return runLoad({
    origin: url,
    rate,
    requests: count,
    durationMs: Math.ceil((count * 1000) / rate) + 1,
    clients: CLIENTS,
    connectionsPerClient: 4,
    make: (i) => ({ path: '/v1/messages', method: 'POST', headers, body: JSON.stringify({ model: 'm', max_tokens: 8, messages: [{ role: 'user', content: `${token(i) ?? 'plain'} load` }] }) }),
  });
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
