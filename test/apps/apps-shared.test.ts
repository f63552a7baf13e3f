// The IdP and the collector that runs going on at once share (SharedServers, the apps detection
// matrix) keep each run apart: two realms of one SharedIdp, used at once, have their own issuer
// paths, keys, sign-in scripts, codes, deprovisioned users and records of requests, and a realm
// taken off answers 404 while the other goes on; two tenants of one SharedCollector have their own
// addresses, records, credentials and modes (one refusing connections or failing leaves the
// other up). Whole runs at once on shared servers: test/apps/apps-detection.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet } from 'jose';
import { SharedIdp, type IdpRealm } from '../../mocks/oidc/idp.js';
import { SharedCollector } from '../../mocks/otlp/collector.js';

const CLIENT = 'gwc-gateway';
const REDIRECT = 'http://127.0.0.1:9/oauth/callback';
const secretOf = new Map<IdpRealm, string>();

/** The authorization request of a code flow at `realm` (no PKCE); the redirect's query. */
async function authorize(realm: IdpRealm, state: string): Promise<URLSearchParams> {
  const u = new URL(`${realm.issuer}/authorize`);
  u.search = new URLSearchParams({ response_type: 'code', client_id: CLIENT, redirect_uri: REDIRECT, scope: 'openid', state }).toString();
  const res = await fetch(u, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!).searchParams;
}

/** Redeems `code` at `realm`'s token endpoint with `secret` (default: the realm's own client secret). */
async function redeem(realm: IdpRealm, code: string, secret = secretOf.get(realm)!): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${realm.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${CLIENT}:${secret}`).toString('base64')}` },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, json: (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined };
};
const kidsOf = async (realm: IdpRealm) => ((await get(`${realm.issuer}/jwks`)).json as unknown as JSONWebKeySet).keys.map((k) => k.kid);

describe('one mock IdP shared by runs at once', () => {
  const idp = new SharedIdp();
  let a: IdpRealm;
  let b: IdpRealm;
  beforeAll(async () => {
    await idp.start();
    a = idp.realm({ clients: { [CLIENT]: 'secret-a' } });
    b = idp.realm({ clients: { [CLIENT]: 'secret-b' } });
    secretOf.set(a, 'secret-a').set(b, 'secret-b');
    await Promise.all([a.start(), b.start()]);
  });
  afterAll(() => idp.stop());

  it('gives each realm its own issuer path, discovery document and keys', async () => {
    expect(a.issuer).not.toBe(b.issuer);
    for (const r of [a, b]) {
      expect(r.issuer.startsWith(`${idp.url}/realms/`)).toBe(true);
      const d = (await get(`${r.issuer}/.well-known/openid-configuration`)).json!;
      expect(d.issuer).toBe(r.issuer);
      expect(d.jwks_uri).toBe(`${r.issuer}/jwks`);
    }
    const [ka, kb] = [await kidsOf(a), await kidsOf(b)];
    expect(ka).toEqual([a.currentKid]);
    expect(kb).toEqual([b.currentKid]);
    expect(ka).not.toEqual(kb);
    // A key roll in one realm leaves the other's keys as they were.
    const rolled = await a.rotateKeys();
    expect(await kidsOf(a)).toEqual([rolled]);
    expect(await kidsOf(b)).toEqual(kb);
  });

  it('signs in the user each realm scripted, even for the same state at once; a code is good at its own realm only', async () => {
    a.signInNext('alice', { state: 'same-state' });
    b.signInNext('bob', { state: 'same-state' });
    const [qa, qb] = await Promise.all([authorize(a, 'same-state'), authorize(b, 'same-state')]);
    expect(a.authorizations.at(-1)).toEqual({ state: 'same-state', user: 'alice' });
    expect(b.authorizations.at(-1)).toEqual({ state: 'same-state', user: 'bob' });
    // A's code at B (with A's client secret, then with B's): unknown there.
    expect((await redeem(b, qa.get('code')!, 'secret-a')).status).toBe(401);
    expect((await redeem(b, qa.get('code')!)).body.error).toBe('invalid_grant');
    const ta = await redeem(a, qa.get('code')!);
    const tb = await redeem(b, qb.get('code')!);
    expect(decodeJwt(String(ta.body.id_token)).sub).toBe('user-alice');
    expect(decodeJwt(String(tb.body.id_token)).sub).toBe('user-bob');
    // Each ID token verifies with its own realm's keys and issuer, not with the other's.
    const keys = async (r: IdpRealm) => createLocalJWKSet((await get(`${r.issuer}/jwks`)).json as unknown as JSONWebKeySet);
    await expect(jwtVerify(String(ta.body.id_token), await keys(a), { issuer: a.issuer, audience: CLIENT })).resolves.toBeDefined();
    await expect(jwtVerify(String(ta.body.id_token), await keys(b), { issuer: b.issuer, audience: CLIENT })).rejects.toThrow();
  });

  it('deprovisions a user in one realm only, and records each request in its own realm', async () => {
    const before = { a: a.requests.length, b: b.requests.length };
    a.revokeUser('carol');
    a.signInNext('carol', { state: 'ca' });
    b.signInNext('carol', { state: 'cb' });
    expect((await authorize(a, 'ca')).get('error')).toBe('access_denied');
    expect((await authorize(b, 'cb')).get('code')).toBeTruthy();
    a.reinstateUser('carol');
    expect(a.requests.slice(before.a).map((r) => r.path)).toEqual([new URL(`${a.issuer}/authorize`).pathname]);
    expect(b.requests.slice(before.b).map((r) => r.path)).toEqual([new URL(`${b.issuer}/authorize`).pathname]);
  });

  it('answers 404 outside every open realm; a realm taken off is gone while the other answers', async () => {
    expect((await get(`${idp.url}/.well-known/openid-configuration`)).status).toBe(404);
    expect((await get(`${idp.url}/realms/run-999/jwks`)).status).toBe(404);
    const c = idp.realm();
    expect((await get(`${c.issuer}/jwks`)).status).toBe(404); // not started: no key yet
    await c.start();
    expect((await get(`${c.issuer}/jwks`)).status).toBe(200);
    await c.stop();
    expect((await get(`${c.issuer}/jwks`)).status).toBe(404);
    expect((await get(`${a.issuer}/jwks`)).status).toBe(200);
    expect(idp.open).toBe(2);
  });
});

const exportTo = (url: string, name: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'gwc' }, spans: [{ traceId: '0123456789abcdef0123456789abcdef', spanId: '0123456789abcdef', name, kind: 1, startTimeUnixNano: '1', endTimeUnixNano: '2' }] }] }] }),
  }).then((r) => r.status);

/** A fresh connection's error code (no pooled socket), or 'answered'. */
const connect = (url: string) =>
  new Promise<string>((resolve) => {
    const req = http.request(url, { method: 'POST', agent: false }, (res) => (res.resume(), resolve('answered')));
    req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    req.end('{}');
  });

describe('one telemetry collector shared by runs at once', () => {
  const shared = new SharedCollector();
  const a = shared.tenant({ prefix: '/direct', token: 'token-a' });
  const b = shared.tenant({ prefix: '/direct', token: 'token-b' });
  beforeAll(async () => {
    await a.start();
    await b.start();
  });
  afterAll(async () => {
    await a.stop();
    await b.stop();
  });

  it('records what each tenant was sent, and only that', async () => {
    expect(a.url).not.toBe(b.url);
    expect(await Promise.all([exportTo(`${a.url}/v1/traces`, 'span-a'), exportTo(`${b.url}/v1/traces`, 'span-b')])).toEqual([200, 200]);
    expect(a.spans.map((s) => s.name)).toEqual(['span-a']);
    expect(b.spans.map((s) => s.name)).toEqual(['span-b']);
    expect(a.sawText('span-b')).toBe(false);
    expect(b.sawText('span-a')).toBe(false);
    // Each tenant's credential opens its own endpoint only.
    expect(await exportTo(`${a.url}/direct/v1/traces`, 'direct-a', { authorization: 'Bearer token-b' })).toBe(401);
    expect(await exportTo(`${a.url}/direct/v1/traces`, 'direct-a', { authorization: 'Bearer token-a' })).toBe(200);
    expect(b.spans.map((s) => s.name)).toEqual(['span-b']);
  });

  it("one tenant refusing connections, failing or stalling leaves the other's exports taken", async () => {
    await a.setMode({ kind: 'refuse' });
    expect(await connect(`${a.url}/v1/traces`)).toBe('ECONNREFUSED');
    expect(await exportTo(`${b.url}/v1/traces`, 'while-a-refuses')).toBe(200);
    await a.setMode({ kind: 'error', status: 503 });
    expect(await exportTo(`${a.url}/v1/traces`, 'while-a-fails')).toBe(503);
    expect(await exportTo(`${b.url}/v1/traces`, 'while-a-fails')).toBe(200);
    await a.setMode({ kind: 'stall' });
    const held = exportTo(`${a.url}/v1/traces`, 'held');
    expect(await a.waitFor(() => a.attempts.find((x) => x.status === 0), 5000)).toBeDefined();
    expect(await exportTo(`${b.url}/v1/traces`, 'while-a-stalls')).toBe(200);
    await a.setMode({ kind: 'up' });
    expect(await held).toBe(503);
    expect(await exportTo(`${a.url}/v1/traces`, 'a-back')).toBe(200);
    expect(b.spans.map((s) => s.name)).toEqual(['span-b', 'while-a-refuses', 'while-a-fails', 'while-a-stalls']);
    expect(a.spans.map((s) => s.name)).toEqual(['span-a', 'direct-a', 'a-back']);
  });
});
