import { defineCheck, fail, pass } from '../../src/check/check.js';
import { ALL, discover, discoveryEvidence } from './common.js';

export default defineCheck({
  id: 'discovery.models.no-redirect',
  title: 'GET /v1/models?limit=1000 with and without a credential is answered without a redirect',
  requirements: ['DISC-2'],
  level: 'MUST',
  protocol: 'messages',
  requirement:
    'Discovery never answers a 3xx, with or without a credential, http-to-https included: the client does not follow redirects and counts one as a failed discovery (DISC-2).',
  fix: 'Answer `/v1/models` directly: no `return 301` to https, no trailing-slash redirect, no redirect to a login page. The client does not follow redirects.',
  async run(ctx) {
    const calls = await Promise.all(ALL.map((cred) => discover(ctx, cred)));
    const redirects = calls.filter((d) => d.res && d.res.status >= 300 && d.res.status < 400);
    const evidence = { calls: calls.map((d) => discoveryEvidence(d)) };
    if (redirects.length)
      return fail(`discovery redirected ${redirects.map((d) => `${d.cred} (${d.res!.status} to ${d.res!.header('location') ?? 'no location'})`).join(', ')}`, {
        expected: 'a direct answer (2xx, 401 or 403), never 3xx',
        actual: redirects.map((d) => `${d.cred}: ${d.res!.status} location: ${d.res!.header('location') ?? '(none)'}`).join('\n'),
        evidence,
      });
    const answered = calls.filter((d) => d.res);
    if (!answered.length) return fail(`discovery got no answer at all: ${calls[0].failure}`, { expected: 'an answer', actual: calls.map((d) => `${d.cred}: ${d.failure}`).join('\n'), evidence });
    return pass(`no redirect for any credential style (${calls.map((d) => `${d.cred} ${d.res?.status ?? d.failure}`).join(', ')})`, evidence);
  },
});
