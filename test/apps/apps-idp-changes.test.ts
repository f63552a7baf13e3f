// The checks that change the IdP for everyone leave no half-changed IdP to any other check.
// apps.device.key-rotation: a sign-in another check starts after the roll waits until the
// rotation check is done, and then succeeds, whether the gateway learned the new key (the clean
// reference: the IdP stays on it) or never fetches keys again (fault apps-jwks-cached-forever:
// the old key is put back). apps.token.idp-revoked: a sign-in of the user it deprovisions,
// started meanwhile, waits until she is provisioned again, and works.
import { describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { AppsSurroundings, publicUrlOf } from '../../mocks/apps/harness.js';
import { parseAppsConfig } from '../../reference/apps/config.js';
import { appsFaultByName } from '../../reference/apps/faults.js';
import { AppsGateway } from '../../reference/apps/gateway.js';
import { openEmbeddedFromTemplate } from '../../reference/apps/store.js';
import { freePort } from '../../src/launch/ports.js';
import type { CheckContext } from '../../src/check/check.js';
import keyRotation from '../../suites/apps/apps.device.key-rotation.js';
import idpRevoked from '../../suites/apps/apps.token.idp-revoked.js';
import { signIn, type AppsFixture } from '../../suites/apps/common.js';

async function withGateway(fault: string | undefined, fn: (w: { fx: AppsFixture; rolled: Promise<void>; order: string[]; around: AppsSurroundings }) => Promise<void>) {
  const around = new AppsSurroundings();
  await around.start();
  const db = await openEmbeddedFromTemplate();
  const port = await freePort();
  const gw = new AppsGateway(parseAppsConfig(around.config({ port }), around.env), { fault: fault === undefined ? undefined : appsFaultByName(fault), db });
  try {
    await gw.start('127.0.0.1', port);
    const idp = around.idp;
    // Resolves when the check under test changes the IdP (a key roll, a user deprovisioned).
    let onRoll!: () => void;
    const rolled = new Promise<void>((r) => (onRoll = r));
    // Who the IdP signed in, in order (sign-ins queue their user while holding the IdP).
    const order: string[] = [];
    const fx: AppsFixture = {
      gatewayUrl: gw.url,
      publicUrl: publicUrlOf(port),
      jwtSecret: around.jwtSecret,
      adminKey: around.adminKey,
      idp: {
        issuer: idp.issuer,
        signInNext: (n, o) => (order.push(n), idp.signInNext(n, o)),
        authorizations: idp.authorizations,
        get currentKid() {
          return idp.currentKid;
        },
        rotateKeys: async (o) => {
          const kid = await idp.rotateKeys(o);
          order.push('(roll)');
          onRoll();
          return kid;
        },
        reinstateKey: (k) => idp.reinstateKey(k),
        signNextWith: (k) => idp.signNextWith(k),
        revokeUser: (n) => {
          idp.revokeUser(n);
          order.push(`(revoke ${n})`);
          onRoll();
        },
        reinstateUser: (n) => (order.push(`(reinstate ${n})`), idp.reinstateUser(n)),
        requests: idp.requests,
      },
      collector: around.collector,
      upstreams: around.upstreams,
      restart: () => Promise.reject(new Error('no restart in this test')),
    };
    await fn({ fx, rolled, order, around });
  } finally {
    await gw.stop();
    await db.close();
    await around.stop();
  }
}

// The reference refetches the keys at once: a 3 s refetch allowance (the default is 60 s) still
// tells it from a gateway that never refetches.
const REFETCH_MS = 3000;
const ctxOf = (fx: AppsFixture) => ({ fixture: fx, settings: { apps: { jwksRefetchMs: REFETCH_MS } } }) as unknown as CheckContext;

describe('apps.device.key-rotation leaves the IdP whole for every other check', () => {
  it('clean reference: the check passes; a sign-in started after the roll waits for it, then works on the new key', async () => {
    await withGateway(undefined, async ({ fx, rolled, order, around }) => {
      const firstKid = around.idp.currentKid;
      const verdict = keyRotation.run(ctxOf(fx));
      await rolled;
      const other = await signIn(fx, 'bob');
      const v = await verdict;
      expect(v.ok, v.message).toBe(true);
      expect(v.message).toMatch(/withdrawn key's ID token was refused/);
      expect(other.ok, other.steps.join('; ')).toBe(true);
      // The check's sign-ins (after the roll, and with the withdrawn key) came before bob's.
      expect(order.slice(order.indexOf('(roll)'))).toEqual(['(roll)', 'erin', 'erin', 'bob']);
      expect(around.idp.currentKid).not.toBe(firstKid);
      expect(decodeJwt(other.tokens!.access_token).sub).toBe('user-bob');
    });
  }, 60_000);

  it(
    'fault apps-jwks-cached-forever: the check fails after one refetch throttle, naming the missing refetch; the old key is put back, so a sign-in started meanwhile works',
    async () => {
      await withGateway('apps-jwks-cached-forever', async ({ fx, rolled, order, around }) => {
        const firstKid = around.idp.currentKid;
        const verdict = keyRotation.run(ctxOf(fx));
        await rolled;
        const other = await signIn(fx, 'bob');
        const v = await verdict;
        expect(v.ok).toBe(false);
        expect(v.message).toMatch(/never fetched the JWKS again/);
        expect(v.actual).toMatch(/right after the roll: refused \(access_denied\) \| .*after one refetch throttle: refused/);
        expect((v.evidence as { jwksFetchesAfterRoll: string[] }).jwksFetchesAfterRoll).toEqual([]);
        expect(order.slice(order.indexOf('(roll)'))).toEqual(['(roll)', 'erin', 'erin', 'bob']);
        expect(around.idp.currentKid).toBe(firstKid);
        expect(other.ok, other.steps.join('; ')).toBe(true);
      });
    },
    REFETCH_MS + 60_000,
  );
});

describe('apps.token.idp-revoked leaves no user deprovisioned for any other check', () => {
  it('clean reference: the check passes; a sign-in of erin started after she was deprovisioned waits until she is back, and works', async () => {
    await withGateway(undefined, async ({ fx, rolled, order }) => {
      const verdict = idpRevoked.run(ctxOf(fx));
      await rolled;
      const other = await signIn(fx, 'erin');
      const v = await verdict;
      expect(v.ok, v.message).toBe(true);
      expect(v.message).toMatch(/invalid_grant/);
      expect(other.ok, other.steps.join('; ')).toBe(true);
      expect(order.slice(order.indexOf('(revoke erin)'))).toEqual(['(revoke erin)', '(reinstate erin)', 'erin']);
    });
  }, 60_000);

  it('fault apps-refresh-skips-idp: the check fails, saying the gateway did not ask the IdP', async () => {
    await withGateway('apps-refresh-skips-idp', async ({ fx }) => {
      const v = await idpRevoked.run(ctxOf(fx));
      expect(v.ok).toBe(false);
      expect(v.message).toBe('a user deprovisioned at the IdP got a new session by refresh: the gateway did not ask the IdP');
      expect(v.actual).toMatch(/^200 application\/json .*"access_token":"\*\*\*"/);
    });
  }, 60_000);
});
