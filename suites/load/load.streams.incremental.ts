import { defineCheck, fail, pass } from '../../src/check/check.js';
import { DELIVERY_WORDS, judgeDelivery, type Delivery } from '../../src/core/oracle.js';
import { eventArrivals, loadSettings, sendMix, type Kind, unlessLimited } from './common.js';

/** Streams open at once, and the gap between their events: far above loopback lag and the burst window. */
const STREAMS = 24;
const GAP_MS = 200;
/** Streams still open this long after the start are cut: they show as incomplete. */
const DEADLINE_MS = 6000;

export default defineCheck({
  id: 'load.streams.incremental',
  title: `${STREAMS} streams open at once (every protocol), events ${GAP_MS} ms apart: each stays incremental`,
  requirements: ['LOAD-2'],
  level: 'MUST',
  profile: 'load',
  // Alone: it measures time, and another check's load would be in its figures.
  exclusive: true,
  requirement:
    'Streams stay incremental under concurrency: with many streams open at once, the stream oracle finds no stream held until its end or delivered in blocks, and no event later than its bound, as it does for a single stream.',
  fix: 'Stream without buffering whatever the number of open streams: no buffer pool that streams fall back to when busy, no worker that batches writes under load (nginx: `proxy_buffering off;` holds at any concurrency). The evidence counts each delivery verdict and shows the first streams that were not incremental.',
  run: unlessLimited(async (ctx) => {
    const kinds: Kind[] = loadSettings(ctx).protocols.map((protocol) => ({ protocol, stream: true }));
    // All streams start within 50 ms: they are open together for their whole length.
    const { result, planned } = await sendMix(ctx, { route: 'gateway', kinds: (i) => kinds[i % kinds.length], rate: STREAMS * 20, count: STREAMS, clients: STREAMS, deadlineMs: DEADLINE_MS, plan: () => ({ firstGapMs: GAP_MS, gapMs: GAP_MS }) });
    const verdicts = result.outcomes.map((o) => {
      const seen = planned[o.index].expectation.hits[0];
      if (o.error || o.status !== 200 || !seen) return { o, delivery: 'incomplete' as Delivery, summary: o.error ?? `status ${o.status}${seen ? '' : ', never reached the upstream'}` };
      const arrivals = eventArrivals(o);
      const r = judgeDelivery(seen.sentAt, arrivals, seen.receivedAt, arrivals.map((_, i) => `event ${i}`), ctx.settings.sse);
      return { o, delivery: r.delivery, summary: r.summary };
    });
    const bad = verdicts.filter((v) => v.delivery !== 'incremental');
    const evidence = { streams: STREAMS, gapMs: GAP_MS, deliveries: Object.fromEntries([...new Set(verdicts.map((v) => v.delivery))].map((d) => [d, verdicts.filter((v) => v.delivery === d).length])), first: bad.slice(0, 5).map((v) => `stream ${v.o.index} (${planned[v.o.index].kind.protocol}): ${v.summary}`) };
    if (bad.length) return fail(`${bad.length} of ${STREAMS} streams open at once were not incremental: stream ${bad[0].o.index}: ${bad[0].summary}`, { expected: 'every stream incremental', actual: DELIVERY_WORDS[bad[0].delivery], evidence });
    return pass(`${STREAMS} streams open at once, each incremental`, evidence);
  }),
});
