// The resource, frontier and ceiling figures of gateways the harness launches: the load profile's
// memory check and frontier sweep (`--load-frontier`) through the reference gateway (passing
// through, and translating messages into chat completions: the frontier's translated route) and through
// nginx with examples/nginx/plain.conf (as a process, and as a container when docker and the
// image gwc-nginx:bookworm are there), each run as a user runs it (the built CLI, a process of its
// own), then one table of what the reports say. The figures for docs/performance.md.
//   npm run bench:resources [-- --only reference|reference-translating|nginx|nginx-image] [-- --no-frontier]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mb, type GatewayResources } from '../src/core/resources.js';
import { ROOT } from '../src/core/paths.js';
import { cpuText } from '../src/load/calibrate.js';
import type { RunReport } from '../src/report/shared/types.js';

const BIN = join(ROOT, 'bin', 'gw-conformance.js');
const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : null;
const frontier = !args.includes('--no-frontier');
const conf = readFileSync(join(ROOT, 'examples', 'nginx', 'plain.conf'), 'utf8').replace(/127\.0\.0\.1:8080(?!\d)/g, '127.0.0.1:{listen_port}').replace(/127\.0\.0\.1:18080(?!\d)/g, '127.0.0.1:{upstream_port}');
const IN_IMAGE = 'mkdir -p /gwc && printf "%s" "$GWC_NGINX_CONF" > /gwc/nginx.conf && exec nginx -p /gwc/ -c /gwc/nginx.conf -e stderr';
const hasImage = spawnSync('docker', ['image', 'inspect', 'gwc-nginx:bookworm'], { stdio: 'ignore', timeout: 10_000 }).status === 0;

const GATEWAYS: Array<{ name: string; launch: string[]; skip?: string }> = [
  { name: 'reference', launch: ['--gateway-cmd', `exec "${process.execPath}" "${BIN}" reference --listen 127.0.0.1:{listen_port} --upstream {upstream_url}`] },
  // Translating messages into chat completions (the fault translate-clean is the clean translating mode): the frontier adds the translated route beside chat passed through.
  { name: 'reference-translating', launch: ['--protocols', 'messages,chat', '--gateway-cmd', `exec "${process.execPath}" "${BIN}" reference --fault translate-clean --listen 127.0.0.1:{listen_port} --upstream {upstream_url}`] },
  { name: 'nginx', launch: ['--gateway-cmd', `sh ${join(ROOT, 'scripts', 'nginx-gateway.sh')} ${join(ROOT, 'examples', 'nginx', 'plain.conf')} {listen_port} {upstream_port} {workdir}`] },
  { name: 'nginx-image', launch: ['--gateway-image', 'gwc-nginx:bookworm', '--gateway-env', `GWC_NGINX_CONF=${conf}`, '--gateway-arg', 'sh', '--gateway-arg', '-c', '--gateway-arg', IN_IMAGE], skip: hasImage ? undefined : 'no docker daemon or no image gwc-nginx:bookworm (scripts/start-dockerd.sh, scripts/build-nginx-image.sh)' },
];

function run(g: (typeof GATEWAYS)[number]): RunReport | null {
  const out = mkdtempSync(join(tmpdir(), `gwc-bench-resources-${g.name}-`));
  const checks = ['--only', 'load.resources.growth', ...(frontier && g.name !== 'nginx-image' ? ['--only', 'load.perf.frontier', '--load-frontier'] : [])];
  const r = spawnSync(process.execPath, [BIN, 'run', '--profile', 'load', ...g.launch, ...checks, '--load-requests', '2000', '--seed', '1', '--reporter', 'json', '--out', out], { encoding: 'utf8', timeout: 900_000 });
  try {
    return JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunReport;
  } catch {
    console.error(`bench:resources: ${g.name}: no report (exit ${r.status}): ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ')}`);
    return null;
  }
}

const line = (name: string, r: GatewayResources) =>
  `| ${name} | ${mb(r.memory.idle)} | ${mb(r.memory.steady)} | ${mb(r.memory.peak)} | ${mb(r.memory.afterLoad)} | ${mb(r.memory.growthPer10k)} | ${r.cpu.idle ?? '-'} / ${r.cpu.steady ?? '-'} / ${r.cpu.peak ?? '-'} | ${r.coldStart.readyMs ?? '-'} / ${r.coldStart.firstAnswerMs ?? '-'} ms | ${r.imageBytes === undefined ? '' : mb(r.imageBytes)} |`;

const rows: string[] = [];
const sweeps: string[] = [];
for (const g of GATEWAYS.filter((x) => !only || x.name === only)) {
  if (g.skip) {
    console.error(`bench:resources: ${g.name} skipped: ${g.skip}`);
    continue;
  }
  const r = run(g);
  if (!r) continue;
  if (r.launched?.resources) rows.push(line(g.name, r.launched.resources));
  const cal = r.load?.calibration;
  if (cal) sweeps.push(`${g.name}: calibration straight p50 ${cal.latencyMs.p50} ms, p99 ${cal.latencyMs.p99} ms at ${cal.achieved}/s of ${cal.rate}/s; CPU work ${cpuText(cal)}`);
  for (const x of r.results) sweeps.push(`${g.name}: ${x.id} ${x.outcome}: ${x.message}`);
  const f = r.results.find((x) => x.id === 'load.perf.frontier')?.evidence.sweeps as Array<{ workload: string; steps: Array<{ rate: number; added: { p50: number; p99: number }; direct: { achieved: number } }> }> | undefined;
  for (const s of f ?? []) for (const st of s.steps) sweeps.push(`| ${g.name} | ${s.workload} | ${st.rate}/s | ${st.added.p50} | ${st.added.p99} | ${st.direct.achieved}/s |`);
}
console.log('| gateway | memory idle | steady | peak | after the load | growth per 10k requests | CPU % idle / steady / peak | cold start: listening / first answer | image |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
console.log('');
for (const s of sweeps) console.log(s);
