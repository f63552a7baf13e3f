import { defineCheck, fail, pass } from '../../src/check/check.js';
import { AppsPrecondition, appsRun, bearer, brief, call, errorType, forge, isJson, messages, metadata, refresh, signIn } from './common.js';

export default defineCheck({
  id: 'apps.token.lifecycle',
  title: 'Short-lived session tokens; refresh rotates; expired, forged and revoked tokens get JSON 401, never an HTML login page',
  requirements: ['APP-TOKEN-1'],
  level: 'MUST',
  profile: 'apps',
  requirement: 'Session tokens are short-lived and refresh rotates them; an expired, forged or revoked token gets a JSON 401 on API paths (invalid_grant on refresh), never an HTML login page.',
  fix: 'Keep session tokens short-lived, rotate refresh tokens (a reused one is `invalid_grant`) and answer expired, forged, wrong-audience and `alg: none` tokens with a JSON 401, never an HTML login page.',
  run: appsRun(async (fx) => {
    const s = await signIn(fx, 'alice');
    if (!s.ok || !s.tokens) throw new AppsPrecondition(`sign-in failed (${s.error})`);
    const t = s.tokens;
    if (!(t.expires_in > 0 && t.expires_in <= 24 * 3600)) return fail('the session token is not short-lived', { expected: 'expires_in ≤ 86400', actual: String(t.expires_in) });
    const bad: Record<string, string> = {
      'wrong key': await forge(fx, t.access_token, { secret: 'not-the-gateway-secret-not-the-gateway-secret' }),
      expired: await forge(fx, t.access_token, { exp: Math.floor(Date.now() / 1000) - 600 }),
      'wrong audience': await forge(fx, t.access_token, { aud: 'someone-else' }),
      'alg none': await forge(fx, t.access_token, { alg: 'none' }),
    };
    for (const [what, token] of Object.entries(bad)) {
      for (const path of ['/v1/models', '/v1/messages']) {
        const r = path === '/v1/models' ? await call(`${fx.gatewayUrl}${path}`, { headers: bearer(token) }) : await messages(fx, token, 'claude-sonnet-4-6');
        if (r.status !== 401 || !isJson(r)) return fail(`a token with ${what} on ${path} did not get a JSON 401`, { expected: 'JSON 401', actual: brief(r) });
      }
    }
    const r1 = await refresh(fx, t.refresh_token);
    const n = r1.json as { access_token?: string; refresh_token?: string } | undefined;
    if (r1.status !== 200 || !n?.access_token || !n.refresh_token) return fail('refresh failed', { actual: brief(r1) });
    if (n.refresh_token === t.refresh_token) return fail('refresh did not rotate the refresh token', { actual: 'the same refresh token came back' });
    const reuse = await refresh(fx, t.refresh_token);
    if (![400, 401].includes(reuse.status) || errorType(reuse) !== 'invalid_grant') return fail('a used refresh token was not refused with invalid_grant', { expected: '400/401 invalid_grant', actual: brief(reuse) });
    const fresh = await call(`${fx.gatewayUrl}/v1/models`, { headers: bearer(n.access_token) });
    if (fresh.status !== 200) return fail('the refreshed access token is not accepted', { actual: brief(fresh) });
    const meta = await metadata(fx);
    let revoked = 'no revocation_endpoint advertised: revocation not tried';
    if (meta.revocation_endpoint) {
      await call(meta.revocation_endpoint, { method: 'POST', form: { token: n.refresh_token } });
      const after = await call(`${fx.gatewayUrl}/v1/models`, { headers: bearer(n.access_token) });
      if (after.status !== 401 || !isJson(after)) return fail('a revoked session token did not get a JSON 401', { expected: 'JSON 401', actual: brief(after) });
      const rr = await refresh(fx, n.refresh_token);
      if (errorType(rr) !== 'invalid_grant') return fail('refresh of a revoked session did not answer invalid_grant', { actual: brief(rr) });
      revoked = 'revoked session refused';
    }
    return pass(`expires_in ${t.expires_in} s; forged and expired tokens JSON 401; refresh rotates; ${revoked}`);
  }),
});
