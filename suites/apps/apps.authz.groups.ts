import { defineCheck, fail, pass } from '../../src/check/check.js';
import { appsRun, bearer, brief, call, signIn, session } from './common.js';

export default defineCheck({
  id: 'apps.authz.groups',
  title: 'A user outside allowed_groups gets no session (JSON refusal at the token endpoint); a user inside is served',
  requirements: ['APP-AUTHZ-1'],
  level: 'MUST',
  profile: 'apps',
  requirement: 'A user outside allowed_groups is refused with a JSON 401/403 (at the device flow: an RFC 8628 JSON error such as access_denied, never a token); a user inside is served.',
  fix: 'Refuse users outside `allowed_groups` at sign-in with an RFC 8628 JSON error (`access_denied`); never issue them a token.',
  run: appsRun(async (fx) => {
    const carol = await signIn(fx, 'carol');
    if (carol.ok) return fail('carol (in no allowed group) was given a session token', { expected: 'a JSON error (access_denied) at the token endpoint', actual: 'tokens', evidence: { steps: carol.steps } });
    if (!/access_denied|unauthorized|forbidden|authentication_error|permission_error/.test(carol.error ?? '')) return fail(`the refusal of carol is not a JSON OAuth or API error: ${carol.error}`, { expected: 'an error such as access_denied', actual: carol.error, evidence: { steps: carol.steps } });
    const token = await session(fx, 'alice');
    const served = await call(`${fx.gatewayUrl}/v1/models`, { headers: bearer(token) });
    if (served.status !== 200) return fail('alice (in eng) is not served', { actual: brief(served) });
    return pass(`carol refused (${carol.error}), alice served`, { steps: carol.steps });
  }),
});
