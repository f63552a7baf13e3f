// The load generator and its histograms: latency is counted from each request's scheduled
// moment (a request queued behind a slow answer shows the wait), histograms merge exactly, and a
// bad declared limit or budget is one clear line.
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { decodeHistogram, encodeHistogram, mergeEncoded, newHistogram, percentiles, recordMs } from '../src/core/histogram.js';
import { parseDeclaredLimit } from '../src/core/limits.js';
import { runLoad } from '../src/load/engine.js';
import { resolveConfig } from '../src/config/config.js';

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
