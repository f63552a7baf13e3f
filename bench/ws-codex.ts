// Codex CLI in its WebSocket mode, straight and through each real proxy (`npm run bench:ws-codex`):
// per proxy, RUNS turns one after another (bench/ws-codex-run.ts, each in its own loopback-only
// namespace); prints a Markdown table: the time from Codex's start to its answer (median), whether
// it fell back to HTTPS, its reconnect attempts, the seconds lost against the straight run's
// median, and what reached the upstream (docs/websockets.md holds a table made with it).
//   npm run bench:ws-codex [-- --runs 3] [-- --gateways none,nginx-plain] [-- --connect-timeout-ms 2000]
import { existsSync } from 'node:fs';
import { codexBinary } from '../src/real-clients/codex.js';
import { codexWsRun, wsUpstreamCounts, WS_GATEWAYS, type WsCodexRun, type WsGateway } from './ws-codex-run.js';

const args = process.argv.slice(2);
const arg = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const RUNS = Number(arg('--runs') ?? '3');
const connectTimeoutMs = arg('--connect-timeout-ms') === undefined ? undefined : Number(arg('--connect-timeout-ms'));
const gateways = (arg('--gateways')?.split(',') ?? [...WS_GATEWAYS]) as WsGateway[];
const unknown = gateways.filter((g) => !WS_GATEWAYS.includes(g));
if (unknown.length || !Number.isInteger(RUNS) || RUNS < 1) {
  console.error(`bench:ws-codex: --gateways takes ${WS_GATEWAYS.join(',')} and --runs a whole number >= 1 (got ${unknown.join(',') || RUNS})`);
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

const runs = new Map<WsGateway, WsCodexRun[]>();
for (const g of gateways) {
  const mine: WsCodexRun[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await codexWsRun(g, { connectTimeoutMs });
    if (r.error || !r.codex) throw new Error(`${g}: ${r.error ?? 'no Codex result'}`);
    mine.push(r);
    console.error(`${g} ${i + 1}/${RUNS}: answer at ${r.codex.firstItemMs} ms, fell back ${r.codex.fellBack}, retries ${r.codex.retries}, exit ${r.codex.code}`);
  }
  runs.set(g, mine);
}

const straight = median((runs.get('none') ?? []).map((r) => r.codex?.firstItemMs ?? NaN));
console.log(`Codex ${codexBinary()} with supports_websockets${connectTimeoutMs === undefined ? '' : `, websocket_connect_timeout_ms ${connectTimeoutMs}`}; ${RUNS} turns each, medians`);
console.log('| path | answer after (ms) | fell back | reconnects | lost (s) | reached the upstream |');
console.log('|---|---|---|---|---|---|');
for (const [g, rs] of runs) {
  const first = median(rs.map((r) => r.codex?.firstItemMs ?? NaN));
  const fell = rs.filter((r) => r.codex?.fellBack).length;
  const c = wsUpstreamCounts(rs[0]);
  const reached = `${c.upgrades} upgrades, ${c.plainGets} plain GETs, ${c.posts} POSTs, ${c.framesIn} frames in`;
  const lost = g === 'none' ? '-' : ((first - straight) / 1000).toFixed(1);
  console.log(`| ${g} | ${first} | ${fell}/${rs.length} | ${median(rs.map((r) => r.codex?.retries ?? 0))} | ${lost} | ${reached} (first turn) |`);
}
