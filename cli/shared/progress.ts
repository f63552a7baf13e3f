// What the console shows while a run goes on. In a terminal (standard error is one): a status
// line on standard error, redrawn each second, with checks done of all, what still runs and for
// how long ("waiting for <the idle probe> 7 s"), or during the readiness gate how long it has
// waited and the gateway's last answer. Piped: no redraws; a "still running" line among the check
// lines at most every 5 s, only while something has run for 5 s or more. Everything the run
// prints passes through here, so the status line is wiped before a line and drawn again after
// it, and the console's marks are coloured when the stream is a terminal (src/reporters/style.ts).
// Nothing here reaches a report file; the one timer is unref'd and ends with stop().
import { performance } from 'node:perf_hooks';
import { terminalSafe } from '../../src/core/inert.js';
import { colourConsole } from '../../src/reporters/console.js';
import { colourWanted, painter } from '../../src/reporters/style.js';
import type { Io } from './context.js';
import { maskCut } from '../../src/core/mask.js';
import type { RunProgress } from '../../src/runner/progress.js';

export type { RunProgress };

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

/** What the run is doing: the readiness gate's wait, or checks done of all and those running. */
interface State {
  running: Map<string, { title: string; since: number }>;
  total: number;
  done: number;
  gate: { since: number; last: string } | null;
}

/** The checks running, longest first. */
const longest = (st: State) => [...st.running.entries()].sort((a, b) => a[1].since - b[1].since);

/** The status line of a terminal, or null before anything is under way. */
function statusText(st: State, t: number): string | null {
  if (st.gate) return `readiness: ${secs(t - st.gate.since)}, last answer ${st.gate.last}`;
  if (!st.total) return null;
  const [first, ...rest] = longest(st);
  // The id, the time and the count first: a narrow terminal cuts the line's end, the title.
  const more = rest.length ? ` +${rest.length} more running` : '';
  if (!first) return `[${st.done}/${st.total}]${more}`;
  const [id, r] = first;
  return t - r.since >= 3000 ? `[${st.done}/${st.total}] ${secs(t - r.since)} ${id}${more}: waiting for ${r.title}` : `[${st.done}/${st.total}] running ${id}${more}`;
}

/** The "still running" line when piped, or null when nothing has run that long. */
function stillText(st: State, t: number): string | null {
  if (st.gate && t - st.gate.since >= STILL_RUNNING_MS) return `still waiting for the gateway to forward: readiness ${secs(t - st.gate.since)}, last answer ${st.gate.last}`;
  const long = longest(st).filter(([, r]) => t - r.since >= STILL_RUNNING_MS);
  return long.length ? `still running: ${long.map(([id, r]) => `${id} (${secs(t - r.since)})`).join(', ')}` : null;
}

/** The progress events, kept in `st`; `changed` runs after each that may change what is shown. */
function tracker(st: State, now: () => number, changed: () => void): RunProgress {
  return {
    planned: (count) => {
      st.total = count;
      changed();
    },
    started: (c) => void st.running.set(c.id, { title: c.title, since: now() }),
    finished: (id) => {
      st.running.delete(id);
      st.done++;
    },
    readiness: (_p, a) => {
      const last = a.status === null ? (a.error ?? 'none') : `${a.status} ${a.contentType ?? '(no content-type)'}`;
      st.gate = { since: st.gate?.since ?? now(), last: maskCut(last, 80) };
      changed();
    },
    ready: () => {
      st.gate = null;
    },
  };
}

export function liveConsole(io: Io, opts: { color?: boolean; plainLines: boolean }, now: () => number = () => performance.now()): LiveConsole {
  const term = io.term;
  const live = Boolean(term?.errIsTTY);
  const paintOut = painter(colourWanted({ flag: opts.color, env: io.env, isTTY: Boolean(term?.outIsTTY) }));
  const paintErr = painter(colourWanted({ flag: opts.color, env: io.env, isTTY: Boolean(term?.errIsTTY) }));
  const st: State = { running: new Map(), total: 0, done: 0, gate: null };
  let shown = false;
  let lastPlain = now();
  let timer: NodeJS.Timeout | undefined;
  const wipe = () => {
    if (shown) term!.writeErr(CLEAR);
    shown = false;
  };
  const draw = () => {
    const s = live ? statusText(st, now()) : null;
    if (!s) return;
    const width = Math.max(20, term!.columns() - 1);
    term!.writeErr(`${CLEAR}${paintErr('dim', terminalSafe(s).slice(0, width))}`);
    shown = true;
  };
  const tick = () => {
    if (live) return draw();
    if (!opts.plainLines || now() - lastPlain < STILL_RUNNING_MS) return;
    const line = stillText(st, now());
    if (line) {
      lastPlain = now();
      io.out(terminalSafe(line));
    }
  };
  const progress = tracker(st, now, () => {
    if (!timer && (live || opts.plainLines)) timer = setInterval(tick, REDRAW_MS).unref();
    draw();
  });
  const through = (write: (s: string) => void, paint: typeof paintOut) => (s: string) => {
    wipe();
    write(colourConsole(s, paint));
    draw();
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
