// Runs the harness (the built CLI, in its own process) against a hostile gateway and gathers
// everything it wrote: console, report files, peak RSS, the connections it opened.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HostileGateway, hostileCase } from './hostile-gateway.js';
import { freePort, ROOT } from './cli.js';

export interface HostileRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** Peak RSS of the harness process, bytes. */
  rss: number;
  out: string;
  files: { json?: string; junit?: string; html?: string };
  connections: Array<{ host: string; port: number | null }>;
  target: string;
  upstreamPort: number;
}

/**
 * Ports handed out to runs of this process. Cases run at once: a port found free for one run's
 * upstream (bound later, by the harness) must not go to another run's gateway or upstream.
 */
const leased = new Set<number>();
async function leasePort(): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const port = await freePort();
    if (!leased.has(port)) {
      leased.add(port);
      return port;
    }
  }
  throw new Error('no free loopback port that was not already handed out');
}

/**
 * One run of the harness against the hostile gateway `name`. The upstream's port is found free
 * here and bound by the harness a moment later: a process of another test file can take it in
 * between. That collision is the machine's, not a verdict: the run is made again on new ports
 * (at most twice more), and only when the harness said so (exit 2, the address in use).
 */
export async function hostileRun(name: string, opts: { token: string; args: string[]; killAfterMs: number }): Promise<HostileRun> {
  for (let attempt = 1; ; attempt++) {
    const r = await hostileRunOnce(name, opts);
    if (attempt >= 3 || r.code !== 2 || !/is already in use/.test(r.stderr)) return r;
  }
}

async function hostileRunOnce(name: string, opts: { token: string; args: string[]; killAfterMs: number }): Promise<HostileRun> {
  const upstreamPort = await leasePort();
  const gw = new HostileGateway(`http://127.0.0.1:${upstreamPort}`, hostileCase(name));
  const target = await gw.start(await leasePort());
  const out = mkdtempSync(join(tmpdir(), `gwc-hostile-${name}-`));
  const netLog = join(out, 'net.log');
  const rssFile = join(out, 'rss');
  const t0 = Date.now();
  try {
    const r = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
      const p = spawn(
        process.execPath,
        ['--import', join(ROOT, 'test/helpers/hostile-preload.mjs'), join(ROOT, 'bin/gw-conformance.js'), 'run', '--target', target, '--upstream-listen', `127.0.0.1:${upstreamPort}`, '--token', opts.token, '--out', join(out, 'reports'), '--seed', '7', ...opts.args],
        { cwd: out, env: { ...process.env, GWC_NET_LOG: netLog, GWC_RSS_FILE: rssFile, GWC_TOKEN: '', NO_COLOR: '1' } },
      );
      let stdout = '';
      let stderr = '';
      p.stdout.on('data', (d) => (stdout += d));
      p.stderr.on('data', (d) => (stderr += d));
      // A bound on the test, not synchronisation: a harness that never ends fails it.
      const timer = setTimeout(() => p.kill('SIGKILL'), opts.killAfterMs);
      p.on('close', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, stdout, stderr });
      });
    });
    const read = (f: string) => (existsSync(join(out, 'reports', f)) ? readFileSync(join(out, 'reports', f), 'utf8') : undefined);
    return {
      ...r,
      ms: Date.now() - t0,
      rss: existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) * 1024 : NaN,
      out,
      files: { json: read('report.json'), junit: read('junit.xml'), html: read('report.html') },
      connections: existsSync(netLog)
        ? readFileSync(netLog, 'utf8')
            .trim()
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as { host: string; port: number | null })
        : [],
      target,
      upstreamPort,
    };
  } finally {
    await gw.stop();
  }
}
