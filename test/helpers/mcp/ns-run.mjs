// Runs inside a loopback-only network namespace (test/helpers/mcp/run.ts starts it with
// `unshare -n`): the tests' own MCP server (./server.mjs), optionally a gateway in front of it,
// and one third-party MCP client against it: the official conformance suite's server scenarios
// (`conformance server --url`, on a Node 22 line) or Claude Code (`claude -p --mcp-config`, with
// the stand-in model of ./model.mjs); or, for the same proxy, our own mcp checks (`ours`: the
// built CLI's `run --protocols mcp`, its recording upstream in the server's place). Prints one
// JSON line: the client's end, the verdicts (theirs by scenario, or ours by check), what the MCP
// server and the model saw.
//
// Usage: node ns-run.mjs '<json options>'
//   { root, work, job: 'conformance' | 'claude' | 'ours', gateway?, serverListen?, node22?, conformance?,
//     claude?, apiKey?, suite?, scenarios?, timeoutMs }
// `gateway`: `{ args }`, a gw-conformance command that prints `listening on URL`, `{UPSTREAM}` in
// it replaced by the MCP server's origin (`{WORK}` by the run's folder); or `{ cmd, args, env, listen }`, a proxy (nginx, caddy,
// haproxy) listening on `listen`. None: the client talks to the server itself.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { startModel } from './model.mjs';
import { startMcpServer } from './server.mjs';

const opts = JSON.parse(process.argv[2]);
const CLI = path.join(opts.root, 'bin', 'gw-conformance.js');
const START_MS = 15_000;
const STOP_MS = 5_000;
/** The MCP server's name in Claude Code's configuration, and the tool the model asks it to call. */
export const SERVER_NAME = 'gwc';
const TOOL = 'test_simple_text';

/** A child bounded by `timeoutMs`, its output kept; resolves when it ends. */
function run(cmd, args, { env, cwd, timeoutMs }) {
  const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let timedOut = false;
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const timer = setTimeout(() => ((timedOut = true), child.kill('SIGKILL')), timeoutMs);
  const t0 = performance.now();
  return new Promise((resolve) => {
    child.once('error', (e) => (clearTimeout(timer), resolve({ code: null, stdout, stderr: `${stderr}${e.message}`, timedOut, ms: 0 })));
    child.once('close', (code) => (clearTimeout(timer), resolve({ code, stdout, stderr, timedOut, ms: Math.round(performance.now() - t0) })));
  });
}

/** Resolves once a TCP connection to `listen` succeeds (in a fresh namespace nothing else holds the port), within START_MS. */
async function connects(listen, out) {
  const [host, port] = listen.split(':');
  const deadline = performance.now() + START_MS;
  for (let backoff = 10; ; backoff = Math.min(backoff * 2, 200)) {
    const ok = await new Promise((resolve) => {
      const sock = net.connect(Number(port), host, () => (sock.destroy(), resolve(true)));
      sock.once('error', () => resolve(false));
    });
    if (ok) return;
    if (out.child.exitCode !== null) throw new Error(`the gateway exited with ${out.child.exitCode} before listening: ${out.stderr}`);
    if (performance.now() > deadline) throw new Error(`the gateway did not listen on ${listen} within ${START_MS} ms: ${out.stderr}`);
    // The wait of a start-up probe, not a synchronisation: the program says nothing when it listens.
    await new Promise((r) => setTimeout(r, backoff));
  }
}

/**
 * Starts the gateway and resolves with its URL: a gw-conformance command (`args`), which prints
 * `listening on URL`, or a program (`cmd`, `args`, `env`) listening on `listen`.
 */
async function startGateway(g, upstream) {
  const fill = (a) => a.replaceAll('{UPSTREAM}', upstream).replaceAll('{WORK}', opts.work);
  const args = g.args.map(fill);
  const env = { ...process.env, ...Object.fromEntries(Object.entries(g.env ?? {}).map(([k, v]) => [k, fill(v)])) };
  const child = g.cmd ? spawn(g.cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] }) : spawn(process.execPath, [CLI, ...args], { cwd: opts.root, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { child, stdout: '', stderr: '' };
  child.stdout.on('data', (c) => (out.stdout += c));
  child.stderr.on('data', (c) => (out.stderr += c));
  if (g.cmd) {
    await connects(g.listen, out);
    out.url = `http://${g.listen}`;
    return out;
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the gateway did not start within ${START_MS} ms: ${out.stderr}`)), START_MS);
    child.stdout.on('data', () => {
      const m = /listening on (http:\/\/\S+?),?(\s|$)/.exec(out.stdout);
      if (m && !out.url) {
        out.url = m[1];
        clearTimeout(timer);
        resolve(out);
      }
    });
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`the gateway exited with ${code} before listening: ${out.stderr}`))));
  });
}

/** SIGTERM, then SIGKILL past STOP_MS; resolves when the gateway has exited. */
function stopGateway(gw) {
  if (!gw || gw.child.exitCode !== null || gw.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => gw.child.kill('SIGKILL'), STOP_MS);
    gw.child.once('exit', () => (clearTimeout(kill), resolve()));
    gw.child.kill('SIGTERM');
  });
}

/** The conformance suite's verdicts, by scenario: each check's id, status and message. */
function verdicts(dir) {
  const out = {};
  if (!existsSync(dir)) return out;
  for (const d of readdirSync(dir)) {
    const m = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(d);
    const file = path.join(dir, d, 'checks.json');
    if (!m || !existsSync(file)) continue;
    out[m[1]] = JSON.parse(readFileSync(file, 'utf8')).map((c) => ({ id: c.id, status: c.status, message: c.errorMessage ?? '' }));
  }
  return out;
}

/** The suite's server scenarios: the whole `suite`, or each of `scenarios` in turn, into one results folder. */
async function conformance(url) {
  const dir = path.join(opts.work, 'results');
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: opts.work };
  const sets = opts.scenarios ? opts.scenarios.map((s) => ['--scenario', s]) : [['--suite', opts.suite ?? 'all']];
  const end = { code: 0, timedOut: false, ms: 0, tail: '', stderr: '' };
  for (const set of sets) {
    const e = await run(opts.node22, [opts.conformance, 'server', '--url', url, '-o', dir, ...set], { env, cwd: opts.work, timeoutMs: opts.timeoutMs });
    end.code = e.code === null || end.code === null ? null : Math.max(end.code, e.code);
    end.timedOut ||= e.timedOut;
    end.ms += e.ms;
    end.tail = `${end.tail}${e.stdout.slice(-4000)}`.slice(-8000);
    end.stderr = `${end.stderr}${e.stderr.slice(-1000)}`.slice(-2000);
  }
  return { end, scenarios: verdicts(dir) };
}

async function claude(url) {
  const model = await startModel({ record: path.join(opts.work, 'model.jsonl'), tool: `mcp__${SERVER_NAME}__${TOOL}` });
  const home = path.join(opts.work, 'home');
  mkdirSync(home, { recursive: true });
  const config = path.join(opts.work, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { [SERVER_NAME]: { type: 'http', url } } }));
  // Only what the client needs: nothing of the caller's environment (no other credential) leaks in.
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: opts.apiKey,
    // The MCP tools offered to the model as they are, not behind the deferred tool search.
    ENABLE_TOOL_SEARCH: 'false',
  };
  const args = ['-p', `Call the ${TOOL} tool of the ${SERVER_NAME} server and say what it answered.`, '--mcp-config', config, '--strict-mcp-config', '--allowedTools', `mcp__${SERVER_NAME}__${TOOL}`];
  try {
    const end = await run(opts.claude, args, { env, cwd: home, timeoutMs: opts.timeoutMs });
    const lines = (f) => (existsSync(f) ? readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);
    return { end: { code: end.code, timedOut: end.timedOut, ms: end.ms, stdout: end.stdout.slice(-2000), stderr: end.stderr.slice(-2000) }, model: lines(path.join(opts.work, 'model.jsonl')) };
  } finally {
    await model.close();
  }
}

/** Our own run (`gw-conformance run --protocols mcp`) through the gateway; its recording upstream listens where the server would. */
async function ours(url) {
  const out = path.join(opts.work, 'ours');
  const args = [CLI, 'run', '--target', url, '--upstream-listen', opts.serverListen, '--no-token', '--protocols', 'mcp', '--only', 'mcp.*', '--seed', '1', '--out', out];
  const end = await run(process.execPath, args, { cwd: opts.root, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: opts.work }, timeoutMs: opts.timeoutMs });
  const file = path.join(out, 'report.json');
  const report = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : { results: [] };
  const results = report.results.map((r) => ({ id: r.id, outcome: r.outcome, message: r.message }));
  return { end: { code: end.code, timedOut: end.timedOut, ms: end.ms, tail: end.stdout.slice(-4000), stderr: end.stderr.slice(-2000) }, ours: results };
}

const result = {};
let server;
let gw;
try {
  // Our own run brings its own upstream (the recording upstream's MCP server) to serverListen.
  if (opts.job !== 'ours') server = await startMcpServer({ record: path.join(opts.work, 'mcp.jsonl'), listen: opts.serverListen });
  const origin = server ? new URL(server.url).origin : `http://${opts.serverListen}`;
  if (opts.gateway) gw = await startGateway(opts.gateway, origin);
  const base = gw ? gw.url.replace(/\/$/, '') : origin;
  result.url = opts.job === 'ours' ? base : `${base}/mcp`;
  const jobs = { claude, conformance, ours };
  Object.assign(result, await jobs[opts.job](result.url));
  result.server = server?.exchanges ?? [];
} catch (e) {
  result.error = String(e?.stack ?? e);
} finally {
  // The server first: it ends the streams still open, which a proxy's graceful stop would wait for.
  await server?.close();
  await stopGateway(gw);
}
result.gateway = gw && { url: gw.url, stderr: gw.stderr.slice(-2000) };
process.stdout.write(`${JSON.stringify(result)}\n`);
