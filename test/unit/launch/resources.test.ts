// The launched gateway's processes as /proc shows them: stat and status parsed, a process group
// with its children summed (a shell that started two workers), and nothing when the group is gone.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { membersOf, parseRss, parseStat, readProcesses, ResourceSampler } from '../../../src/launch/resources.js';
import { stopGroup } from '../../../src/launch/process-group.js';

describe('process readings', () => {
  it('parses a stat line whose command holds spaces and parentheses', () => {
    const fields = Array.from({ length: 50 }, (_, i) => String(i + 3));
    // Field 4 ppid, 5 pgrp, 14 utime, 15 stime.
    const s = parseStat(`4321 (my (odd) gw) S ${fields.slice(1).join(' ')}`)!;
    expect(s).toEqual({ pid: 4321, ppid: 4, pgrp: 5, cpuTicks: 14 + 15 });
    expect(parseStat('garbage')).toBeNull();
    expect(parseRss('Name:\tnode\nVmRSS:\t   20480 kB\n')).toBe(20480 * 1024);
    expect(parseRss('Name:\tkthread\n')).toBe(0);
  });

  it('a group and every descendant, once each', () => {
    const p = (pid: number, ppid: number, pgrp: number) => ({ pid, ppid, pgrp, cpuTicks: 1 });
    const all = [p(1, 0, 1), p(10, 1, 10), p(11, 10, 10), p(12, 11, 99), p(20, 1, 20)];
    expect(membersOf(all, 10, 10).map((x) => x.pid).sort()).toEqual([10, 11, 12]);
    expect(membersOf(all, 11, null).map((x) => x.pid).sort()).toEqual([11, 12]);
  });

  it('sums a real process group (a shell and its two children) and reads nothing once it is gone', async () => {
    const child = spawn('sh', ['-c', 'sleep 60 & sleep 60 & wait'], { detached: true, stdio: 'ignore' });
    try {
      // The shell forks its children as it starts: read until both are there (bounded by the test's time-out).
      let r = await readProcesses(child.pid!, child.pid!, () => 0);
      while (!r || r.processes < 3) r = await readProcesses(child.pid!, child.pid!, () => 0);
      expect(r.processes).toBe(3);
      expect(r.rssBytes).toBeGreaterThan(0);
      const sampler = new ResourceSampler(0, 'process group');
      sampler.watch(child.pid!, child.pid!);
      await sampler.ready();
      expect(sampler.source).toBe('process group (3 processes)');
      await sampler.stop();
      expect(sampler.figures().memory.idle).toBeGreaterThan(0);
    } finally {
      await stopGroup(child);
    }
    expect(await readProcesses(child.pid!, child.pid!, () => 0)).toBeNull();
  });
});
