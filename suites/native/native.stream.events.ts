import { defineCheck, fail, pass } from '../../src/check/check.js';
import { streamEvidenceOf } from '../shared/exchange.js';
import { nativeStreamExchange, noStream, pairPayloads, payloadName } from './common.js';
import { plural } from '../../src/core/words.js';

export default defineCheck({
  id: 'native.stream.events',
  title: "A native stream's events arrive all, in order, with nothing added (no data: [DONE], no event the upstream did not send)",
  requirements: ['NAT-STREAM-4'],
  level: 'MUST',
  untranslatable: "the upstream's events one for one",
  protocol: 'native',
  requirement:
    "Every event of a native stream reaches the client once, in the upstream's order, with its JSON payload, and the gateway adds none: no data: [DONE] terminator or other event the upstream did not send (the stream ends where the body ends).",
  fix: 'Forward every native stream event once and in order, and add none: the native protocol has no `data: [DONE]` terminator (a Gemini client parses every `data:` line as JSON), the stream ends with the body.',
  async run(ctx) {
    const x = await nativeStreamExchange(ctx);
    const none = noStream(x);
    if (none) return none;
    const ev = streamEvidenceOf(x);
    const got = x.res.events.map((e) => e.data);
    const pairs = pairPayloads(x.sent, got);
    const expected = x.sent.map(payloadName).join(' | ');
    const actual = got.map(payloadName).join(' | ') || '(no events)';
    const lost = x.sent.map((_, i) => i).filter((i) => !pairs.some((p) => p.sent === i));
    if (lost.length) return fail(`${lost.length} of ${x.sent.length} events never reached the client as sent: ${lost.map((i) => payloadName(x.sent[i])).join(', ')}`, { expected, actual, evidence: { lost, ...ev } });
    const added = got.map((_, k) => k).filter((k) => !pairs.some((p) => p.got === k));
    if (added.length) {
      const done = added.some((k) => got[k].trim() === '[DONE]');
      return fail(`${plural(added.length, 'event')} the upstream never sent were added${done ? ': a data: [DONE] terminator, which the native protocol does not have (a Gemini client fails to parse it as JSON)' : ''}`, { expected, actual, evidence: { added: added.map((k) => got[k].slice(0, 200)), ...ev } });
    }
    return pass(`all ${x.sent.length} events arrived once, in order, nothing added`);
  },
});
