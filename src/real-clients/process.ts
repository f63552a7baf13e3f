// What the process clients (Claude Code, Codex CLI, Gemini CLI) share: running the binary to its
// end or our limit with every stdout line handed over as it arrives (timed from the start),
// reading a JSON file the client wrote, and grouping the client's JSON-lines output by event type.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** A JSON file's content; null when absent, '(not JSON)' when unreadable as JSON. */
export function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return existsSync(file) ? '(not JSON)' : null;
  }
}

/** The lines of a JSON-lines output, parsed (a line that is not JSON is kept as text). */
export function lines(stdout: string): unknown[] {
  return stdout
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      try {
        return JSON.parse(l) as unknown;
      } catch {
        return l;
      }
    });
}

/**
 * The output's lines grouped by their `type` with the order kept inside each group: a client
 * runs a tool as soon as its call is complete, so the tool's line and the rest of the stream
 * interleave at random.
 */
export function grouped(stdout: string): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const l of lines(stdout)) {
    const type = typeof l === 'object' && l && 'type' in l ? String((l as { type: unknown }).type) : 'text';
    (out[type] ??= []).push(l);
  }
  return out;
}

/** Runs the client to its end (or our limit); `onLine` gets each stdout line with its ms from the start. */
export function timedRun(bin: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }, timeoutMs: number, onLine: (line: string, atMs: number) => void): Promise<ProcessResult> {
  const t0 = performance.now();
  const child = spawn(bin, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let timedOut = false;
  let partial = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString('utf8');
    partial += c.toString('utf8');
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    for (const l of parts) onLine(l, Math.round(performance.now() - t0));
  });
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, timeoutMs);
  return new Promise((resolve) => {
    child.once('error', (e) => {
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr: `${stderr}${e.message}`, timedOut });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}
