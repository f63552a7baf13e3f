// SSE-ABORT-1: a client that goes away makes the gateway close the upstream request within 2 s.
// The time is the gateway's: what this process's event loop was held meanwhile (src/core/stall.ts:
// the gateway's close can reach the upstream, in this process, only once the hold ends) is not
// counted against it. A close later than 2 s only with those holds counted is measured again (at
// most MEASUREMENTS times; then a harness error, not a verdict); later with every hold taken off
// is the finding.
import { defineCheck, fail, pass, type CheckContext } from '../../src/check/check.js';
import { judged, MEASUREMENTS, stallMeter } from '../../src/core/stall.js';
import { frames, messageStream } from '../../src/protocols/messages/index.js';
import { notStreamed, streamEvidence, streamExchange } from './common.js';

const BOUND_MS = 2000;
/** How long the close is waited for after the client left: past the bound, to see it when held. */
const WAIT_MS = 2 * BOUND_MS + 500;

/** One exchange: the client leaves 1 s into a 10 s stream; then the wait for the upstream request's close, timed from the client's leaving. */
async function exchange(ctx: CheckContext) {
  const meter = stallMeter();
  try {
    // 40 events 250 ms apart: the upstream would stream for 10 s if nobody cancelled it.
    // The client leaves 1 s after its request whatever it got: a buffering gateway shows it
    // nothing by then, not even the response headers (the bound counts from the request).
    const x = await streamExchange(ctx, frames(messageStream({ full: false, textDeltas: 36 }), { gapMs: 250 }), { abortAfterMs: 1000 });
    if (!x.seen || x.res.abortedAt === undefined) return { x, closedAt: null, ms: 0, heldMs: 0 };
    const closedAt = x.seen.closedAt !== undefined && x.seen.closedAt < x.res.abortedAt ? x.seen.closedAt : await x.expectation.closed(WAIT_MS);
    const ms = Math.max(0, (closedAt ?? performance.now()) - x.res.abortedAt);
    // Counted from the request: more than the holds after the client left, never fewer.
    return { x, closedAt, ms, heldMs: Math.min(meter.read(), ms) };
  } finally {
    meter.stop();
  }
}

export default defineCheck({
  id: 'streaming.abort.cancels-upstream',
  title: 'When the client disconnects 1 s into a 10 s stream, the upstream request is closed within 2 s',
  requirements: ['SSE-ABORT-1'],
  level: 'SHOULD',
  timing: true,
  protocol: 'messages',
  // Room for the measurements a held process may need (the client leaves at 1 s, then the wait).
  timeLimitMs: (s) => Math.max(s.timeoutMs, MEASUREMENTS * (1000 + WAIT_MS) + 2000),
  requirement: 'A client that goes away makes the gateway cancel the upstream request promptly, so no tokens are paid for nobody (cost control). The time is the gateway\'s: a close later than 2 s only with the harness\'s own holds counted is measured again.',
  fix: 'When the client disconnects, close the upstream request (nginx does so with `proxy_buffering off`; application gateways must propagate the abort).',
  async run(ctx) {
    const { last, measured } = await judged('the upstream request\'s close', BOUND_MS, () => exchange(ctx));
    const { x, closedAt } = last;
    if (!x.seen || x.res.abortedAt === undefined) return notStreamed(x);
    const when = x.res.leftBeforeHeaders ? 'the client disconnected (before any response header: the gateway held them back)' : 'the client disconnected';
    if (x.seen.closedAt !== undefined && x.seen.closedAt < x.res.abortedAt) return fail(`the upstream request ended before ${when}`, { evidence: streamEvidence(x) });
    const ev = { ...streamEvidence(x, 200), framesSentBeforeClose: x.seen.sentAt.length, ...(measured.length > 1 ? { measured } : {}) };
    const held = `${Math.round(last.ms - last.heldMs)} ms with this process's holds taken off`;
    if (closedAt === null) return fail(`the upstream request was still open ${WAIT_MS} ms after ${when}`, { expected: `upstream closed within ${BOUND_MS} ms`, actual: `still streaming (${held})`, evidence: ev });
    const ms = Math.round(last.ms);
    if (ms > BOUND_MS) return fail(`the upstream request closed ${ms} ms after ${when}`, { expected: `within ${BOUND_MS} ms`, actual: `${ms} ms (${held})`, evidence: ev });
    const again = measured.length > 1 ? ` (measured ${measured.length} times: this process was held during the first)` : '';
    return pass(`the upstream request closed ${ms} ms after ${when}${again}`, ev);
  },
});
