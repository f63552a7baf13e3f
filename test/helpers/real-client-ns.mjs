// Runs inside a loopback-only network namespace (test/real/clients/real-client.test.ts starts it with
// `unshare -n`): the recording upstream in capture mode, the reference gateway in front of it,
// and one `claude -p` pointed at the gateway. Prints one JSON line: how each part ended.
//
// Usage: node real-client-ns.mjs '<json options>'
//   { root, claude, home, capture, prompt, token, apiKey?, discovery, delays: ['/v1/models=10000', ...],
//     direct?, timeoutMs }
// `direct`: no gateway; the client talks to the recording upstream itself (to see every request
// it makes, HEAD included: the reference gateway answers HEAD / without forwarding it).
import { spawn } from 'node:child_process';
import path from 'node:path';

const opts = JSON.parse(process.argv[2]);
const CLI = path.join(opts.root, 'bin', 'gw-conformance.js');
const START_MS = 15_000;
const STOP_MS = 5_000;

/** Starts a long-running CLI command and resolves with its URL once it prints `<what> listening on <url>`. */
function startServer(args, what) {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: opts.root, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { child, stdout: '', stderr: '' };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start within ${START_MS} ms: ${out.stderr}`)), START_MS);
    child.stderr.on('data', (c) => (out.stderr += c));
    child.stdout.on('data', (c) => {
      out.stdout += c;
      const m = new RegExp(`${what} listening on (http://\\S+?),?(\\s|$)`).exec(out.stdout);
      if (m && !out.url) {
        out.url = m[1];
        clearTimeout(timer);
        resolve(out);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code} before listening: ${out.stderr}`));
    });
  });
}

function stopServer(s) {
  if (!s || s.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => s.child.kill('SIGKILL'), STOP_MS);
    s.child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    s.child.kill('SIGTERM');
  });
}

function runClaude(gateway) {
  // Only what the client needs: nothing of the caller's environment (no other credential) leaks in.
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: opts.home,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    ANTHROPIC_BASE_URL: gateway,
    ANTHROPIC_AUTH_TOKEN: opts.token,
    ...(opts.apiKey ? { ANTHROPIC_API_KEY: opts.apiKey } : {}),
    ...(opts.discovery ? { CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY: '1' } : {}),
  };
  const t0 = performance.now();
  const child = spawn(opts.claude, ['-p', opts.prompt], { cwd: opts.home, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let timedOut = false;
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, opts.timeoutMs);
  return new Promise((resolve) => {
    child.once('error', (e) => {
      clearTimeout(timer);
      resolve({ code: null, signal: null, stdout, stderr: `${stderr}${e.message}`, timedOut, ms: Math.round(performance.now() - t0) });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut, ms: Math.round(performance.now() - t0) });
    });
  });
}

const result = {};
let mock;
let gw;
try {
  mock = await startServer(['mock', '--listen', '127.0.0.1:0', '--capture', opts.capture, ...(opts.delays ?? []).flatMap((d) => ['--capture-delay', d])], 'recording upstream');
  // A long upstream time-out: the gateway must not answer a slow discovery before the client gives up.
  if (!opts.direct) gw = await startServer(['reference', '--listen', '127.0.0.1:0', '--upstream', mock.url, '--upstream-timeout-ms', '60000'], 'reference gateway');
  result.claude = await runClaude(gw ? gw.url : mock.url);
} catch (e) {
  result.error = e.message;
} finally {
  await stopServer(gw);
  await stopServer(mock);
}
result.mock = mock && { stdout: mock.stdout, stderr: mock.stderr };
result.gateway = gw && { url: gw.url, stderr: gw.stderr };
process.stdout.write(`${JSON.stringify(result)}\n`);
