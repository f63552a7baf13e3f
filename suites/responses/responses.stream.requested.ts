// RESP-SSE-4: a streaming Responses API request reaches the upstream as a streaming request (no
// "fake streaming": asking the upstream for a whole answer and replaying it as events).
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { at, toPlain, tryParse } from '../../src/core/json.js';
import { noStream, responsesStreamExchange } from './common.js';
import { streamEvidenceOf } from '../shared/exchange.js';
import { excerpt } from '../shared/evidence.js';

export default defineCheck({
  id: 'responses.stream.requested',
  title: 'A request with "stream": true reaches the upstream with "stream": true and is answered with the upstream\'s event stream',
  requirements: ['RESP-SSE-4'],
  level: 'MUST',
  untranslatable: 'the request\'s `stream` field as sent',
  protocol: 'responses',
  requirement:
    'A Responses API request whose body says "stream": true reaches the upstream with "stream": true, and the client gets a text/event-stream answer: the gateway does not ask the upstream for a whole answer ("stream": false or absent) and replay it as events.',
  fix: 'Forward `"stream": true` as the client sent it and pipe the upstream\'s event stream back; never ask the upstream for a whole answer and replay it as events.',
  async run(ctx) {
    const x = await responsesStreamExchange(ctx);
    const ev = streamEvidenceOf(x, 600);
    if (!x.seen) return fail(noStream(x), { evidence: ev });
    const body = tryParse(x.seen.body.toString('utf8'));
    if (!body.ok) return fail('the upstream received a body that is not JSON', { expected: 'the JSON body with "stream": true', actual: excerpt(x.seen.body.toString('utf8'), 200), evidence: ev });
    const stream = at(body.node, '/stream');
    const seen = stream ? JSON.stringify(toPlain(stream)) : '(absent)';
    if (seen !== 'true') return fail(`the upstream received "stream": ${seen}: the gateway asked for a whole answer instead of a stream`, { expected: '"stream": true', actual: `"stream": ${seen}`, evidence: ev });
    const type = x.res.rawHeaders.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
    if (x.res.status !== 200 || !/text\/event-stream/i.test(type)) return fail(`the client got ${x.res.status} ${type || '(no content-type)'} instead of an event stream`, { expected: '200 text/event-stream', actual: `${x.res.status} ${type}`, evidence: ev });
    return pass('"stream": true reached the upstream and its event stream reached the client');
  },
});
