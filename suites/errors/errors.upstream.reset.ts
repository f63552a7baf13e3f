import { defineCheck, fail, pass } from '../../src/check/check.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { attempt, describeShape, isJsonError, shapeOf } from '../shared/shape.js';

export default defineCheck({
  id: 'errors.upstream.reset',
  title: 'When the upstream resets the connection after reading a messages request, the client gets a JSON error',
  requirements: ['ERR-DOWN-1', 'MSG-RESP-2'],
  level: 'MUST',
  protocol: 'messages',
  requirement: 'An upstream that drops the connection (TCP reset) before answering leaves the client with an error status and a JSON error body, never an HTML page or a dropped connection; the status and the time taken are reported (ERR-DOWN-1, MSG-RESP-2).',
  fix: 'Answer a JSON error when the upstream drops the connection, as for an unreachable upstream (nginx: the JSON `error_page 502`).',
  async run(ctx) {
    const r = await attempt(() => exchange(ctx, messagesBody({}), { reply: (c) => c.upstream.next().reset() }));
    if (!r.ok) return fail(`after the upstream reset the connection, the gateway gave no answer: ${r.error}`, { expected: 'a JSON error (e.g. 502)', actual: r.error });
    const x = r.value;
    const ms = Math.round(x.res.endedAt - x.res.startedAt);
    const shape = shapeOf(x.res);
    const evidence = { ms, ...exchangeEvidence(x, 800) };
    if (!isJsonError(shape))
      return fail(`after an upstream reset, the client got ${shape.html ? 'an HTML page' : 'no JSON error object'} after ${ms} ms: ${describeShape(shape, x.res.text())}`, { expected: 'an error status with a JSON error body', actual: describeShape(shape, x.res.text()), evidence });
    return pass(`a JSON ${x.res.status} after ${ms} ms`, evidence);
  },
});
