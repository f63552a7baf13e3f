import { defineCheck, fail, pass } from '../../src/check/check.js';
import { frames, messageStream } from '../../src/protocols/messages/index.js';
import { notStreamed, sentEvents, streamEvidence, streamExchange } from './common.js';

export default defineCheck({
  id: 'streaming.frame.events',
  title: 'A full stream (thinking, text, tool input, ping, an unknown event type) arrives with the same events, data and order, with \\n and \\r\\n framing',
  requirements: ['SSE-FRAME-1'],
  level: 'MUST',
  untranslatable: 'the upstream\'s events',
  protocol: 'messages',
  requirement: 'Event names, data payloads and their order reach the client unchanged, unknown event types included.',
  fix: 'Forward the stream as bytes, or parse and re-emit every event: event names, data, order and unknown event types included, with `\\n` and `\\r\\n` framing.',
  async run(ctx) {
    for (const eol of ['\n', '\r\n']) {
      const events = messageStream({ full: true, textDeltas: 5 });
      const x = await streamExchange(ctx, frames(events, { eol }));
      if (x.res.status !== 200 || !x.seen) return notStreamed(x);
      const want = sentEvents(events);
      const got = x.res.events.map((e) => ({ event: e.event ?? 'message', data: e.data }));
      const framing = eol === '\n' ? 'LF' : 'CRLF';
      for (let i = 0; i < Math.max(want.length, got.length); i++) {
        const w = want[i];
        const g = got[i];
        if (!w || !g || w.event !== g.event || w.data !== g.data)
          return fail(`${framing}-framed stream: event ${i} differs${!g ? ' (missing: the stream has only ' + got.length + ' events)' : ''}`, {
            expected: w ? `${w.event}: ${w.data}` : '(no more events)',
            actual: g ? `${g.event}: ${g.data}` : '(absent)',
            evidence: { index: i, sentEvents: want.length, receivedEvents: got.length, ...streamEvidence(x) },
          });
      }
    }
    return pass('every event name, data payload and the order arrived unchanged, with LF and CRLF framing');
  },
});
