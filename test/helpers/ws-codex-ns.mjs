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
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { listening, proxyCommand, startChild, stopChild } from './ws-gateways.mjs';

const opts = JSON.parse(process.argv[2]);
const { root, work } = opts;
const { codexBinary, codexConfig } = await import(pathToFileURL(path.join(root, 'dist', 'src', 'real-clients', 'codex.js')).href);
// A namespace of its own: nothing else listens in it.
const UPSTREAM = 28101;
const LISTEN = 28100;
const FALLBACK = 'Falling back from WebSockets to HTTPS transport';

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

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
  up = startChild(process.execPath, [path.join(root, 'test', 'helpers', 'ws-upstream.mjs'), root, UPSTREAM, log, ...(opts.refuse ? [opts.refuse] : [])], {}, work);
  await listening(up, UPSTREAM, 'the ws upstream');
  if (opts.gateway !== 'none') {
    const [cmd, args, env] = proxyCommand(opts.gateway, root, LISTEN, UPSTREAM, work);
    gw = startChild(cmd, args, env, work);
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
  await stopChild(gw);
  await stopChild(up);
}
result.upstream = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
result.gatewayLog = gw ? gw.stderr.slice(-1500) : null;
process.stdout.write(`${JSON.stringify(result)}\n`);
