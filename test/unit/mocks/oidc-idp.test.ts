import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJWKSet, createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import { MockIdp } from '../../../mocks/oidc/idp.js';

const CLIENT = 'gwc-gateway';
const SECRET = 'gwc-test-secret';
const REDIRECT = 'http://127.0.0.1:9/oauth/callback';

let idp: MockIdp;

beforeAll(async () => {
  idp = new MockIdp({ clients: { [CLIENT]: SECRET } });
  await idp.start();
});
afterAll(() => idp.stop());

interface Tokens {
  id_token: string;
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The authorization request as a relying party sends it; returns the redirect's query. */
async function authorize(challenge: string | null, state = randomBytes(8).toString('hex')) {
  const u = new URL(`${idp.issuer}/authorize`);
  u.search = new URLSearchParams({
    response_type: 'code',
    client_id: CLIENT,
    redirect_uri: REDIRECT,
    scope: 'openid email profile groups',
    state,
    nonce: 'n-123',
    ...(challenge ? { code_challenge: challenge, code_challenge_method: 'S256' } : {}),
  }).toString();
  const res = await fetch(u, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const loc = new URL(res.headers.get('location') ?? '');
  expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT);
  expect(loc.searchParams.get('state')).toBe(state);
  return loc.searchParams;
}

async function token(form: Record<string, string>, basic = true) {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (basic) headers.authorization = `Basic ${Buffer.from(`${CLIENT}:${SECRET}`).toString('base64')}`;
  const res = await fetch(`${idp.issuer}/token`, { method: 'POST', headers, body: new URLSearchParams(form) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A full code flow with PKCE as a confidential client. */
async function signIn(user?: string): Promise<Tokens> {
  if (user) idp.signInNext(user);
  const { verifier, challenge } = pkcePair();
  const q = await authorize(challenge);
  const code = q.get('code');
  expect(code).toBeTruthy();
  const r = await token({ grant_type: 'authorization_code', code: code!, redirect_uri: REDIRECT, code_verifier: verifier });
  expect(r.status).toBe(200);
  return r.body as unknown as Tokens;
}

async function verify(idToken: string): Promise<JWTPayload> {
  const disc = (await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()) as Record<string, string>;
  const jwks = createRemoteJWKSet(new URL(disc.jwks_uri!));
  const { payload } = await jwtVerify(idToken, jwks, { issuer: disc.issuer, audience: CLIENT });
  return payload;
}

describe('mock OIDC identity provider', () => {
  it('publishes a discovery document naming its endpoints, PKCE S256 and confidential-client auth', async () => {
    const res = await fetch(`${idp.issuer}/.well-known/openid-configuration`);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const d = (await res.json()) as Record<string, unknown>;
    expect(d.issuer).toBe(idp.issuer);
    expect(d.authorization_endpoint).toBe(`${idp.issuer}/authorize`);
    expect(d.token_endpoint).toBe(`${idp.issuer}/token`);
    expect(d.jwks_uri).toBe(`${idp.issuer}/jwks`);
    expect(d.code_challenge_methods_supported).toContain('S256');
    expect(d.token_endpoint_auth_methods_supported).toContain('client_secret_basic');
  });

  it('signs the scripted user in through a code flow with PKCE; the ID token verifies against the JWKS', async () => {
    const t = await signIn('alice');
    const p = await verify(t.id_token);
    expect(p).toMatchObject({ sub: 'user-alice', email: 'alice@example.test', groups: ['eng'], nonce: 'n-123' });
    expect(decodeProtectedHeader(t.id_token).kid).toBe(idp.currentKid);
    expect(t.expires_in).toBe(3600);
    expect(p.exp! - p.iat!).toBe(3600);
  });

  it('carries each user’s groups: bob in contractors, carol in none', async () => {
    const bob = await verify((await signIn('bob')).id_token);
    expect(bob).toMatchObject({ sub: 'user-bob', email: 'bob@example.test', groups: ['contractors'] });
    const carol = await verify((await signIn('carol')).id_token);
    expect(carol).toMatchObject({ sub: 'user-carol', groups: [] });
  });

  it('signs in queued users in order, then the default user', async () => {
    idp.signInNext('carol');
    idp.signInNext('bob');
    const subs = [];
    for (let i = 0; i < 3; i++) subs.push((await verify((await signIn()).id_token)).sub);
    expect(subs).toEqual(['user-carol', 'user-bob', 'user-alice']);
  });

  it('signs in the user scripted for an authorization’s state, whatever was queued; an unused script is no one else’s', async () => {
    idp.signInNext('bob', { state: 'never-sent' });
    idp.signInNext('carol', { state: 's-carol' });
    idp.signInNext('bob');
    const { verifier, challenge } = pkcePair();
    const code = (await authorize(challenge, 's-carol')).get('code')!;
    const r = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier });
    expect((await verify(String(r.body.id_token))).sub).toBe('user-carol');
    expect(idp.authorizations.at(-1)).toEqual({ state: 's-carol', user: 'carol' });
    // The queue is untouched by the state's script, and the script of a state never sent is not taken.
    expect((await verify((await signIn()).id_token)).sub).toBe('user-bob');
    expect((await verify((await signIn()).id_token)).sub).toBe('user-alice');
  });

  it('refuses a wrong or missing PKCE verifier, a reused code and a bad client secret', async () => {
    const { challenge } = pkcePair();
    const code1 = (await authorize(challenge)).get('code')!;
    const wrong = await token({ grant_type: 'authorization_code', code: code1, redirect_uri: REDIRECT, code_verifier: pkcePair().verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.body.id_token).toBeUndefined();

    const code2 = (await authorize(challenge)).get('code')!;
    const missing = await token({ grant_type: 'authorization_code', code: code2, redirect_uri: REDIRECT });
    expect(missing).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const pair = pkcePair();
    const code3 = (await authorize(pair.challenge)).get('code')!;
    const form = { grant_type: 'authorization_code', code: code3, redirect_uri: REDIRECT, code_verifier: pair.verifier };
    expect((await token(form)).status).toBe(200);
    // A reused code: the library refuses it first (its PKCE record is gone), as invalid_request.
    const reused = await token(form);
    expect(reused.status).toBe(400);
    expect(reused.body.id_token).toBeUndefined();

    const code4 = (await authorize(null)).get('code')!;
    const badSecret = await token(
      { grant_type: 'authorization_code', code: code4, redirect_uri: REDIRECT, client_id: CLIENT, client_secret: 'nope' },
      false,
    );
    expect(badSecret).toMatchObject({ status: 401, body: { error: 'invalid_client' } });

    const invented = await token({ grant_type: 'authorization_code', code: 'made-up', redirect_uri: REDIRECT });
    expect(invented).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('rotates refresh tokens: the new one works, the old one is invalid_grant', async () => {
    const t = await signIn('bob');
    const r1 = await token({ grant_type: 'refresh_token', refresh_token: t.refresh_token });
    expect(r1.status).toBe(200);
    expect((await verify(String(r1.body.id_token))).sub).toBe('user-bob');
    expect(await token({ grant_type: 'refresh_token', refresh_token: t.refresh_token })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect((await token({ grant_type: 'refresh_token', refresh_token: String(r1.body.refresh_token) })).status).toBe(200);
  });

  it('revokes a refresh token through the revocation endpoint', async () => {
    const t = await signIn('alice');
    const rv = await fetch(`${idp.issuer}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: t.refresh_token }),
    });
    expect(rv.status).toBe(200);
    expect((await token({ grant_type: 'refresh_token', refresh_token: t.refresh_token })).body.error).toBe('invalid_grant');
  });

  it('answers userinfo for a live access token with the user’s claims', async () => {
    const t = await signIn('bob');
    const ok = await fetch(`${idp.issuer}/userinfo`, { headers: { authorization: `Bearer ${t.access_token}` } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ sub: 'user-bob', groups: ['contractors'] });
    const bad = await fetch(`${idp.issuer}/userinfo`, { headers: { authorization: 'Bearer x.y.z' } });
    expect(bad.status).toBe(401);
  });

  it('refuses a sign-in the script denies, with access_denied on the redirect', async () => {
    idp.denyNext();
    const q = await authorize(pkcePair().challenge);
    expect(q.get('code')).toBeNull();
    expect(q.get('error')).toBe('access_denied');
  });

  it('key rotation: old-key tokens fail at once without overlap; with overlap until the old key is revoked', async () => {
    const before = await signIn('alice');
    await verify(before.id_token);
    const oldKid = idp.currentKid;

    const newKid = await idp.rotateKeys({ keepOld: true });
    expect(newKid).not.toBe(oldKid);
    expect(idp.jwks().keys.map((k) => k.kid)).toEqual([newKid, oldKid]);
    await verify(before.id_token); // still published
    const after = await signIn('alice');
    expect(decodeProtectedHeader(after.id_token).kid).toBe(newKid);
    await verify(after.id_token);

    idp.revokeKey(oldKid);
    await expect(verify(before.id_token)).rejects.toThrow(/matching key|no applicable key/i);
    await verify(after.id_token);

    await idp.rotateKeys();
    await expect(verify(after.id_token)).rejects.toThrow(/matching key|no applicable key/i);
    await verify((await signIn('alice')).id_token);
  });

  it('puts an earlier key back after a rotation without overlap: it signs again and is the only key published', async () => {
    const oldKid = idp.currentKid;
    const before = await signIn('alice');
    const newKid = await idp.rotateKeys();
    expect(idp.jwks().keys.map((k) => k.kid)).toEqual([newKid]);
    const during = await signIn('alice');
    expect(decodeProtectedHeader(during.id_token).kid).toBe(newKid);

    idp.reinstateKey(oldKid);
    expect(idp.currentKid).toBe(oldKid);
    expect(idp.jwks().keys.map((k) => k.kid)).toEqual([oldKid]);
    await verify(before.id_token);
    await expect(verify(during.id_token)).rejects.toThrow(/matching key|no applicable key/i);
    const after = await signIn('bob');
    expect(decodeProtectedHeader(after.id_token).kid).toBe(oldKid);
    expect((await verify(after.id_token)).sub).toBe('user-bob');
    expect(() => idp.reinstateKey('gwc-no-such-key')).toThrow(/no key/);
  });

  it('signs the next ID token with a withdrawn key on request (a stolen key), then with the current key again', async () => {
    const withdrawnKid = idp.currentKid;
    const withdrawnJwks = idp.jwks() as JSONWebKeySet;
    await idp.rotateKeys();
    idp.signNextWith(withdrawnKid);
    const { verifier, challenge } = pkcePair();
    idp.signInNext('bob');
    const code = (await authorize(challenge)).get('code')!;
    const r = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier });
    expect(r.status).toBe(200);
    const stolen = String(r.body.id_token);
    expect(decodeProtectedHeader(stolen).kid).toBe(withdrawnKid);
    // Signed by the withdrawn key, with the claims a real sign-in carries (nonce included)...
    const { payload } = await jwtVerify(stolen, createLocalJWKSet(withdrawnJwks), { issuer: idp.issuer, audience: CLIENT });
    expect(payload).toMatchObject({ sub: 'user-bob', groups: ['contractors'], nonce: 'n-123' });
    // ...so the JWKS the IdP serves no longer verifies it.
    await expect(verify(stolen)).rejects.toThrow(/matching key|no applicable key/i);
    // The access token and the next sign-in use the current key.
    expect(decodeProtectedHeader(String(r.body.access_token)).kid).toBe(idp.currentKid);
    const next = await signIn('alice');
    expect(decodeProtectedHeader(next.id_token).kid).toBe(idp.currentKid);
    expect(decodeJwt(next.id_token).sub).toBe('user-alice');
    expect(() => idp.signNextWith('gwc-no-such-key')).toThrow(/no key/);
    // Armed and called off: the next ID token is signed with the current key.
    idp.signNextWith(withdrawnKid);
    idp.signNextWith(null);
    expect(decodeProtectedHeader((await signIn('bob')).id_token).kid).toBe(idp.currentKid);
  });

  it('deprovisioning a user refuses their sign-in, refresh and userinfo; reinstating them lets them sign in again', async () => {
    const other = new MockIdp({ clients: { [CLIENT]: SECRET } });
    await other.start();
    try {
      const swap = idp;
      idp = other;
      try {
        const t = await signIn('carol');
        other.revokeUser('carol');
        expect((await token({ grant_type: 'refresh_token', refresh_token: t.refresh_token })).body.error).toBe('invalid_grant');
        const ui = await fetch(`${other.issuer}/userinfo`, { headers: { authorization: `Bearer ${t.access_token}` } });
        expect(ui.status).toBe(401);
        other.signInNext('carol');
        expect((await authorize(pkcePair().challenge)).get('error')).toBe('access_denied');

        other.reinstateUser('carol');
        expect((await verify((await signIn('carol')).id_token)).sub).toBe('user-carol');
        expect((await token({ grant_type: 'refresh_token', refresh_token: t.refresh_token })).body.error).toBe('invalid_grant');
      } finally {
        idp = swap;
      }
    } finally {
      await other.stop();
    }
  });

  it('mints tokens for a user outside any flow, e.g. already expired', async () => {
    const expired = await idp.mintIdToken('bob', { audience: CLIENT, expiresIn: -60 });
    await expect(verify(expired)).rejects.toThrow(/exp/);
    const live = await idp.mintIdToken('bob', { audience: CLIENT });
    expect(await verify(live)).toMatchObject({ sub: 'user-bob', groups: ['contractors'] });
  });
});
