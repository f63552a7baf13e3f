import { defineCheck, fail, pass } from '../../src/check/check.js';
import { bedrockException, bedrockStream } from '../../src/protocols/bedrock/index.js';
import { streamEvidenceOf } from '../shared/exchange.js';
import { bedrockStreamExchange, eventName } from './common.js';
import { plural } from '../../src/core/words.js';

const EXCEPTION = { type: 'throttlingException', message: 'Too many tokens, please wait before trying again.' };

export default defineCheck({
  id: 'bedrock.stream.exception',
  title: 'An exception in the middle of a Bedrock stream reaches the client as an exception message, after the events before it',
  requirements: ['BR-STREAM-3'],
  level: 'MUST',
  untranslatable: "the upstream's event-stream messages one for one",
  protocol: 'bedrock',
  requirement: 'When the Bedrock upstream ends a stream with an exception message (`:message-type` exception, its `:exception-type` and a JSON `message`), the client receives that exception message with its type and message, valid, after the events sent before it: the stream is not ended as if complete, nor the exception dropped or turned into an event.',
  fix: 'Pass exception messages of a Bedrock stream (`:message-type` exception) through as they came, after the events before them; a gateway that re-encodes the stream must re-encode exceptions too, never drop them or end the stream as if complete.',
  async run(ctx) {
    // The events up to the first text delta, then the exception.
    const events = bedrockStream({ textDeltas: 2 }).slice(0, 4);
    const texts = [...events, bedrockException(EXCEPTION.type, EXCEPTION.message)];
    const x = await bedrockStreamExchange(ctx, { texts });
    const ev = { ...streamEvidenceOf(x), frames: x.res.events.map((e) => ({ ...e.frame, event: eventName(e.data) })) };
    if (x.res.status !== 200 || !x.seen)
      return fail(x.seen ? `the client got status ${x.res.status}${x.res.error ? ` (${x.res.error})` : ''} instead of a stream` : `the request never reached the upstream (the gateway answered ${x.res.status})`, { evidence: ev });
    const at = x.res.events.findIndex((e) => e.frame?.messageType === 'exception');
    if (at < 0) {
      const last = x.res.events.at(-1);
      return fail(`the upstream's ${EXCEPTION.type} never reached the client: the stream ended after ${plural(x.res.events.length, 'message')}${last ? ` (the last: ${eventName(last.data)})` : ''}, so the client takes a cut answer for a whole one`, { expected: `an exception message of type ${EXCEPTION.type}`, actual: x.res.events.map((e) => e.frame?.messageType ?? '?').join(' | '), evidence: ev });
    }
    const f = x.res.events[at];
    if (!f.frame?.ok) return fail(`the exception message fails the client's codec: ${f.frame?.problem}`, { expected: 'a valid exception message', actual: f.frame?.problem, evidence: ev });
    if (f.frame.exceptionType !== EXCEPTION.type || f.data !== texts[texts.length - 1]) return fail(`the exception arrived as ${f.frame.exceptionType ?? '(no type)'}: ${f.data.slice(0, 200)}`, { expected: texts[texts.length - 1], actual: f.data.slice(0, 300), evidence: ev });
    if (at !== events.length || x.res.events.slice(0, at).some((e, i) => e.data !== events[i])) return fail(`the exception arrived as message ${at}, not after the ${events.length} events sent before it`, { expected: [...events.map(eventName), EXCEPTION.type].join(' | '), actual: x.res.events.map((e) => eventName(e.data)).join(' | '), evidence: ev });
    return pass(`the ${EXCEPTION.type} arrived as a valid exception message after the ${events.length} events before it`);
  },
});
