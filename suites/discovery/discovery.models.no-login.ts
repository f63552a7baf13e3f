import { defineCheck, fail, pass } from '../../src/check/check.js';
import { discover, discoveryEvidence, loginSigns, VALID } from './common.js';

export default defineCheck({
  id: 'discovery.models.no-login',
  title: 'GET /v1/models?limit=1000 with a bearer token and with an x-api-key meets no login page or sign-in redirect',
  requirements: ['DISC-4'],
  level: 'MUST',
  protocol: 'messages',
  requirement:
    'No identity-provider login is put in front of discovery: a request carrying a bearer token or an x-api-key is never answered with a login page, a sign-in redirect or a password form (DISC-4).',
  fix: 'Keep single sign-on out of the API paths: no `auth_request`, OIDC module or login redirect in front of `/v1/models` (nginx: a separate `location` for the site that needs a login).',
  async run(ctx) {
    const calls = await Promise.all(VALID.map((cred) => discover(ctx, cred)));
    const found = calls.map((d) => ({ d, signs: loginSigns(d) })).filter((x) => x.signs.length);
    const evidence = { calls: calls.map((d) => discoveryEvidence(d)) };
    if (found.length)
      return fail(`discovery with ${found.map((x) => x.d.cred).join(' and ')} met a login: ${found[0].signs.join(', ')}`, {
        expected: 'the API answer (JSON list, or JSON 401/403)',
        actual: found.map((x) => `${x.d.cred}: ${x.signs.join(', ')}`).join('\n'),
        evidence,
      });
    if (!calls.some((d) => d.res)) return fail(`discovery got no answer: ${calls[0].failure}`, { expected: 'an answer', actual: calls.map((d) => `${d.cred}: ${d.failure}`).join('\n'), evidence });
    return pass(`no login page or sign-in redirect (${calls.map((d) => `${d.cred} ${d.res?.status ?? d.failure}`).join(', ')})`, evidence);
  },
});
