// Runs inside a loopback-only network namespace (test/helpers/mcp/run.ts starts it with
// `unshare -n`): the tests' own MCP server (./server.mjs), optionally a gateway in front of it,
// and one third-party MCP client against it: the official conformance suite's server scenarios
// (`conformance server --url`, on a Node 22 line) or Claude Code (`claude -p --mcp-config`, with
// the stand-in model of ./model.mjs). Prints one JSON line: the client's end, the conformance
// verdicts by scenario, what the MCP server and the model saw.
//
// Usage: node ns-run.mjs '<json options>'
//   { root, work, job: 'conformance' | 'claude', gateway?: { args: [...] } | { cmd, argsFor }, node22?, conformance?,
//     claude?, suite?, scenario?, timeoutMs }
// `gateway.args`: a gw-conformance command that prints `<what> listening on URL`, `{UPSTREAM}`
// in it replaced by the MCP server's origin; none: the client talks to the server itself.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startModel } from './model.mjs';
import { startMcpServer } from './server.mjs';

const opts = JSON.parse(process.argv[2]);
const CLI = path.join(opts.root, 'bin', 'gw-conformance.js');
const START_MS = 15_000;
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

/** Starts the gateway (a gw-conformance command, or another program) and resolves with its URL. */
function startGateway(g, upstream) {
  const args = g.args.map((a) => a.replaceAll('{UPSTREAM}', upstream));
  const child = g.cmd ? spawn(g.cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] }) : spawn(process.execPath, [CLI, ...args], { cwd: opts.root, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { child, stdout: '', stderr: '' };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the gateway did not start within ${START_MS} ms: ${out.stderr}`)), START_MS);
    const seen = () => {
      const m = g.url ? [null, g.url] : /listening on (http:\/\/\S+?),?(\s|$)/.exec(out.stdout);
      if (m && !out.url && (!g.readyText || `${out.stdout}${out.stderr}`.includes(g.readyText) || g.url)) {
        out.url = m[1];
        clearTimeout(timer);
        resolve(out);
      }
    };
    child.stdout.on('data', (c) => ((out.stdout += c), seen()));
    child.stderr.on('data', (c) => ((out.stderr += c), seen()));
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`the gateway exited with ${code} before listening: ${out.stderr}`))));
    if (g.url) setImmediate(seen);
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

async function conformance(url) {
  const dir = path.join(opts.work, 'results');
  const args = [opts.conformance, 'server', '--url', url, '-o', dir, ...(opts.scenario ? ['--scenario', opts.scenario] : ['--suite', opts.suite ?? 'all'])];
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: opts.work };
  const end = await run(opts.node22, args, { env, cwd: opts.work, timeoutMs: opts.timeoutMs });
  return { end: { code: end.code, timedOut: end.timedOut, ms: end.ms, tail: end.stdout.slice(-4000), stderr: end.stderr.slice(-2000) }, scenarios: verdicts(dir) };
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

const result = {};
let server;
let gw;
try {
  server = await startMcpServer({ record: path.join(opts.work, 'mcp.jsonl'), listen: opts.serverListen });
  const origin = new URL(server.url).origin;
  if (opts.gateway) gw = await startGateway(opts.gateway, origin);
  const url = gw ? `${gw.url.replace(/\/$/, '')}/mcp` : server.url;
  result.url = url;
  Object.assign(result, opts.job === 'claude' ? await claude(url) : await conformance(url));
  result.server = server.exchanges;
} catch (e) {
  result.error = String(e?.stack ?? e);
} finally {
  if (gw && gw.child.exitCode === null) gw.child.kill('SIGTERM');
  await server?.close();
}
result.gateway = gw && { url: gw.url, stderr: gw.stderr.slice(-2000) };
process.stdout.write(`${JSON.stringify(result)}\n`);
