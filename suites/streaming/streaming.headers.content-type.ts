import { defineCheck, fail, pass } from '../../src/check/check.js';
import { frames, messageStream } from '../../src/protocols/messages/index.js';
import { notStreamed, streamEvidence, streamExchange } from './common.js';

export default defineCheck({
  id: 'streaming.headers.content-type',
  title: 'A stream keeps content-type text/event-stream and is not compressed or transformed',
  requirements: ['SSE-HDR-1'],
  level: 'MUST',
  protocol: 'messages',
  requirement: 'The stream keeps content-type text/event-stream; no content encoding or transformation that can hold events back.',
  fix: 'Keep `content-type: text/event-stream` and do not compress or transform streams (nginx: leave `gzip` off for `text/event-stream`).',
  async run(ctx) {
    // streamExchange says it accepts gzip, as fetch-based clients do: a compressing proxy compresses now.
    const x = await streamExchange(ctx, frames(messageStream({ full: false, textDeltas: 3 })));
    if (!x.seen) return notStreamed(x);
    const ct = x.res.header('content-type') ?? '';
    const enc = x.res.header('content-encoding');
    if (!/^text\/event-stream\b/i.test(ct)) return fail(`content-type changed to ${ct || '(absent)'}`, { expected: 'text/event-stream', actual: ct || '(absent)', evidence: streamEvidence(x) });
    if (enc && enc.toLowerCase() !== 'identity') return fail(`the stream was compressed (content-encoding: ${enc})`, { expected: 'no content-encoding', actual: enc, evidence: streamEvidence(x) });
    return pass(`content-type ${ct}, no content-encoding`);
  },
});
