import { defineCheck, fail, pass } from '../../src/check/check.js';
import { messageBody } from '../../src/protocols/messages/index.js';
import { clientEvidence } from '../shared/evidence.js';
import { messagesBody } from '../shared/protocols.js';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { attempt, describeShape, isJsonError, shapeOf } from '../shared/shape.js';

export default defineCheck({
  id: 'errors.upstream.unreachable',
  title: 'With the upstream down (connection refused), a messages request gets a JSON error',
  requirements: ['ERR-DOWN-1', 'MSG-RESP-2'],
  level: 'MUST',
  protocol: 'messages',
  // The upstream is stopped for every check while this one runs: the outage window at the end.
  outage: true,
  requirement: 'When the upstream refuses connections, the client gets an error status with a JSON error body, never an HTML proxy page or a dropped connection; the status and the time taken are reported (ERR-DOWN-1, MSG-RESP-2).',
  fix: 'Answer your own JSON error when the upstream cannot be reached. nginx: `error_page 502 @bad_gateway;` with a named location that returns JSON (see examples/nginx/hardened.conf).',
  async run(ctx) {
    // A case all the same: a request that reached the upstream would show it was not down.
    const e = ctx.upstream.next().json(messageBody());
    const sent = messagesBody({}).split(CASE_PLACEHOLDER).join(e.token);
    await ctx.upstream.suspendUpstream();
    try {
      const r = await attempt(() => ctx.gateway.messages(sent, { caseToken: e.token, signal: ctx.signal }));
      if (!r.ok) return fail(`with the upstream down, the gateway gave no answer: ${r.error}`, { expected: 'a JSON error (e.g. 502)', actual: r.error });
      if (e.hits.length) throw new Error('harness bug: the upstream received a request while suspended');
      const res = r.value;
      const ms = Math.round(res.endedAt - res.startedAt);
      const shape = shapeOf(res);
      const evidence = { ms, client: clientEvidence(res, 800) };
      if (!isJsonError(shape))
        return fail(`with the upstream down, the client got ${shape.html ? 'an HTML page' : 'no JSON error object'} after ${ms} ms: ${describeShape(shape, res.text())}`, { expected: 'an error status with a JSON error body', actual: describeShape(shape, res.text()), evidence });
      return pass(`a JSON ${res.status} after ${ms} ms`, evidence);
    } finally {
      await ctx.upstream.resumeUpstream();
    }
  },
});
