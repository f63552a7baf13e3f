import { defineCheck, fail, pass } from '../../src/check/check.js';
import { appsRun, brief, signIn } from './common.js';
import { offPublic } from './urls.js';
import { cut } from '../shared/evidence.js';

export default defineCheck({
  id: 'apps.device.flow',
  title: 'Sign-in works end to end as Claude Code does it (RFC 8628 device flow through the OIDC login)',
  requirements: ['APP-DEVICE-1'],
  level: 'MUST',
  profile: 'apps',
  requirement:
    "The device authorization flow through the gateway login and callback yields a session token; polling before approval answers authorization_pending; every URL handed out on the way (verification_uri, verification_uri_complete, the redirects' targets) is on server.public_url (scheme, host, port) and the link the user opens answers; the device code is single use (polled again, it yields no token).",
  fix: 'Implement the device authorization grant (RFC 8628) through the OIDC code flow with PKCE, state and nonce; answer `authorization_pending` before approval, make device codes single use, and build every link and redirect from `server.public_url`, never from the address the gateway listens on.',
  run: appsRun(async (fx) => {
    const s = await signIn(fx, 'erin');
    const evidence = { steps: s.steps, handedOut: s.handedOut.map((u) => `${u.what}: ${u.url}`) };
    if (s.badEarlyPoll) return fail('polling before approval did not answer 400 authorization_pending (RFC 8628 3.5)', { expected: '400 {"error":"authorization_pending"}', actual: s.badEarlyPoll, evidence });
    const off = offPublic(s.handedOut, fx.publicUrl);
    if (off.length) return fail(`the sign-in hands out ${off.length === 1 ? 'a URL' : 'URLs'} not on the public URL, which a user's device may not reach: ${off.join('; ')}`, { expected: `every URL on ${fx.publicUrl} (scheme, host and port)`, actual: off.join('; '), evidence });
    if (s.page !== undefined && s.page !== '200') return fail('the link the user opens (verification_uri_complete) does not answer 200', { expected: '200 (the verification page)', actual: s.page, evidence });
    if (!s.ok || !s.tokens || !s.repoll) return fail(`the device flow did not yield a session token (${s.error})`, { evidence });
    if (s.tokens.access_token.split('.').length !== 3) return fail('the access token is not a JWT', { evidence });
    const again = await s.repoll();
    if (again.status === 200 || typeof (again.json as { access_token?: unknown } | undefined)?.access_token === 'string')
      return fail('the device code yielded tokens a second time: it is not single use (RFC 8628 3.5, RFC 6749 10.5)', { expected: 'an error such as 400 invalid_grant or expired_token', actual: brief(again), evidence });
    return pass(`device authorization, login, IdP, callback and polling gave a session token; every URL on ${fx.publicUrl}; the device code polled again: ${cut(brief(again), 120)}`, evidence);
  }),
});
