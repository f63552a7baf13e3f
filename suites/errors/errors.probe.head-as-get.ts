import { defineCheck, fail, pass } from '../../src/check/check.js';
import { GatewayTimeoutError } from '../../src/client/gateway.js';
import { attempt, withBound } from '../shared/shape.js';

/** How long each probe may take (as errors.probe.head-root allows). */
const PROBE_MS = 3000;

export default defineCheck({
  id: 'errors.probe.head-as-get',
  title: 'HEAD / is answered as GET / is: the same status and content type, no body; never 405 or 5xx',
  requirements: ['ERR-PROBE-2'],
  level: 'SHOULD',
  protocol: 'messages',
  requirement: "GET / and HEAD / (the client's start-up probe) get the same status and content type, HEAD without a body; a 405 or a 5xx to HEAD / is reported (ERR-PROBE-2). A probe that hangs is errors.probe.head-root's finding.",
  fix: 'Answer `HEAD /` as `GET /`: the same status and headers, no body. Routers that serve GET only answer 405; register the root for HEAD too (most frameworks do so for GET routes when asked).',
  async run(ctx) {
    // A gateway may pass the root on: the upstream answers it as the API root does (404), tied to this check.
    const probe = (method: 'GET' | 'HEAD') => {
      const up = ctx.upstream.next().error(404, { message: 'Not Found' });
      return attempt(() => withBound(ctx.signal, PROBE_MS, (signal) => ctx.gateway.send({ method, path: '/', auth: 'none', caseToken: up.token, signal })));
    };
    const [get, head] = await Promise.all([probe('GET'), probe('HEAD')]);
    if (ctx.signal.aborted) throw new GatewayTimeoutError('GET and HEAD /: aborted at the check time limit');
    if (!head.ok || !get.ok) return { ok: true, skip: true, message: `${!head.ok ? `HEAD / got no answer (${head.error})` : `GET / got no answer (${!get.ok ? get.error : ''})`}: errors.probe.head-root reports hangs` };
    const view = (r: typeof get.value) => ({ status: r.status, contentType: r.header('content-type') ?? null, bodyBytes: r.body.length });
    const evidence = { get: view(get.value), head: view(head.value) };
    const problems: string[] = [];
    if (head.value.status === 405 || head.value.status >= 500) problems.push(`HEAD / got ${head.value.status}: a client's start-up probe takes that for a broken gateway`);
    if (head.value.status !== get.value.status) problems.push(`HEAD / got ${head.value.status} where GET / gets ${get.value.status}`);
    else if (evidence.head.contentType !== evidence.get.contentType) problems.push(`HEAD / says content-type ${evidence.head.contentType ?? '(none)'} where GET / says ${evidence.get.contentType ?? '(none)'}`);
    if (head.value.body.length) problems.push(`HEAD / came with a ${head.value.body.length}-byte body`);
    if (problems.length) return fail(problems.join('; '), { expected: "HEAD / answered as GET / (status, content type), without a body", actual: problems.join('\n'), evidence });
    return pass(`HEAD / and GET / both answered ${get.value.status} (${evidence.get.contentType ?? 'no content type'})`, evidence);
  },
});
