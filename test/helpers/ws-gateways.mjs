// The real proxies WebSockets are measured and tested through, started the way the real-gateway
// tests start them (scripts/nginx-gateway.sh, scripts/haproxy-gateway.sh, `caddy run` with the
// examples' configs), and the small process helpers both callers need: one listening port waited
// for, one child stopped. Shared by ws-codex-ns.mjs (inside a namespace) and
// test/real/proxies/websockets.test.ts (on the host's loopback). Types: ws-gateways.d.mts.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

export const WS_PROXIES = ['nginx-plain', 'nginx-streaming', 'nginx-websockets', 'caddy', 'haproxy', 'reference'];
const START_MS = 15_000;
const STOP_MS = 5_000;

/** The command, arguments and extra environment that start `name` on `listen`, forwarding to `upstream`, with `work` its own folder. */
export function proxyCommand(name, root, listen, upstream, work) {
  const ex = (...p) => path.join(root, 'examples', ...p);
  const sh = (...p) => path.join(root, 'scripts', ...p);
  const nginx = (conf) => ['sh', [sh('nginx-gateway.sh'), ex('nginx', conf), listen, upstream, work], {}];
  switch (name) {
    case 'nginx-plain':
      return nginx('plain.conf');
    case 'nginx-streaming':
      return nginx('streaming.conf');
    case 'nginx-websockets':
      return nginx('websockets.conf');
    case 'haproxy':
      return ['sh', [sh('haproxy-gateway.sh'), ex('haproxy', 'haproxy.cfg'), listen, upstream, work], {}];
    case 'caddy':
      // Caddy keeps its state under XDG folders: the run's own work folder.
      return ['caddy', ['run', '--adapter', 'caddyfile', '--config', ex('caddy', 'plain.Caddyfile')], { GWC_SITE: `http://127.0.0.1:${listen}`, GWC_UPSTREAM: `http://127.0.0.1:${upstream}`, XDG_DATA_HOME: work, XDG_CONFIG_HOME: work }];
    case 'reference':
      return [process.execPath, [path.join(root, 'bin', 'gw-conformance.js'), 'reference', '--listen', `127.0.0.1:${listen}`, '--upstream', `http://127.0.0.1:${upstream}`], {}];
    default:
      throw new Error(`no such proxy: ${name} (one of ${WS_PROXIES.join(', ')})`);
  }
}

/** Starts a child with its output kept (stdout, stderr) in `cwd`. */
export function startChild(cmd, args, env, cwd) {
  const child = spawn(cmd, args.map(String), { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** Resolves once the port accepts a connection; rejects when the child ends first or 15 s pass (a bound, it times nothing). */
export async function listening(proc, port, what) {
  const deadline = performance.now() + START_MS;
  while (!(await connects(port))) {
    if (proc.child.exitCode !== null) throw new Error(`${what} exited with ${proc.child.exitCode}: ${proc.stderr.slice(-2000)}`);
    if (performance.now() > deadline) throw new Error(`${what} did not listen on ${port} within ${START_MS} ms: ${proc.stderr.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** SIGTERM, SIGKILL after 5 s; resolves once the child has exited. */
export function stopChild(proc) {
  if (!proc || proc.child.exitCode !== null || proc.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => proc.child.kill('SIGKILL'), STOP_MS);
    proc.child.once('exit', () => (clearTimeout(kill), resolve()));
    proc.child.kill('SIGTERM');
  });
}
