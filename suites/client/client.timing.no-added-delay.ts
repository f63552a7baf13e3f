import { defineCheck } from '../../src/check/check.js';
import { compareTiming } from '../../src/real-clients/straight-vs-gateway.js';
import { verdictOver } from './common.js';

export default defineCheck({
  id: 'client.timing.no-added-delay',
  title: 'The gateway adds no delay a real client feels, and fires none of its retries or time-outs',
  requirements: ['CLIENT-3'],
  level: 'SHOULD',
  profile: 'client',
  requirement:
    "Through the gateway, each streamed answer's time to first token and to completion, and its longest gap between two deltas, may exceed the straight run's by at most the stream oracle's bound (--sse-max-lag-ms); no request may be retried by the client (x-stainless-retry-count above 0, or a retry the client reports itself: Claude Code's api_retry lines) or given up by its own time-out where the straight run needed neither.",
  fix: 'Take the gateway\'s own work (authentication, routing, logging) off the path of each event, and answer discovery well within the client\'s 3 s. The evidence has each streamed answer\'s time to first token, to completion and longest gap, straight beside through the gateway.',
  async run(ctx) {
    const bounds = { maxAddedMs: ctx.settings.sse.maxLagMs, maxAddedGapMs: ctx.settings.sse.maxLagMs };
    return verdictOver(ctx, 'the timings', (p) => {
      const { differences, table } = compareTiming(p.straight, p.gateway, bounds);
      return { differences, extra: { timing: table, boundMs: bounds.maxAddedMs } };
    });
  },
});
