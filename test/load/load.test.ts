// The load generator and its histograms: latency is counted from each request's scheduled
// moment (a request queued behind a slow answer shows the wait), histograms merge exactly, and a
// bad declared limit or budget is one clear line.
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { belowZeroNote, decodeHistogram, encodeHistogram, mergeEncoded, newHistogram, percentiles, recordMs } from '../../src/core/histogram.js';
import { parseDeclaredLimit } from '../../src/core/limits.js';
import { runLoad, secondOf } from '../../src/load/engine.js';
import { PER_SECOND_MAX } from '../../src/core/histogram.js';
import { resolveConfig } from '../../src/config/config.js';
import { stepUp } from '../../suites/load/load.perf.cost.js';
import { answerText, upstreamText, type Planned } from '../../suites/load/common.js';
import type { LoadResult } from '../../src/load/engine.js';

describe('load generator', () => {
  it('counts latency from the timetable: requests queued behind a slow answer show the wait (no coordinated omission)', async () => {
    let n = 0;
    // The first answer is held 300 ms (a scripted slow upstream); the others are immediate.
    const server = http.createServer((req, res) => {
      const first = n++ === 0;
      req.resume().on('end', () => setTimeout(() => res.end('ok'), first ? 300 : 0));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as { port: number };
      const r = await runLoad({ origin: `http://127.0.0.1:${port}`, rate: 100, requests: 10, durationMs: 1000, clients: 1, connectionsPerClient: 1, make: () => ({ path: '/', method: 'POST', headers: [], body: 'x' }) });
      expect(r.sent).toBe(10);
      expect(r.failures).toBe(0);
      // Request 1 was due 10 ms after the start and waited behind the 300 ms answer on the one connection.
      expect(r.outcomes[1].totalMs).toBeGreaterThan(200);
      // Its send time was late, but its latency still counts from its moment: the median shows the queue.
      expect(percentiles(r.latency).p50).toBeGreaterThan(100);
    } finally {
      server.close();
    }
  });

  it('counts what ended in each second: answers and failures (status 500 or more, a cut connection) sum to what was sent', async () => {
    let n = 0;
    // Every third request answered 500, every fifth cut before its answer; the rest 200.
    const server = http.createServer((req, res) => {
      const i = n++;
      req.resume().on('end', () => {
        if (i % 5 === 4) return req.socket.destroy();
        res.statusCode = i % 3 === 2 ? 500 : 200;
        res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as { port: number };
      const r = await runLoad({ origin: `http://127.0.0.1:${port}`, rate: 30, requests: 45, durationMs: 2000, clients: 2, connectionsPerClient: 1, make: () => ({ path: '/', method: 'POST', headers: [], body: 'x' }) });
      const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
      const { completed, failed } = r.perSecond;
      expect(r.sent).toBe(45);
      expect(completed.length).toBe(failed.length);
      expect(completed.length).toBeGreaterThan(0);
      expect(sum(failed)).toBe(r.failures);
      expect(sum(completed) + sum(failed)).toBe(r.sent);
      expect(sum(completed)).toBe(r.outcomes.filter((o) => !o.error && o.status < 500).length);
      expect(r.failures).toBeGreaterThan(0);
      expect(sum(completed)).toBeGreaterThan(0);
    } finally {
      server.close();
    }
  });

  it('a run cut at its deadline or by its signal ends every open and queued request with the reason', async () => {
    // The server never answers: every request is open (one per connection) or queued behind one.
    const server = http.createServer((req) => req.resume());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as { port: number };
      const plan = { origin: `http://127.0.0.1:${port}`, rate: 100, requests: 6, durationMs: 100, clients: 2, connectionsPerClient: 1, make: () => ({ path: '/', method: 'POST', headers: [], body: 'x' }) };
      const cut = await runLoad({ ...plan, deadlineMs: 300 });
      expect(cut.outcomes.map((o) => o.error)).toEqual(Array(6).fill('still open 300 ms after the load started'));
      expect([cut.sent, cut.failures]).toEqual([6, 6]);
      const ac = new AbortController();
      const stopped = runLoad({ ...plan, signal: ac.signal });
      // The caller's stop comes once requests are open (the first is sent at the start).
      await new Promise((r) => server.once('request', r));
      ac.abort(new Error('stopped by the caller'));
      const r = await stopped;
      expect(r.outcomes.length).toBeGreaterThan(0);
      expect(new Set(r.outcomes.map((o) => o.error))).toEqual(new Set(['stopped by the caller']));
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('the per-second counts are bounded: a moment before the start is second 0, one past the bound the last second', () => {
    expect(secondOf(1000, 1000)).toBe(0);
    expect(secondOf(1999.9, 1000)).toBe(0);
    expect(secondOf(2000, 1000)).toBe(1);
    expect(secondOf(500, 1000)).toBe(0);
    expect(secondOf(1000 + 3_600_000, 1000)).toBe(PER_SECOND_MAX - 1);
  });

  it('merges histograms exactly: the merge of two is the histogram of both sets of values', () => {
    const a = newHistogram();
    const b = newHistogram();
    const both = newHistogram();
    for (let i = 1; i <= 1000; i++) {
      const v = (i * 7919) % 997 / 10;
      recordMs(i % 3 ? a : b, v);
      recordMs(both, v);
    }
    const merged = decodeHistogram(mergeEncoded([encodeHistogram(a), encodeHistogram(b)]));
    expect(percentiles(merged)).toEqual(percentiles(both));
    expect(merged.totalCount).toBe(1000);
  });

  it('an added latency below zero is called noise, by name; none below zero says nothing', () => {
    expect(belowZeroNote({ 'added p50': 0.2, 'added p99': -2.1, ttfb: -0.4 })).toBe("added p99, ttfb below zero: the straight run was the slower one here, which no gateway causes; differences of that size are this machine's noise");
    expect(belowZeroNote({ 'added p50': 0, 'added p99': 3 })).toBeNull();
  });

  it('the step-up: a p99 that doubles once is measured again and does not count; one that doubles twice is the limit', async () => {
    /** A step's result: every request `ms` long (the histogram reads 50 ms back as 50.015: its precision). */
    const result = (ms: number, n: number): LoadResult => {
      const latency = newHistogram();
      for (let i = 0; i < n; i++) recordMs(latency, ms);
      return { outcomes: [], latency, ttfb: newHistogram(), sent: n, elapsedMs: 1000, achievedRate: n, failures: 0, perSecond: { completed: [n], failed: [0] }, peakInFlight: 1 };
    };
    // The gateway at 400/s: slow on its first measurement only (one pause); at 800/s slow every time.
    const seen: string[] = [];
    const at = async (route: 'direct' | 'gateway', _k: unknown, rate: number, n: number) => {
      seen.push(`${route} ${rate}`);
      const gatewayAt = seen.filter((x) => x === `gateway ${rate}`).length;
      const slow = route === 'gateway' && (rate >= 800 || (rate === 400 && gatewayAt === 1));
      return result(slow ? 50 : 2, n);
    };
    const steps = await stepUp(200, 100_000, 2, at);
    expect(steps.map((s) => [s.rate, s.limit ?? null, s.gateway.firstP99 ?? null])).toEqual([
      [400, null, 50.015],
      [800, 'p99 50.015 ms, more than double 2 ms (50.015 ms the first time)', 50.015],
    ]);
    expect(seen).toEqual(['direct 400', 'gateway 400', 'gateway 400', 'direct 800', 'gateway 800', 'gateway 800']);
  });

  it('an answer without its token is shown: status, type, length, pieces and its first characters, quoted', () => {
    const o = { index: 0, client: 0, status: 200, ttfbMs: 1, totalMs: 2, sentAt: 0, body: 'data: {"x":"\u001b[31m"}\n\n', headers: { 'content-type': 'text/event-stream' }, chunks: [{ at: 1, end: 10 }, { at: 2, end: 25 }] };
    expect(answerText(o)).toBe('status 200, text/event-stream, 21 characters in 2 pieces, beginning "data: {\\"x\\":\\"\\u001b[31m\\"}\\n\\n"');
    expect(answerText({ ...o, body: '', chunks: [], headers: {} })).toBe('status 200, 0 characters in 0 pieces');
  });

  it('the upstream\'s side of a wrong answer: never reached, or received (how often), what it wrote, whether its connection closed', () => {
    const frames = [1, 2, 3].map((i) => ({ gapMs: 0, data: `data: ${i}\n\n` }));
    const planned = (hits: Array<{ sentAt: number[]; closedAt?: number }>): Planned => ({ kind: { protocol: 'messages', stream: true }, expectation: { token: 't', reply: { kind: 'sse', status: 200, headers: [], frames }, hits } as unknown as Planned['expectation'] });
    expect(upstreamText(planned([]))).toBe('it never reached the upstream');
    expect(upstreamText(planned([{ sentAt: [1, 2, 3], closedAt: 4 }]))).toBe('the upstream received it and wrote 3 of its 3 events');
    expect(upstreamText(planned([{ sentAt: [1] }, { sentAt: [] }]))).toBe('the upstream received it 2 times and wrote 1 of its 3 events, its connection still open');
  });

  it('reads a declared limit and a budget, and refuses bad ones with one line', () => {
    expect(parseDeclaredLimit({})).toBeNull();
    expect(parseDeclaredLimit({ rps: '10' })).toEqual({ kind: 'rps', count: 10, windowS: 1 });
    expect(parseDeclaredLimit({ concurrency: '4' })).toEqual({ kind: 'concurrency', count: 4 });
    expect(() => parseDeclaredLimit({ rps: 'ten' })).toThrow(/--declared-limit: rps must be a whole number from 1 to 1000, got "ten"/);
    expect(() => parseDeclaredLimit({ rps: '1', concurrency: '2' })).toThrow(/expected rps=N .* or concurrency=N/);
    expect(resolveConfig({ profile: 'load', budget: ['added-p99-ms=5'] }, {}, {}).load.budgetAddedP99Ms).toBe(5);
    expect(() => resolveConfig({ profile: 'load', budget: ['p99=5'] }, {}, {})).toThrow(/--budget: expected added-p99-ms=N/);
    expect(() => resolveConfig({ profile: 'load', loadRequests: '999999999' }, {}, {})).toThrow(/--load-requests: expected a whole number from 1 to 200000/);
  });
});
