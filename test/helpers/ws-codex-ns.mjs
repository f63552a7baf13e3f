// Runs inside a loopback-only network namespace (bench/ws-codex.ts and test/real/sockets/ start it
// with `unshare -n`): the WebSocket-speaking upstream (ws-upstream.mjs), one real proxy in front
// of it (or none), and one `codex exec --json` in its WebSocket mode (`supports_websockets`)
// pointed at the proxy. Prints one JSON line: how Codex ended, when its first event came, whether
// it fell back to HTTPS, and what reached the upstream (upgrades, plain GETs, POSTs, frames).
//
// Usage: node ws-codex-ns.mjs '<json options>'
//   { root, work, gateway: 'none'|'nginx-plain'|'nginx-streaming'|'nginx-websockets'|'caddy'|'haproxy'|'reference',
//     connectTimeoutMs?, refuse?: HTTP status the upstream answers every upgrade with, timeoutMs }
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const opts = JSON.parse(process.argv[2]);
const { root, work } = opts;
const dist = (p) => import(pathToFileURL(path.join(root, 'dist', p)).href);
const { codexBinary, codexConfig } = await dist('src/real-clients/codex.js');
const UPSTREAM = 28101;
const LISTEN = 28100;
const START_MS = 15_000;
const STOP_MS = 5_000;
const FALLBACK = 'Falling back from WebSockets to HTTPS transport';

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const ex = (...p) => path.join(root, 'examples', ...p);
const sh = (...p) => path.join(root, 'scripts', ...p);
/** How each proxy is started: the same commands as the real-gateway tests use. */
const GATEWAYS = {
  'nginx-plain': ['sh', [sh('nginx-gateway.sh'), ex('nginx', 'plain.conf'), LISTEN, UPSTREAM, work]],
  'nginx-streaming': ['sh', [sh('nginx-gateway.sh'), ex('nginx', 'streaming.conf'), LISTEN, UPSTREAM, work]],
  'nginx-websockets': ['sh', [sh('nginx-gateway.sh'), ex('nginx', 'websockets.conf'), LISTEN, UPSTREAM, work]],
  haproxy: ['sh', [sh('haproxy-gateway.sh'), ex('haproxy', 'haproxy.cfg'), LISTEN, UPSTREAM, work]],
  caddy: ['caddy', ['run', '--adapter', 'caddyfile', '--config', ex('caddy', 'plain.Caddyfile')], { GWC_SITE: `http://127.0.0.1:${LISTEN}`, GWC_UPSTREAM: `http://127.0.0.1:${UPSTREAM}`, XDG_DATA_HOME: work, XDG_CONFIG_HOME: work }],
  reference: [process.execPath, [path.join(root, 'bin', 'gw-conformance.js'), 'reference', '--listen', `127.0.0.1:${LISTEN}`, '--upstream', `http://127.0.0.1:${UPSTREAM}`]],
};

function start(cmd, args, env = {}) {
  const child = spawn(cmd, args.map(String), { cwd: work, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { child, stdout: '', stderr: '' };
  child.stdout.on('data', (c) => (out.stdout += c));
  child.stderr.on('data', (c) => (out.stderr += c));
  return out;
}

const connects = (port) =>
  new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

/** Resolves once the port accepts a connection; rejects when the process ends first or START_MS pass. */
async function listening(proc, port, what) {
  const deadline = performance.now() + START_MS;
  while (!(await connects(port))) {
    if (proc.child.exitCode !== null) throw new Error(`${what} exited with ${proc.child.exitCode}: ${proc.stderr.slice(-2000)}`);
    if (performance.now() > deadline) throw new Error(`${what} did not listen on ${port} within ${START_MS} ms: ${proc.stderr.slice(-2000)}`);
    await new Promise((r) => setImmediate(r));
  }
}

function stop(proc) {
  if (!proc || proc.child.exitCode !== null || proc.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => proc.child.kill('SIGKILL'), STOP_MS);
    proc.child.once('exit', () => (clearTimeout(kill), resolve()));
    proc.child.kill('SIGTERM');
  });
}

/** One `codex exec --json` turn, timed from its start: its first item, its end, its output. */
function runCodex(base) {
  const home = path.join(work, 'home');
  const codexHome = path.join(home, '.codex');
  const project = path.join(home, 'project');
  mkdirSync(project, { recursive: true });
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(path.join(codexHome, 'config.toml'), codexConfig({ base, headers: [] }, { connectTimeoutMs: opts.connectTimeoutMs }));
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CODEX_HOME: codexHome, GWC_CODEX_KEY: 'sk-gwc-ws-measure' };
  const t0 = performance.now();
  const child = spawn(codexBinary(process.env), ['exec', '--json', '--skip-git-repo-check', 'Say hello.'], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
  // Each stdout line timed as it arrives: the turn's start, the fallback notice (an error item), the answer.
  const r = { stdout: '', stderr: '', firstItemMs: null, turnStartedMs: null, fellBackMs: null, timedOut: false };
  let partial = '';
  child.stdout.on('data', (c) => {
    r.stdout += c;
    const now = Math.round(performance.now() - t0);
    const lines = (partial + c).split('\n');
    partial = lines.pop();
    for (const l of lines) {
      if (r.turnStartedMs === null && l.includes('"type":"turn.started"')) r.turnStartedMs = now;
      if (r.fellBackMs === null && l.includes(FALLBACK)) r.fellBackMs = now;
      if (r.firstItemMs === null && l.includes('"type":"item.completed"') && l.includes('"type":"agent_message"')) r.firstItemMs = now;
    }
  });
  child.stderr.on('data', (c) => (r.stderr += c));
  const timer = setTimeout(() => ((r.timedOut = true), child.kill('SIGKILL')), opts.timeoutMs);
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ ...r, code, ms: Math.round(performance.now() - t0) });
    });
  });
}

const result = { gateway: opts.gateway };
const log = path.join(work, 'upstream.jsonl');
writeFileSync(log, '');
let up;
let gw;
try {
  up = start(process.execPath, [path.join(root, 'test', 'helpers', 'ws-upstream.mjs'), root, UPSTREAM, log, ...(opts.refuse ? [opts.refuse] : [])]);
  await listening(up, UPSTREAM, 'the ws upstream');
  if (opts.gateway !== 'none') {
    const [cmd, args, env] = GATEWAYS[opts.gateway];
    gw = start(cmd, args, env);
    await listening(gw, LISTEN, opts.gateway);
  }
  const c = await runCodex(`http://127.0.0.1:${opts.gateway === 'none' ? UPSTREAM : LISTEN}`);
  const item = c.stdout.split('\n').find((l) => l.includes('"item.completed"') && l.includes('"agent_message"'));
  const retries = c.stdout.split('\n').filter((l) => l.includes('Reconnecting...')).length;
  const attempts = c.stderr.split('\n').filter((l) => l.includes('failed to connect to Responses WebSocket')).length;
  result.codex = { code: c.code, ms: c.ms, timedOut: c.timedOut, turnStartedMs: c.turnStartedMs, firstItemMs: c.firstItemMs, fellBack: c.stderr.includes(FALLBACK) || c.stdout.includes(FALLBACK), fellBackMs: c.fellBackMs, retries, attempts, answer: item ? JSON.parse(item).item?.text ?? null : null };
  result.codex.notes = [...new Set(`${c.stderr}\n${c.stdout}`.split('\n').filter((l) => /websocket|reconnecting|retry|falling back/i.test(l)).map((l) => l.slice(0, 300)))].slice(0, 12);
} catch (e) {
  result.error = e.message;
} finally {
  await stop(gw);
  await stop(up);
}
result.upstream = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
result.gatewayLog = gw ? gw.stderr.slice(-1500) : null;
process.stdout.write(`${JSON.stringify(result)}\n`);
