// Revocation at the IdP: a user the IdP has deprovisioned must get no new session by refresh
// (APP-TOKEN-1: "invalid_grant on refresh"). The gateway has to ask the IdP when it refreshes
// (the Claude apps gateway passes the IdP's refresh token through, so its refresh is an IdP
// refresh grant); a session token already issued may live until it expires (short-lived,
// stateless), so only the refresh is judged.
// The check deprovisions erin only while it holds the IdP (no other sign-in or refresh
// meanwhile) and provisions her again before it lets go: no other check meets her revoked.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { AppsPrecondition, appsRun, brief, errorType, holdingIdp, isJson, refresh, signIn, type Tokens } from './common.js';

export default defineCheck({
  id: 'apps.token.idp-revoked',
  title: 'A user deprovisioned at the IdP can no longer refresh their session: JSON invalid_grant',
  requirements: ['APP-TOKEN-1'],
  level: 'MUST',
  profile: 'apps',
  requirement: 'Once the IdP has deprovisioned a user, refreshing their session answers a JSON 400/401 invalid_grant and yields no token: the gateway asks the IdP when it refreshes (5, 7).',
  fix: 'Ask the IdP when refreshing a session (its refresh grant), so a deprovisioned user gets JSON `invalid_grant`.',
  run: appsRun(async (fx) => {
    const s = await signIn(fx, 'erin');
    if (!s.ok || !s.tokens) throw new AppsPrecondition(`sign-in of erin failed (${s.error}): ${s.steps.join('; ')}`);
    const r1 = await refresh(fx, s.tokens.refresh_token);
    const t1 = r1.json as Partial<Tokens> | undefined;
    if (r1.status !== 200 || typeof t1?.refresh_token !== 'string') throw new AppsPrecondition(`refresh before any revocation failed: ${brief(r1)} (see apps.token.lifecycle)`);
    const { after, asked } = await holdingIdp(fx, async () => {
      const n = fx.idp.requests.length;
      fx.idp.revokeUser('erin');
      try {
        const r = await refresh(fx, t1.refresh_token!, { holdingIdp: true });
        return { after: r, asked: fx.idp.requests.slice(n).map((q) => `${q.method} ${q.path}`) };
      } finally {
        fx.idp.reinstateUser('erin');
      }
    });
    const evidence = { refreshBefore: `${r1.status}`, refreshAfterDeprovisioning: brief(after), idpAskedDuringThatRefresh: asked.length ? asked : 'nothing' };
    if (after.status >= 200 && after.status < 300) {
      return fail(`a user deprovisioned at the IdP got a new session by refresh${asked.length ? '' : ': the gateway did not ask the IdP'}`, { expected: 'JSON 400/401 {"error":"invalid_grant"}', actual: brief(after), evidence });
    }
    if (![400, 401].includes(after.status) || !isJson(after) || errorType(after) !== 'invalid_grant') {
      return fail('refresh of a user deprovisioned at the IdP was refused, but not with a JSON invalid_grant', { expected: 'JSON 400/401 {"error":"invalid_grant"}', actual: brief(after), evidence });
    }
    return pass(`refresh after deprovisioning at the IdP: ${after.status} invalid_grant`, evidence);
  }),
});
