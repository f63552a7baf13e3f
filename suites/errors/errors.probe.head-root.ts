import { defineCheck, fail, pass } from '../../src/check/check.js';
import { GatewayTimeoutError } from '../../src/client/gateway.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { attempt, withBound } from '../shared/shape.js';

/** How long the start-up probe may take before it counts as a hang. */
const PROBE_MS = 3000;

/**
 * The start-up probes: `HEAD /` (the catalog's ERR-PROBE-1, sent by earlier clients) and
 * `HEAD /api/hello` (the pre-connect of Claude Code 2.1.330, sent when nonessential traffic is
 * allowed). Both go to the gateway's base URL; both must be answered promptly.
 */
export const PROBE_PATHS = ['/', '/api/hello'];

export default defineCheck({
  id: 'errors.probe.head-root',
  title: "HEAD / and HEAD /api/hello (the client's start-up probes) are answered promptly, any status, and a messages request after them works",
  requirements: ['ERR-PROBE-1'],
  level: 'SHOULD',
  protocol: 'messages',
  requirement:
    "The client probes the gateway at start-up (HEAD /; Claude Code 2.1.330 sends HEAD /api/hello): a gateway may answer with any status, but it answers within 3 s, never hangs, and leaves the connection usable: a messages request sent after the probes succeeds. The 3 s are the gateway's: the harness's own holds (its process held by other work, a loaded machine) are not counted.",
  fix: 'Answer `HEAD /` and `HEAD /api/hello` promptly with any status, and keep the connection usable afterwards.',
  async run(ctx) {
    // A gateway may pass a probe on: the upstream answers it as the API root does (404), tied to this check.
    const probes = await Promise.all(
      PROBE_PATHS.map(async (path) => {
        const up = ctx.upstream.next().error(404, { message: 'Not Found' });
        const r = await attempt(() => withBound(ctx.signal, PROBE_MS, (signal) => ctx.gateway.send({ method: 'HEAD', path, auth: 'none', caseToken: up.token, signal })));
        return { path, up, r };
      }),
    );
    if (ctx.signal.aborted) throw new GatewayTimeoutError('HEAD probes: aborted at the check time limit');
    const hung = probes.filter((p) => !p.r.ok);
    if (hung.length)
      return fail(hung.map((p) => `HEAD ${p.path} got no answer: ${!p.r.ok && p.r.kind === 'timeout' ? `nothing within ${PROBE_MS} ms` : !p.r.ok ? p.r.error : ''}`).join('; '), {
        expected: `any status within ${PROBE_MS} ms, for ${PROBE_PATHS.map((p) => `HEAD ${p}`).join(' and ')}`,
        actual: hung.map((p) => (!p.r.ok ? `HEAD ${p.path}: ${p.r.error}` : '')).join('; '),
        evidence: { answered: probes.filter((p) => p.r.ok).map((p) => p.path) },
      });
    const head = probes.map((p) => (p.r.ok ? { path: p.path, status: p.r.value.status, ms: Math.round(p.r.value.endedAt - p.r.value.startedAt), bodyBytes: p.r.value.body.length, forwarded: p.up.hits.length > 0 } : null)).filter((h) => h !== null);
    const said = head.map((h) => `HEAD ${h.path} answered ${h.status} in ${h.ms} ms${h.forwarded ? ' (passed to the upstream)' : ''}`).join(', ');
    const x = await exchange(ctx, messagesBody({}));
    if (x.res.status !== 200) return fail(`after the probes (${said}), a messages request got ${x.res.status}`, { expected: '200', actual: String(x.res.status), evidence: { head, after: exchangeEvidence(x, 600) } });
    return pass(`${said}; a messages request after them got 200`, { head });
  },
});
