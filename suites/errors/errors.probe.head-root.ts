import { defineCheck, fail, pass } from '../../src/core/check.js';
import { GatewayTimeoutError } from '../../src/client/gateway.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { attempt, withBound } from '../shared/shape.js';

/** How long the start-up probe may take before it counts as a hang. */
const PROBE_MS = 3000;

export default defineCheck({
  id: 'errors.probe.head-root',
  title: 'HEAD / (the client\'s start-up probe) is answered promptly, any status, and a messages request after it works',
  requirements: ['MSG-RESP-2'],
  level: 'SHOULD',
  area: 'errors',
  profile: 'default',
  protocol: 'messages',
  requirement:
    'Claude Code probes HEAD / at start-up; a gateway may answer it with any status, but it answers within 3 s and leaves the connection usable: a messages request sent after it succeeds. The catalog has no requirement of its own for this best-effort traffic; it is filed under MSG-RESP-2 (every case is answered) (protocols.md 1).',
  async run(ctx) {
    // A gateway may pass the probe on: the upstream answers it as the API root does (404), tied to this check.
    const root = ctx.upstream.next().error(404, { message: 'Not Found' });
    const probe = await attempt(() => withBound(ctx.signal, PROBE_MS, (signal) => ctx.gateway.send({ method: 'HEAD', path: '/', auth: 'none', caseToken: root.token, signal })));
    if (!probe.ok) {
      if (ctx.signal.aborted) throw new GatewayTimeoutError('HEAD /: aborted at the check time limit');
      return fail(`HEAD / got no answer: ${probe.kind === 'timeout' ? `nothing within ${PROBE_MS} ms` : probe.error}`, { expected: `any status within ${PROBE_MS} ms`, actual: probe.error });
    }
    const head = { status: probe.value.status, ms: Math.round(probe.value.endedAt - probe.value.startedAt), bodyBytes: probe.value.body.length, forwarded: root.hits.length > 0 };
    const x = await exchange(ctx, messagesBody({}));
    if (x.res.status !== 200) return fail(`after HEAD / (${head.status}), a messages request got ${x.res.status}`, { expected: '200', actual: String(x.res.status), evidence: { head, after: exchangeEvidence(x, 600) } });
    return pass(`HEAD / answered ${head.status} in ${head.ms} ms${head.forwarded ? ' (passed to the upstream)' : ''}; a messages request after it got 200`, { head });
  },
});
