// IdP key rotation (OpenID Connect Core 1.0, 10.1.1): the IdP starts signing ID tokens with a
// new key (a new kid) and withdraws the old key from its JWKS. A gateway that goes back to the
// jwks_uri when it meets an unfamiliar kid keeps signing users in; one that cached the keys for
// good refuses everyone from then on. Once the old key is withdrawn, an ID token signed with it
// (a stolen or stale key) must sign nobody in.
//
// The roll changes the IdP for every check, so this check runs alone (exclusive: after the
// parallel checks) and holds the IdP while it works (no other sign-in or refresh meanwhile).
// It leaves the IdP on a key the gateway can verify: the new key when the gateway learned it,
// otherwise the old key put back. So no later check meets a half-rolled IdP, whatever the order.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { AppsPrecondition, appsRun, call, holdingIdp, session, signIn, type AppsFixture, type SignIn } from './common.js';

/**
 * How long a gateway may go on refusing sign-ins after the roll: one refetch throttle, counted
 * from its last fetch of the JWKS. A verifier may limit how often an unfamiliar kid sends it back
 * to the jwks_uri: openid-client refetches at most once a minute (the Claude apps gateway 2.1.330
 * embeds it: 60 s), jose's createRemoteJWKSet at most once per 30 s. Longer is a failure.
 * The default; `--jwks-refetch-s` sets another (the self-tests of the reference, which refetches
 * at once, use a few seconds).
 */
export const REFETCH_ALLOWANCE_MS = 60_000;
const allowanceOf = (s: { apps?: { jwksRefetchMs: number } } | undefined) => s?.apps?.jwksRefetchMs ?? REFETCH_ALLOWANCE_MS;

const line = (s: SignIn) => (s.ok ? 'session token' : `refused (${s.error})`);

/**
 * A sign-in says something about the keys only when the IdP sent the browser back with a code
 * (the gateway then verified an ID token); one that broke earlier (a rate limit, say) cannot be judged.
 */
function judgeable(s: SignIn, what: string): SignIn {
  if (!s.ok && !s.steps.some((x) => x.startsWith('callback:'))) throw new AppsPrecondition(`${what} broke before the IdP's callback, so no ID token was verified: ${s.steps.join('; ')}`);
  return s;
}

async function jwksPath(fx: AppsFixture): Promise<string> {
  const d = (await call(`${fx.idp.issuer}/.well-known/openid-configuration`)).json as { jwks_uri?: string } | undefined;
  return d?.jwks_uri ? new URL(d.jwks_uri).pathname : '/jwks';
}

export default defineCheck({
  id: 'apps.device.key-rotation',
  title: 'Sign-in keeps working after the IdP rolls its signing key; an ID token signed with the withdrawn key signs nobody in',
  requirements: ['APP-DEVICE-1'],
  level: 'MUST',
  profile: 'apps',
  exclusive: true,
  // Three sign-ins (each paced by the gateway's poll interval, at most 10 s) and one refetch throttle.
  timeLimitMs: (s) => allowanceOf(s) + 90_000,
  requirement:
    'After the IdP signs with a new key and withdraws the old one, the device flow still yields a session token (the gateway goes back to the jwks_uri on an unfamiliar kid, OIDC Core 10.1.1; a refetch throttle of up to 60 s is allowed); an ID token signed with the withdrawn key yields none.',
  fix: 'On an ID token with an unfamiliar `kid`, fetch the IdP\'s JWKS again (a throttle up to `--jwks-refetch-s`, 60 s by default, is allowed), and drop keys the JWKS no longer lists.',
  run: appsRun(async (fx, ctx) => {
    const allowanceMs = allowanceOf(ctx.settings);
    // Sign-in works before the roll, and the gateway has fetched the IdP's keys (it verified an ID token).
    await session(fx, 'alice');
    const jwks = await jwksPath(fx);
    return holdingIdp(fx, async () => {
      const idp = fx.idp;
      const oldKid = idp.currentKid;
      const rolledAt = Date.now();
      const newKid = await idp.rotateKeys();
      const fetches = () => idp.requests.filter((r) => r.method === 'GET' && r.path === jwks);
      // The gateway's last fetch of the keys before the roll: its throttle (if any) runs from there.
      const lastFetch = fetches().filter((r) => r.at <= rolledAt).at(-1)?.at;
      // Not `attempts`: that key is the runner's (a repeated check's attempts, src/core/evidence.ts).
      const signIns: string[] = [];
      const evidence = () => ({
        oldKid,
        newKid,
        signIns,
        lastJwksFetchBeforeRoll: lastFetch === undefined ? 'none seen' : `${lastFetch - rolledAt} ms`,
        jwksFetchesAfterRoll: fetches().filter((r) => r.at > rolledAt).map((r) => `+${r.at - rolledAt} ms`),
      });
      let learned = false;
      try {
        let s = judgeable(await signIn(fx, 'erin', { holdingIdp: true }), 'the sign-in right after the roll');
        signIns.push(`+${Date.now() - rolledAt} ms, right after the roll: ${line(s)}; ${s.steps.join('; ')}`);
        if (!s.ok) {
          // One more try once a refetch throttle has passed since the gateway's last fetch (or the
          // roll, when no fetch was seen): protocol pacing, not synchronisation.
          const wait = (lastFetch ?? rolledAt) + allowanceMs + 1000 - Date.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          s = judgeable(await signIn(fx, 'erin', { holdingIdp: true }), 'the sign-in after one refetch throttle');
          signIns.push(`+${Date.now() - rolledAt} ms, after one refetch throttle: ${line(s)}; ${s.steps.join('; ')}`);
        }
        if (!s.ok) {
          const e = evidence();
          const why = e.jwksFetchesAfterRoll.length
            ? `the gateway fetched the JWKS again (${e.jwksFetchesAfterRoll.join(', ')}) and still refused`
            : 'the gateway never fetched the JWKS again: it did not go back to the jwks_uri on the unfamiliar kid';
          return fail(`sign-in still refused ${Math.round((Date.now() - rolledAt) / 1000)} s after the IdP rolled its signing key; ${why}`, {
            expected: `a session token for erin at the latest ${allowanceMs / 1000} s after the gateway's last JWKS fetch (one refetch throttle; ID token signed by the new key ${newKid}, published in the JWKS)`,
            actual: signIns.map((a) => a.split(';')[0]).join(' | '),
            evidence: e,
          });
        }
        learned = true;
        const slow = signIns.length > 1 ? ` (refused right after the roll, served once a refetch throttle of ${allowanceMs / 1000} s had passed since the gateway's last JWKS fetch)` : '';
        // The old key is out of the JWKS now; an ID token it signed must not yield a session.
        idp.signNextWith(oldKid);
        const stolen = judgeable(await signIn(fx, 'erin', { holdingIdp: true }), "the sign-in with the withdrawn key's ID token");
        signIns.push(`+${Date.now() - rolledAt} ms, ID token signed by the withdrawn key ${oldKid}: ${line(stolen)}; ${stolen.steps.join('; ')}`);
        if (stolen.ok) {
          return fail('a sign-in whose ID token was signed by the withdrawn key yielded a session token: the gateway still trusts a key the IdP no longer publishes', {
            expected: 'no session token (the poll answers an error such as access_denied)',
            actual: 'a session token was issued',
            evidence: evidence(),
          });
        }
        return pass(`sign-in works after the key roll${slow}; the withdrawn key's ID token was refused (${stolen.error})`, evidence());
      } finally {
        // No stale signing left armed for another sign-in; and when the gateway never learned
        // the new key, the old one is put back, so later sign-ins work.
        idp.signNextWith(null);
        if (!learned) idp.reinstateKey(oldKid);
      }
    });
  }),
});
