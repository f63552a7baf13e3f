// Codex CLI in its WebSocket mode, straight and through each real proxy (`npm run bench:ws-codex`):
// per proxy, RUNS turns one after another (bench/ws-codex-run.ts, each in its own loopback-only
// namespace); prints a Markdown table: the time from the turn's start line to its answer line
// (median), whether it fell back to HTTPS, its failed connection attempts, the seconds lost against
// the straight run's median, and what reached the upstream (docs/real-gateways.md holds a table
// made with it). `--refuse 404,426` adds rows whose upstream refuses every upgrade (and every
// plain GET of the socket's path) with that status, what a gateway serving no WebSocket may
// answer: straight, or through the proxies `--refuse-via` names.
//   npm run bench:ws-codex [-- --runs 3] [-- --gateways none,nginx-plain] [-- --refuse 404,426 [--refuse-via none,nginx-plain]] [-- --connect-timeout-ms 2000]
import { existsSync } from 'node:fs';
import { codexBinary } from '../src/real-clients/codex.js';
import { codexWsRun, wsUpstreamCounts, WS_GATEWAYS, type WsCodexRun, type WsGateway } from './ws-codex-run.js';

const args = process.argv.slice(2);
const arg = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const RUNS = Number(arg('--runs') ?? '3');
const connectTimeoutMs = arg('--connect-timeout-ms') === undefined ? undefined : Number(arg('--connect-timeout-ms'));
const gateways = (arg('--gateways')?.split(',') ?? [...WS_GATEWAYS]) as WsGateway[];
const refusals = arg('--refuse')?.split(',').map(Number) ?? [];
const via = (arg('--refuse-via')?.split(',') ?? ['none']) as WsGateway[];
const unknown = [...[...gateways, ...via].filter((g) => !WS_GATEWAYS.includes(g)), ...refusals.filter((n) => !(n >= 100 && n <= 599)).map(String)];
if (unknown.length || !Number.isInteger(RUNS) || RUNS < 1) {
  console.error(`bench:ws-codex: --gateways takes ${WS_GATEWAYS.join(',')}, --refuse HTTP statuses and --runs a whole number >= 1 (got ${unknown.join(',') || RUNS})`);
  process.exit(2);
}
if (!existsSync(codexBinary())) {
  console.error(`bench:ws-codex: Codex CLI is not installed at ${codexBinary()} (GWC_CODEX_DIR)`);
  process.exit(2);
}
if (!gateways.includes('none')) gateways.unshift('none');

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
};

/** The turn's start line to its answer line: Codex's own start-up (0.3-1 s here, with the load) left out. */
const turnMs = (r: WsCodexRun) => (r.codex?.firstItemMs ?? NaN) - (r.codex?.turnStartedMs ?? NaN);
const rows: [string, WsGateway, number | undefined][] = [...gateways.map((g): [string, WsGateway, undefined] => [g, g, undefined]), ...via.flatMap((g) => refusals.map((n): [string, WsGateway, number] => [`${g}, upstream answers ${n}`, g, n]))];
const runs = new Map<string, WsCodexRun[]>();
for (const [name, g, refuse] of rows) {
  const mine: WsCodexRun[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await codexWsRun(g, { connectTimeoutMs, refuse });
    if (r.error || !r.codex) throw new Error(`${name}: ${r.error ?? 'no Codex result'}`);
    mine.push(r);
    console.error(`${name} ${i + 1}/${RUNS}: answer ${turnMs(r)} ms after turn.started, fell back ${r.codex.fellBack}, attempts ${r.codex.attempts}, exit ${r.codex.code}`);
  }
  runs.set(name, mine);
}

const straight = median((runs.get('none') ?? []).map(turnMs));
console.log(`Codex ${codexBinary()} with supports_websockets${connectTimeoutMs === undefined ? '' : `, websocket_connect_timeout_ms ${connectTimeoutMs}`}; ${RUNS} turns each, medians`);
console.log('| path | answer (ms after turn.started) | exit | fell back | failed connects | lost (s) | reached the upstream (first turn) |');
console.log('|---|---|---|---|---|---|---|');
for (const [name, rs] of runs) {
  const first = median(rs.map(turnMs));
  const fell = rs.filter((r) => r.codex?.fellBack).length;
  const c = wsUpstreamCounts(rs[0]);
  const reached = `${c.upgrades} upgrades, ${c.plainGets} plain GETs, ${c.posts} POSTs, ${c.framesIn} frames in`;
  const lost = name === 'none' || Number.isNaN(first) ? '-' : ((first - straight) / 1000).toFixed(1);
  const exits = [...new Set(rs.map((r) => r.codex?.code))].join('/');
  console.log(`| ${name} | ${Number.isNaN(first) ? 'none' : first} | ${exits} | ${fell}/${rs.length} | ${median(rs.map((r) => r.codex?.attempts ?? 0))} | ${lost} | ${reached} |`);
}
