// A long-running command of the built CLI (`mock`, `reference`) as a process of its own, for the
// benches and tests that start load shards beside it: its URL once it says it listens, and a
// bounded wait for lines of its output.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../src/core/paths.js';

export interface Served {
  url: string;
  /** Resolves with its output once it holds `n` matches of `re`; rejects past `timeoutMs` or when it exits. */
  until(re: RegExp, n: number, timeoutMs: number): Promise<string>;
  stop(): void;
}

/** Starts `gw-conformance ARGS` and resolves once it prints `listening on http://127.0.0.1:PORT` (within `timeoutMs`). */
export async function serveCli(args: string[], timeoutMs: number): Promise<Served> {
  const p: ChildProcess = spawn(process.execPath, [join(ROOT, 'bin', 'gw-conformance.js'), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const waiters = new Set<() => void>();
  p.stdout!.on('data', (d) => {
    out += d;
    for (const w of [...waiters]) w();
  });
  const until = (re: RegExp, n: number, ms: number) =>
    new Promise<string>((resolve, reject) => {
      const all = new RegExp(re.source, 'g');
      const gone = (code: number | null) => end(new Error(`${args[0]} exited ${code}: ${out}`));
      const end = (e: Error | null) => {
        waiters.delete(check);
        clearTimeout(timer);
        p.off('exit', gone);
        if (e) reject(e);
        else resolve(out);
      };
      const check = () => {
        if ((out.match(all)?.length ?? 0) >= n) end(null);
      };
      const timer = setTimeout(() => end(new Error(`no ${n} × ${re} from ${args[0]} within ${ms / 1000} s: ${out}`)), ms);
      p.on('exit', gone);
      waiters.add(check);
      check();
    });
  try {
    const line = await until(/listening on http:\/\/127\.0\.0\.1:\d+/, 1, timeoutMs);
    return { url: line.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/)![1], until, stop: () => p.kill('SIGTERM') };
  } catch (e) {
    p.kill('SIGTERM');
    throw e;
  }
}
