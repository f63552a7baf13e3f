// The live console: in a terminal a status line on stderr (checks done of all, what still runs and
// for how long, the readiness gate's wait and last answer), wiped before every printed line and
// drawn again after it; piped, a "still running" line at most every 5 s and only while something
// has run that long. The clock is the test's; the one timer ends with stop().
import { describe, expect, it, vi } from 'vitest';
import { liveConsole, STILL_RUNNING_MS } from '../../cli/shared/progress.js';
import type { Io } from '../../cli/shared/context.js';

function fakeIo(tty: boolean) {
  const out: string[] = [];
  const err: string[] = [];
  const raw: string[] = [];
  const io: Io = {
    out: (s) => out.push(s),
    err: (s) => err.push(s),
    env: {},
    untilStopped: async () => undefined,
    term: { outIsTTY: tty, errIsTTY: tty, columns: () => 100, writeErr: (s) => raw.push(s) },
  };
  return { io, out, err, raw };
}
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

describe('live console in a terminal', () => {
  it('shows the readiness wait with the last answer, then done/total and the longest-running check; wipes itself around printed lines; stop() leaves nothing behind', () => {
    let t = 0;
    const f = fakeIo(true);
    const set = vi.spyOn(globalThis, 'setInterval');
    const clear = vi.spyOn(globalThis, 'clearInterval');
    const live = liveConsole(f.io, { color: false, plainLines: true }, () => t);
    live.progress.readiness('messages', { status: 502, contentType: 'text/html', error: null });
    t = 12_400;
    live.tick();
    expect(f.raw.at(-1)).toBe('\r\x1b[2Kreadiness: 12 s, last answer 502 text/html');
    // One timer, which does not keep the process alive.
    expect(set).toHaveBeenCalledTimes(1);
    const timer = set.mock.results[0].value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    live.progress.ready();
    live.progress.planned(3);
    live.progress.started({ id: 'streaming.idle.default', title: 'the 10 s idle probe' });
    t += 1000;
    live.progress.started({ id: 'messages.path.preserved', title: 'path' });
    t += 6000;
    live.tick();
    expect(f.raw.at(-1)).toBe('\r\x1b[2K[0/3] 7 s streaming.idle.default +1 more running: waiting for the 10 s idle probe');
    live.progress.finished('messages.path.preserved');
    f.raw.length = 0;
    live.io.out('PASS    messages.path.preserved');
    // Wiped, the line printed, the status drawn again.
    expect(f.raw[0]).toBe('\r\x1b[2K');
    expect(f.out).toEqual(['PASS    messages.path.preserved']);
    expect(f.raw[1]).toMatch(/^\r\x1b\[2K\[1\/3\] \d+ s streaming\.idle\.default: waiting for the 10 s idle probe/);
    // No "still running" lines in a terminal: the status line says it.
    expect(f.out).toHaveLength(1);
    live.stop();
    expect(f.raw.at(-1)).toBe('\r\x1b[2K');
    expect(clear).toHaveBeenCalledWith(timer);
    expect(set).toHaveBeenCalledTimes(1);
    set.mockRestore();
    clear.mockRestore();
  });

  it('cuts the status line to the terminal width and shows gateway text inert', () => {
    let t = 0;
    const f = fakeIo(true);
    const live = liveConsole(f.io, { color: false, plainLines: true }, () => t);
    live.progress.readiness('messages', { status: 502, contentType: `text/html\x1b]0;pwned\x07${'x'.repeat(200)}`, error: null });
    t = 1000;
    live.tick();
    live.stop();
    const line = f.raw.find((s) => s.includes('readiness'))!;
    expect(line.slice('\r\x1b[2K'.length)).not.toMatch(/[\x00-\x1f]/);
    expect(line.length - '\r\x1b[2K'.length).toBeLessThanOrEqual(99);
  });

  it('colours the console marks on a terminal when asked, never when piped', () => {
    const tty = fakeIo(true);
    liveConsole(tty.io, { plainLines: true }).io.out('FAIL    x.y');
    expect(tty.out[0]).toMatch(/^\x1b\[1m\x1b\[31mFAIL/);
    const piped = fakeIo(false);
    liveConsole(piped.io, { plainLines: true }).io.out('FAIL    x.y');
    expect(piped.out[0]).toBe('FAIL    x.y');
    const forced = fakeIo(false);
    liveConsole({ ...forced.io, env: { FORCE_COLOR: '1' } }, { plainLines: true }).io.out('FAIL    x.y');
    expect(plain(forced.out[0])).toBe('FAIL    x.y');
    expect(forced.out[0]).not.toBe('FAIL    x.y');
  });
});

describe('live console piped', () => {
  it('prints "still running" at most every 5 s, only while something has run 5 s or more; never redraws', () => {
    let t = 0;
    const f = fakeIo(false);
    const live = liveConsole(f.io, { plainLines: true }, () => t);
    live.progress.planned(2);
    live.progress.started({ id: 'streaming.idle.default', title: 'idle' });
    for (; t < 4000; t += 1000) live.tick();
    expect(f.out).toEqual([]);
    for (; t <= 21_000; t += 1000) live.tick();
    expect(f.out).toEqual(['still running: streaming.idle.default (5 s)', 'still running: streaming.idle.default (10 s)', 'still running: streaming.idle.default (15 s)', 'still running: streaming.idle.default (20 s)']);
    live.progress.finished('streaming.idle.default');
    for (; t <= 40_000; t += 1000) live.tick();
    expect(f.out).toHaveLength(4);
    expect(f.raw).toEqual([]);
    live.stop();
    expect(STILL_RUNNING_MS).toBe(5000);
  });

  it('says the readiness gate is still waiting, with the last answer', () => {
    let t = 0;
    const f = fakeIo(false);
    const live = liveConsole(f.io, { plainLines: true }, () => t);
    live.progress.readiness('messages', { status: null, contentType: null, error: 'connect ECONNREFUSED 127.0.0.1:1' });
    t = 5000;
    live.tick();
    live.stop();
    expect(f.out).toEqual(['still waiting for the gateway to forward: readiness 5 s, last answer connect ECONNREFUSED 127.0.0.1:1']);
  });

  it('prints nothing of its own when the console reporter is off', () => {
    let t = 0;
    const f = fakeIo(false);
    const live = liveConsole(f.io, { plainLines: false }, () => t);
    live.progress.planned(1);
    live.progress.started({ id: 'a', title: 'a' });
    for (; t < 30_000; t += 1000) live.tick();
    live.stop();
    expect(f.out).toEqual([]);
    expect(f.raw).toEqual([]);
  });
});
