import { defineCheck, fail, pass } from '../../src/check/check.js';
import { describeDiff, diffJson } from '../../src/core/json-diff.js';
import { tryParse } from '../../src/core/json.js';
import { DONE } from '../../src/protocols/chat/index.js';
import { chatStreamExchange, chunkName, pairEvents } from './common.js';
import { streamEvidenceOf } from '../shared/exchange.js';
import { plural } from '../../src/core/words.js';

export default defineCheck({
  id: 'chat.stream.complete',
  title: 'A streamed completion arrives whole: role, content and finish chunks, the usage chunk with empty choices, and data: [DONE]',
  requirements: ['CHAT-SSE-1'],
  level: 'MUST',
  untranslatable: 'the upstream\'s chunks one for one',
  protocol: 'chat',
  requirement: 'Every chunk of a chat-completions stream reaches the client unchanged and in order, including the chunk whose choices is empty (the usage chunk of stream_options.include_usage) and the data: [DONE] terminator.',
  fix: 'Forward every chunk: the usage chunk with empty `choices` (`stream_options.include_usage`) and the final `data: [DONE]` included.',
  async run(ctx) {
    const x = await chatStreamExchange(ctx);
    const ev = streamEvidenceOf(x);
    if (x.res.status !== 200 || !x.seen)
      return fail(x.seen ? `the client got status ${x.res.status}${x.res.error ? ` (${x.res.error})` : ''} instead of a stream` : `the request never reached the upstream (the gateway answered ${x.res.status})`, { evidence: ev });
    const got = x.res.events.map((e) => e.data);
    const pairs = pairEvents(x.sent, got);
    const lost = x.sent.map((_, i) => i).filter((i) => !pairs.some((p) => p.sent === i));
    if (lost.length) {
      const names = lost.map((i) => chunkName(x.sent[i]));
      return fail(`${plural(lost.length, 'chunk')} never reached the client: ${names.join(', ')}`, {
        expected: x.sent.map(chunkName).join(' | '),
        actual: got.map(chunkName).join(' | '),
        evidence: { lost: names, ...ev },
      });
    }
    for (const p of pairs) {
      if (x.sent[p.sent] === DONE) {
        if (got[p.got] !== DONE) return fail(`the [DONE] terminator arrived as ${JSON.stringify(got[p.got])}`, { expected: DONE, actual: got[p.got], evidence: ev });
        continue;
      }
      const a = tryParse(x.sent[p.sent]);
      const b = tryParse(got[p.got]);
      if (!a.ok) throw new Error('harness bug: scripted chunk is not JSON');
      if (!b.ok) return fail(`chunk ${p.sent} (${chunkName(x.sent[p.sent])}) arrived as text that is not JSON`, { expected: x.sent[p.sent], actual: got[p.got], evidence: ev });
      const diffs = diffJson(a.node, b.node);
      if (diffs.length) return fail(`chunk ${p.sent} (${chunkName(x.sent[p.sent])}) changed: ${describeDiff(diffs[0])}`, { expected: x.sent[p.sent], actual: got[p.got], evidence: { diffs, ...ev } });
    }
    if (got.length > x.sent.length) return fail(`${plural(got.length - x.sent.length, 'event')} the upstream never sent were added`, { expected: `${x.sent.length} chunks`, actual: got.map(chunkName).join(' | '), evidence: ev });
    if (got[got.length - 1] !== DONE) return fail('the stream did not end with data: [DONE]', { expected: DONE, actual: got[got.length - 1] ?? '(no events)', evidence: ev });
    return pass(`all ${x.sent.length} chunks arrived unchanged and in order, the usage chunk and [DONE] included`);
  },
});
