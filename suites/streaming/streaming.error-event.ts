import { defineCheck, fail, pass } from '../../src/check/check.js';
import { frames, messageStream } from '../../src/protocols/messages/index.js';
import { notStreamed, streamEvidence, streamExchange } from './common.js';
import { plural } from '../../src/core/words.js';

export default defineCheck({
  id: 'streaming.error-event',
  title: 'An overloaded_error event sent mid-stream reaches the client unchanged',
  requirements: ['SSE-ERR-1'],
  level: 'MUST',
  untranslatable: 'the upstream\'s error event',
  protocol: 'messages',
  requirement: 'An error event in the middle of a stream reaches the client as sent, so it can retry or report.',
  fix: 'Forward an `error` event in the middle of a stream as it came; do not end the stream, rewrite it or swallow it.',
  async run(ctx) {
    const events = messageStream({ full: false, textDeltas: 4, errorAfter: 2 });
    const x = await streamExchange(ctx, frames(events, { gapMs: 20 }));
    if (x.res.status !== 200 || !x.seen) return notStreamed(x);
    const sent = events[events.length - 1];
    const got = x.res.events.find((e) => e.event === 'error' || e.data.includes('"error"'));
    if (!got) return fail('the error event never reached the client', { expected: `event: error / data: ${sent.data}`, actual: `${plural(x.res.events.length, 'event')}, none an error${x.res.error ? `; stream ended with ${x.res.error}` : ''}`, evidence: streamEvidence(x) });
    if (got.event !== 'error' || got.data !== sent.data) return fail('the error event changed', { expected: `error: ${sent.data}`, actual: `${got.event}: ${got.data}`, evidence: streamEvidence(x) });
    return pass('the mid-stream error event arrived unchanged');
  },
});
