// The throughput frontier from a sweep, where a sweep stops, the workloads it sweeps, and the memory check's slope.
import { describe, expect, it } from 'vitest';
import { frontierOf, stopAfter, workloadsFor, type SweepStep } from '../../../suites/load/load.perf.frontier.js';
import { slopePerRequest } from '../../../suites/load/load.resources.growth.js';

const step = (rate: number, addedP99: number, failures = 0, achieved = rate): SweepStep => ({ rate, requests: rate, direct: { p50: 1, p99: 2, achieved }, through: { p50: 2, p99: 2 + addedP99, achieved, failures }, added: { p50: 1, p99: addedP99 } });

describe('throughput frontier', () => {
  it('is, per bound, the highest rate before the added p99 first reached it', () => {
    const steps = [step(25, 0.5), step(50, 3), step(100, 4), step(200, 12), step(400, 80)];
    expect(frontierOf(steps)).toEqual({ '1ms': 25, '5ms': 100, '10ms': 100, '50ms': 200 });
    // A later dip under a bound does not move its frontier past the first crossing.
    expect(frontierOf([step(25, 2), step(50, 0.5)], [1])).toEqual({ '1ms': null });
    // Never crossed: the last rate swept.
    expect(frontierOf([step(25, 0.1), step(50, 0.2)], [1])).toEqual({ '1ms': 50 });
    // Failures past 1 % end the frontier there.
    expect(frontierOf([step(25, 0.1), step(50, 0.2, 2)], [50])).toEqual({ '50ms': 25 });
  });

  it('stops on failures, on the largest bound, and at the harness ceiling, and says which', () => {
    expect(stopAfter(step(100, 1, 5))).toMatch(/5 of 100 failed/);
    expect(stopAfter(step(100, 50))).toMatch(/added p99 reached 50 ms/);
    expect(stopAfter(step(100, 1, 0, 80))).toMatch(/harness reached only 80\/s of 100\/s/);
    expect(stopAfter(step(100, 1))).toBeNull();
  });
});

describe('frontier workloads', () => {
  const names = (...a: Parameters<typeof workloadsFor>) => workloadsFor(...a).map((w) => `${w.name}: ${w.kind.protocol}${w.kind.stream ? ' streamed' : ''}${w.plan?.padChars ? ` +${w.plan.padChars}` : ''}`);

  it('are plain, streamed and large messages where nothing is translated', () => {
    expect(names(['messages', 'chat'])).toEqual(['plain messages: messages', 'streamed messages: messages streamed', 'large body (64 KiB): messages +65536']);
    expect(names(['messages'], {})).toEqual(names(['messages']));
    // No messages declared: the first declared protocol.
    expect(names(['chat'])).toEqual(['plain chat: chat', 'streamed chat: chat streamed', 'large body (64 KiB, chat): chat +65536']);
  });

  it('add one plain workload per translated route, the others on a protocol passed through', () => {
    expect(names(['messages', 'chat'], { messages: 'chat' })).toEqual(['plain chat: chat', 'streamed chat: chat streamed', 'large body (64 KiB, chat): chat +65536', 'translated route (messages → chat): messages']);
    expect(names(['chat', 'messages', 'responses'], { messages: 'chat', responses: 'messages' })).toEqual(['plain chat: chat', 'streamed chat: chat streamed', 'large body (64 KiB, chat): chat +65536', 'translated route (messages → chat): messages', 'translated route (responses → messages): responses']);
    // A route of a protocol the run does not declare is not swept.
    expect(names(['messages'], { chat: 'messages' })).toEqual(names(['messages']));
  });

  it('run on the translated route, named so, when every declared protocol is translated', () => {
    expect(names(['messages'], { messages: 'bedrock' })).toEqual(['plain messages, translated to bedrock: messages', 'streamed messages, translated to bedrock: messages streamed', 'large body (64 KiB, messages, translated to bedrock): messages +65536']);
  });
});

describe('memory slope', () => {
  it('is the least-squares slope of memory over requests sent', () => {
    expect(slopePerRequest([{ sent: 100, rss: 1000 }, { sent: 200, rss: 3000 }, { sent: 300, rss: 5000 }])).toBe(20);
    expect(slopePerRequest([{ sent: 100, rss: 1000 }, { sent: 200, rss: 1000 }])).toBe(0);
    expect(slopePerRequest([{ sent: 100, rss: 1000 }])).toBe(0);
  });
});
