import { defineCheck, fail, pass } from '../../src/check/check.js';
import { frames, messageStream } from '../../src/upstream/replies/streams.js';
import { notStreamed, streamEvidence, streamExchange } from './common.js';

const BOUND_MS = 2000;

export default defineCheck({
  id: 'streaming.abort.cancels-upstream',
  title: 'When the client disconnects 1 s into a 10 s stream, the upstream request is closed within 2 s',
  requirements: ['SSE-ABORT-1'],
  level: 'SHOULD',
  area: 'streaming',
  profile: 'default',
  timing: true,
  protocol: 'messages',
  requirement: 'A client that goes away makes the gateway cancel the upstream request promptly, so no tokens are paid for nobody (cost control).',
  async run(ctx) {
    // 40 events 250 ms apart: the upstream would stream for 10 s if nobody cancelled it.
    // The client leaves 1 s after its request whatever it got: a buffering gateway shows it
    // nothing by then, not even the response headers (the bound counts from the request).
    const x = await streamExchange(ctx, frames(messageStream({ full: false, textDeltas: 36 }), { gapMs: 250 }), { abortAfterMs: 1000 });
    if (!x.seen || x.res.abortedAt === undefined) return notStreamed(x);
    const when = x.res.leftBeforeHeaders ? 'the client disconnected (before any response header: the gateway held them back)' : 'the client disconnected';
    if (x.seen.closedAt !== undefined && x.seen.closedAt < x.res.abortedAt) return fail(`the upstream request ended before ${when}`, { evidence: streamEvidence(x) });
    const closedAt = await x.expectation.closed(BOUND_MS + 500);
    const ev = { ...streamEvidence(x, 200), framesSentBeforeClose: x.seen.sentAt.length };
    if (closedAt === null) return fail(`the upstream request was still open ${BOUND_MS + 500} ms after ${when}`, { expected: `upstream closed within ${BOUND_MS} ms`, actual: 'still streaming', evidence: ev });
    const ms = Math.round(closedAt - x.res.abortedAt);
    if (ms > BOUND_MS) return fail(`the upstream request closed ${ms} ms after ${when}`, { expected: `within ${BOUND_MS} ms`, actual: `${ms} ms`, evidence: ev });
    return pass(`the upstream request closed ${ms} ms after ${when}`, ev);
  },
});
