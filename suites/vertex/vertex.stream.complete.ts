import { defineCheck, fail, pass } from '../../src/check/check.js';
import { describeDiff, diffJson } from '../../src/core/json-diff.js';
import { tryParse } from '../../src/core/json.js';
import { messageStream } from '../../src/protocols/messages/index.js';
import { streamEvidenceOf } from '../shared/exchange.js';
import { dataOf, pairEvents, vertexStream } from './common.js';
import { plural } from '../../src/core/words.js';

const nameOf = (frame: string) => /^event: (.*)$/m.exec(frame)?.[1] ?? '(no event line)';

export default defineCheck({
  id: 'vertex.stream.complete',
  title: 'A streamRawPredict answer arrives whole: every event (thinking, text, tool use, ping, an unknown type) unchanged and in order, through message_stop',
  requirements: ['VTX-SSE-2'],
  level: 'MUST',
  untranslatable: "the upstream's events one for one",
  protocol: 'vertex',
  requirement: 'Every event of a streamRawPredict answer reaches the client with its event name and data unchanged and in order, events of types the gateway does not know included, ending with message_stop.',
  fix: 'Pass every event of `:streamRawPredict` on unchanged, `event:` line and data, unknown event types included, through `message_stop`; do not parse and rebuild the stream.',
  async run(ctx) {
    const x = await vertexStream(ctx, messageStream({ full: true, textDeltas: 4 }));
    const ev = streamEvidenceOf(x);
    if (x.res.status !== 200 || !x.seen)
      return fail(x.seen ? `the client got status ${x.res.status}${x.res.error ? ` (${x.res.error})` : ''} instead of a stream` : `the request never reached the upstream (the gateway answered ${x.res.status})`, { evidence: ev });
    const sent = x.sent.map(dataOf);
    const got = x.res.events;
    const pairs = pairEvents(sent, got.map((e) => e.data));
    const lost = sent.map((_, i) => i).filter((i) => !pairs.some((p) => p.sent === i));
    if (lost.length) {
      const names = lost.map((i) => nameOf(x.sent[i]));
      return fail(`${plural(lost.length, 'event')} never reached the client: ${names.join(', ')}`, { expected: x.sent.map(nameOf).join(' | '), actual: got.map((e) => e.event ?? '(none)').join(' | '), evidence: { lost: names, ...ev } });
    }
    for (const p of pairs) {
      const want = nameOf(x.sent[p.sent]);
      if (got[p.got].event !== want) return fail(`event ${p.sent} (${want}) arrived named ${got[p.got].event ?? '(no event line)'}`, { expected: want, actual: got[p.got].event ?? '(none)', evidence: ev });
      const a = tryParse(sent[p.sent]);
      const b = tryParse(got[p.got].data);
      if (!a.ok) throw new Error('harness bug: a scripted event is not JSON');
      if (!b.ok) return fail(`event ${p.sent} (${want}) arrived as text that is not JSON`, { expected: sent[p.sent], actual: got[p.got].data, evidence: ev });
      const diffs = diffJson(a.node, b.node);
      if (diffs.length) return fail(`event ${p.sent} (${want}) changed: ${describeDiff(diffs[0])}`, { expected: sent[p.sent], actual: got[p.got].data, evidence: { diffs, ...ev } });
    }
    if (got.length > sent.length) return fail(`${plural(got.length - sent.length, 'event')} the upstream never sent were added`, { expected: `${sent.length} events`, actual: got.map((e) => e.event ?? '(none)').join(' | '), evidence: ev });
    return pass(`all ${sent.length} events arrived unchanged and in order, message_stop last`);
  },
});
