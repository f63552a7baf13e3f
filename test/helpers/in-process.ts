// The CLI called in this process: `main` of cli/main.ts with an io that keeps what it prints, as
// cli() of ./cli.ts runs it in a process of its own (the same arguments, environment and result),
// without a process's start-up (about 1 CPU-second each, most of it loading dist/). For the tests
// whose subject is not the process; signals, pipes, start-up, the heap flags, the bin and the
// working directory stay with cli().
//
// Each call is a run of its own: its environment is its io's (cliEnv(), as a process gets;
// process.env is never changed), the secrets it remembers are its own (withOwnSecrets), a fault's
// state is its gateway's (Fault.fresh), and what it adds to the process (the Ctrl-C handler, the
// crash listeners of a run, a started gateway's) is removed when it ends (test/cli/in-process.test.ts
// proves each). What calls beside each other share: the event loop (and its hold meter,
// src/core/stall.ts), the compiled schemas, and the counters of generated ids (ids differ between
// two calls as between two processes' runs). A call runs without bin's V8 settings.
import { resolve } from 'node:path';
import { main } from '../../cli/main.js';
import { withOwnSecrets } from '../../src/core/remembered.js';
import { cliEnv, ROOT, type CliResult } from './cli.js';

export interface InProcessOptions {
  /** Added to the environment, as for cli(). */
  env?: NodeJS.ProcessEnv;
  /** Only this process's own (ROOT): the CLI reads relative paths against process.cwd(). */
  cwd?: string;
  /** Its standard input (`lint-config -`); without it, an empty one. */
  input?: string;
  /** Then the call is given up: its result has code null (a killed process's), and a long-running command is stopped. */
  timeoutMs?: number;
}

export interface StartedCli {
  /** What it printed so far (each line ends in a line feed, as through a pipe). */
  readonly stdout: string;
  readonly stderr: string;
  /** The first line of standard output that matches `re`, once printed; rejects when the command ends first. */
  line(re: RegExp): Promise<string>;
  /** Asks a long-running command (mock, reference) to stop, as Ctrl-C does; resolves with its result. */
  stop(): Promise<CliResult>;
  /** Its result, when it ends. */
  readonly done: Promise<CliResult>;
}

/** Starts `gw-conformance ...args` in this process; a command that waits (mock, reference) runs until stop(). */
export function startInProcess(args: string[], opts: InProcessOptions = {}): StartedCli {
  const cwd = resolve(opts.cwd ?? ROOT);
  if (cwd !== process.cwd()) throw new Error(`in-process CLI: cwd ${cwd} is not this process's (${process.cwd()}); a test of the working directory runs the CLI as a process (cli())`);
  const t0 = Date.now();
  let stdout = '';
  let stderr = '';
  let ended = false;
  const waiters = new Set<() => void>();
  const changed = () => waiters.forEach((w) => w());
  let stopNow = () => {};
  const stopped = new Promise<void>((r) => (stopNow = r));
  const io = {
    out: (s: string) => ((stdout += `${s}\n`), changed()),
    err: (s: string) => ((stderr += `${s}\n`), changed()),
    env: cliEnv(opts.env),
    untilStopped: () => stopped,
    stdin: async () => opts.input ?? '',
    // As bin fills it for pipes: no terminal.
    term: { outIsTTY: false, errIsTTY: false, columns: () => 80, writeErr: (s: string) => ((stderr += s), changed()) },
  };
  const result = (code: number | null): CliResult => ({ code, stdout, stderr, ms: Date.now() - t0 });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<CliResult>((r) => {
    timer = setTimeout(() => (stopNow(), r(result(null))), opts.timeoutMs ?? 60_000);
  });
  const ran = withOwnSecrets(() => main(args, io)).then((code) => result(code));
  const done = Promise.race([ran, timedOut]).finally(() => {
    clearTimeout(timer);
    ended = true;
    changed();
  });
  return {
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    line: (re) =>
      new Promise<string>((res, rej) => {
        const look = () => {
          const hit = stdout.split('\n').find((l) => re.test(l));
          if (hit !== undefined) res(hit);
          else if (ended) rej(new Error(`the command ended without printing ${re}: ${stdout}${stderr}`));
          else return;
          waiters.delete(look);
        };
        waiters.add(look);
        look();
      }),
    stop: () => (stopNow(), done),
    done,
  };
}

/** `gw-conformance ...args` in this process: exit code, what it printed, and how long it took. */
export function cliInProcess(args: string[], opts: InProcessOptions = {}): Promise<CliResult> {
  return startInProcess(args, opts).done;
}
