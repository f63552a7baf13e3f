// What the console shows while a run goes on. In a terminal (standard error is one): a status
// line on standard error, redrawn each second, with checks done of all, what still runs and for
// how long ("waiting for <the idle probe> 7 s"), or during the readiness gate how long it has
// waited and the gateway's last answer. Piped: no redraws; a "still running" line among the check
// lines at most every 5 s, only while something has run for 5 s or more. Everything the run
// prints passes through here, so the status line is wiped before a line and drawn again after
// it, and the console's marks are coloured when the stream is a terminal (src/reporters/style.ts).
// Nothing here reaches a report file; the one timer is unref'd and ends with stop().
import { performance } from 'node:perf_hooks';
import { terminalSafe } from '../core/inert.js';
import { colourConsole } from '../reporters/console.js';
import { colourWanted, painter } from '../reporters/style.js';
import type { Io } from './shared.js';

/** The run's progress, as the runner and the readiness gate report it. */
export interface RunProgress {
  /** The checks about to run (their number is the total). */
  planned(count: number): void;
  started(check: { id: string; title: string }): void;
  finished(id: string): void;
  /** The readiness gate got an answer (gateway text: shown inert). */
  readiness(protocol: string, answer: { status: number | null; contentType: string | null; error: string | null }): void;
  /** The readiness gate is over. */
  ready(): void;
}

/** A "still running" line (piped) needs something running this long, and this long since the last such line. */
export const STILL_RUNNING_MS = 5000;
const REDRAW_MS = 1000;
const CLEAR = '\r\x1b[2K';

export interface LiveConsole {
  /** The io to print through (coloured, and keeping the status line apart from printed lines). */
  io: Io;
  progress: RunProgress;
  /** One step of the clock: redraw the status line, or print a "still running" line when due. */
  tick(): void;
  /** Wipes the status line and ends the timer. */
  stop(): void;
}

const secs = (ms: number) => `${Math.floor(ms / 1000)} s`;

export function liveConsole(io: Io, opts: { color?: boolean; plainLines: boolean }, now: () => number = () => performance.now()): LiveConsole {
  const term = io.term;
  const live = Boolean(term?.errIsTTY);
  const paintOut = painter(colourWanted({ flag: opts.color, env: io.env, isTTY: Boolean(term?.outIsTTY) }));
  const paintErr = painter(colourWanted({ flag: opts.color, env: io.env, isTTY: Boolean(term?.errIsTTY) }));
  const running = new Map<string, { title: string; since: number }>();
  let total = 0;
  let done = 0;
  let gate: { since: number; last: string } | null = null;
  let shown = false;
  let lastPlain = now();
  let timer: NodeJS.Timeout | undefined;
  const startTimer = () => {
    if (!timer && (live || opts.plainLines)) timer = setInterval(() => tick(), REDRAW_MS).unref();
  };
  const longest = () => [...running.entries()].sort((a, b) => a[1].since - b[1].since);
  const status = (): string | null => {
    const t = now();
    if (gate) return `readiness: ${secs(t - gate.since)}, last answer ${gate.last}`;
    if (!total) return null;
    const [first, ...rest] = longest();
    const what = !first ? '' : t - first[1].since >= 3000 ? `: waiting for ${first[1].title} (${first[0]}) ${secs(t - first[1].since)}` : `: running ${first[0]}`;
    return `[${done}/${total}]${what}${rest.length ? ` +${rest.length} more running` : ''}`;
  };
  const wipe = () => {
    if (shown) term!.writeErr(CLEAR);
    shown = false;
  };
  const draw = () => {
    const s = live ? status() : null;
    if (!s) return;
    const width = Math.max(20, term!.columns() - 1);
    term!.writeErr(`${CLEAR}${paintErr('dim', terminalSafe(s).slice(0, width))}`);
    shown = true;
  };
  const stillLine = (): string | null => {
    const t = now();
    if (gate && t - gate.since >= STILL_RUNNING_MS) return `still waiting for the gateway to forward: readiness ${secs(t - gate.since)}, last answer ${gate.last}`;
    const long = longest().filter(([, r]) => t - r.since >= STILL_RUNNING_MS);
    return long.length ? `still running: ${long.map(([id, r]) => `${id} (${secs(t - r.since)})`).join(', ')}` : null;
  };
  const tick = () => {
    if (live) return draw();
    if (!opts.plainLines || now() - lastPlain < STILL_RUNNING_MS) return;
    const line = stillLine();
    if (line) {
      lastPlain = now();
      io.out(terminalSafe(line));
    }
  };
  const through = (write: (s: string) => void, paint: typeof paintOut) => (s: string) => {
    wipe();
    write(colourConsole(s, paint));
    draw();
  };
  const progress: RunProgress = {
    planned: (count) => {
      total = count;
      startTimer();
      draw();
    },
    started: (c) => void running.set(c.id, { title: c.title, since: now() }),
    finished: (id) => {
      running.delete(id);
      done++;
    },
    readiness: (_p, a) => {
      const last = a.status === null ? (a.error ?? 'none') : `${a.status} ${a.contentType ?? '(no content-type)'}`;
      gate = { since: gate?.since ?? now(), last: last.slice(0, 80) };
      startTimer();
    },
    ready: () => {
      gate = null;
    },
  };
  return {
    io: { ...io, out: through(io.out, paintOut), err: through(io.err, paintErr) },
    progress,
    tick,
    stop: () => {
      clearInterval(timer);
      timer = undefined;
      wipe();
    },
  };
}
