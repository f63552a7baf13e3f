import { defineCheck, fail, pass } from '../../src/check/check.js';
import { describeDiff, diffJson } from '../../src/core/json-diff.js';
import { isEventStreamType, messageHexDump } from '../../src/core/framing.js';
import { tryParse } from '../../src/core/json.js';
import { streamEvidenceOf } from '../shared/exchange.js';
import { bedrockStreamExchange, eventName } from './common.js';
import { plural } from '../../src/core/words.js';

export default defineCheck({
  id: 'bedrock.stream.frames',
  title: 'A Bedrock stream arrives as valid event-stream messages: each with good checksums, a chunk event, one scripted event each, in order',
  requirements: ['BR-STREAM-1'],
  level: 'MUST',
  untranslatable: "the upstream's event-stream messages one for one",
  protocol: 'bedrock',
  requirement:
    'An InvokeModelWithResponseStream answer reaches the client as application/vnd.amazon.eventstream whose binary messages each pass their prelude and message checksums, are `:message-type` event with `:event-type` chunk, and carry in their `bytes` exactly one of the upstream\'s events, all of them in order: none merged with another, split, re-encoded or cut short.',
  fix: 'Pass the `application/vnd.amazon.eventstream` answer through as bytes: do not decode it as text, re-chunk it into messages of your own or merge events; if the gateway must read it, decode and re-encode each message with an AWS event-stream codec (valid lengths and CRC32 checksums), one upstream event per message.',
  async run(ctx) {
    const x = await bedrockStreamExchange(ctx);
    const frames = x.res.events.map((e) => ({ ...e.frame!, event: eventName(e.data) }));
    const ev = { ...streamEvidenceOf(x), frames };
    /** The evidence with the bytes of message `i` as the client received them. */
    const at = (i: number) => ({ [`message ${i} as received (hex)`]: messageHexDump(x.res.raw, frames, i), ...ev });
    if (x.res.status !== 200 || !x.seen)
      return fail(x.seen ? `the client got status ${x.res.status}${x.res.error ? ` (${x.res.error})` : ''} instead of a stream` : `the request never reached the upstream (the gateway answered ${x.res.status})`, { evidence: ev });
    const type = x.res.header('content-type');
    if (!isEventStreamType(type)) return fail(`the stream arrived as ${type ?? 'no content-type'}: the AWS SDK reads an event stream only as application/vnd.amazon.eventstream`, { expected: 'application/vnd.amazon.eventstream', actual: type ?? '(none)', evidence: ev });
    const bad = x.res.events.findIndex((e) => !e.frame?.ok);
    if (bad >= 0) return fail(`message ${bad} of the stream fails the client's codec: ${x.res.events[bad].frame?.problem}`, { expected: 'every message with a good prelude and message checksum', actual: x.res.events[bad].frame?.problem, evidence: at(bad) });
    const notChunk = x.res.events.findIndex((e) => e.frame?.messageType !== 'event' || e.frame.eventType !== 'chunk');
    if (notChunk >= 0) {
      const f = x.res.events[notChunk].frame!;
      return fail(`message ${notChunk} is :message-type ${f.messageType ?? '(none)'}, :event-type ${f.eventType ?? f.exceptionType ?? '(none)'} instead of an event of type chunk`, { expected: ':message-type event, :event-type chunk', actual: `${f.messageType} ${f.eventType ?? f.exceptionType}`, evidence: at(notChunk) });
    }
    if (x.res.framingError) return fail(`the stream cannot be read to its end: ${x.res.framingError}`, { expected: 'the stream ending on a message boundary', actual: x.res.framingError, evidence: at(frames.length) });
    const got = x.res.events.map((e) => e.data);
    for (let i = 0; i < Math.max(got.length, x.sent.length); i++) {
      if (i >= got.length) return fail(`${x.sent.length - got.length} of ${x.sent.length} events never arrived as messages of their own (the first missing: ${eventName(x.sent[i])})`, { expected: x.sent.map(eventName).join(' | '), actual: got.map(eventName).join(' | '), evidence: ev });
      if (i >= x.sent.length) return fail(`${plural(got.length - x.sent.length, 'message')} the upstream never sent were added`, { expected: `${x.sent.length} messages`, actual: got.map(eventName).join(' | '), evidence: ev });
      const b = tryParse(got[i]);
      if (!b.ok) return fail(`message ${i} carries ${got[i].length} bytes that are not one JSON event (events merged into one message, or cut): the client cannot parse it`, { expected: x.sent[i], actual: got[i].slice(0, 600), evidence: at(i) });
      const a = tryParse(x.sent[i]);
      if (!a.ok) throw new Error('harness bug: a scripted Bedrock event is not JSON');
      const diffs = diffJson(a.node, b.node);
      if (diffs.length) return fail(`message ${i} (${eventName(x.sent[i])}) carries another event: ${describeDiff(diffs[0])}`, { expected: x.sent[i], actual: got[i].slice(0, 600), evidence: { diffs, ...at(i) } });
    }
    return pass(`all ${x.sent.length} events arrived as valid chunk messages of their own, in order`);
  },
});
