import { defineCheck, fail, pass } from '../../src/check/check.js';
import { appsRun, signIn } from './common.js';

export default defineCheck({
  id: 'apps.device.flow',
  title: 'Sign-in works end to end as Claude Code does it (RFC 8628 device flow through the OIDC login)',
  requirements: ['APP-DEVICE-1'],
  level: 'MUST',
  area: 'apps',
  profile: 'apps',
  requirement: 'The device authorization flow through the gateway login and callback yields a session token; polling before approval answers authorization_pending; the device code is single use.',
  run: appsRun(async (fx) => {
    const s = await signIn(fx, 'erin');
    const evidence = { steps: s.steps };
    if (s.badEarlyPoll) return fail('polling before approval did not answer 400 authorization_pending (RFC 8628 3.5)', { expected: '400 {"error":"authorization_pending"}', actual: s.badEarlyPoll, evidence });
    if (!s.ok || !s.tokens) return fail(`the device flow did not yield a session token (${s.error})`, { evidence });
    if (s.tokens.access_token.split('.').length !== 3) return fail('the access token is not a JWT', { evidence });
    return pass('device authorization, login, IdP, callback and polling gave a session token', evidence);
  }),
});
