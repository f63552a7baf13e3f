// The mock OIDC identity provider the apps profile signs its test users in with. Built on
// oauth2-mock-server (token signing, authorization codes, PKCE verification), behind a thin
// loopback front that adds what a conformance run needs and the library leaves out:
//  - scripted users: the next authorization signs in the user the harness chose, without a
//    login page, and the tokens carry that user's sub, email and groups;
//  - a strict token endpoint: codes are single use and must come from this IdP, a code issued
//    with a PKCE challenge needs its verifier, confidential clients must authenticate;
//  - key rotation (with or without the old public key kept in the JWKS), putting an earlier key
//    back, signing one ID token with a withdrawn key (a stolen or stale key), and revocation of
//    users and refresh tokens.
// Rotation swaps in a fresh issuer and service from the library (its key store cannot drop
// keys), so codes not yet redeemed at that moment are void, as after a real IdP key roll.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { OAuth2Issuer, OAuth2Service } from 'oauth2-mock-server';
import type { MutableRedirectUri, MutableResponse, MutableToken, TokenRequestIncomingMessage } from 'oauth2-mock-server';
import { LoopbackServer } from '../../src/core/server.js';

export interface TestUser {
  /** Login name; also the `preferred_username` claim. */
  readonly name: string;
  readonly sub: string;
  readonly email: string;
  readonly groups: readonly string[];
}

/** The profile's users: alice in `eng`, bob in `contractors`, carol in no allowed group. */
export function defaultUsers(domain = 'example.test'): TestUser[] {
  return [
    { name: 'alice', sub: 'user-alice', email: `alice@${domain}`, groups: ['eng'] },
    { name: 'bob', sub: 'user-bob', email: `bob@${domain}`, groups: ['contractors'] },
    { name: 'carol', sub: 'user-carol', email: `carol@${domain}`, groups: [] },
  ];
}

export interface MockIdpOptions {
  users?: TestUser[];
  /** OAuth clients: id → secret (null for a public client). Default: `gwc-gateway` / a random secret. */
  clients?: Record<string, string | null>;
  /** Lifetime of ID and access tokens, seconds (default 3600). */
  tokenTtlSeconds?: number;
  /** The claim that carries group names (default `groups`). */
  groupsClaim?: string;
  /** Signing algorithm of the keys (default RS256). */
  alg?: string;
}

export interface IdpRequest {
  method: string;
  path: string;
  at: number;
}

interface CodeGrant {
  user: TestUser;
  clientId: string | undefined;
  redirectUri: string;
  pkce: boolean;
  used: boolean;
  /** An ID token signed with an earlier key, sent instead of the one the current key signs. */
  idTokenOverride?: string;
}

interface RefreshGrant {
  user: TestUser;
  clientId: string | undefined;
}

interface Generation {
  issuer: OAuth2Issuer;
  service: OAuth2Service;
  kid: string;
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(text);
}

/** Client credentials of a token request: HTTP Basic first, then the form fields. */
function clientOf(req: TokenRequestIncomingMessage): { id?: string; secret?: string } {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Basic ')) {
    const raw = Buffer.from(auth.slice(6), 'base64').toString('utf8');
    const i = raw.indexOf(':');
    if (i >= 0) {
      return { id: decodeURIComponent(raw.slice(0, i)), secret: decodeURIComponent(raw.slice(i + 1)) };
    }
  }
  const body = req.body as unknown as Record<string, unknown>;
  return {
    id: typeof body.client_id === 'string' ? body.client_id : undefined,
    secret: typeof body.client_secret === 'string' ? body.client_secret : undefined,
  };
}

export class MockIdp extends LoopbackServer {
  readonly users: ReadonlyMap<string, TestUser>;
  readonly clients: Readonly<Record<string, string | null>>;
  readonly requests: IdpRequest[] = [];
  private readonly ttl: number;
  private readonly groupsClaim: string;
  private readonly alg: string;
  private gen!: Generation;
  /** Public keys still published after a rotation that kept them. */
  private retained: Record<string, unknown>[] = [];
  /** Every signing key this IdP has had, by kid. */
  private generations = new Map<string, Generation>();
  /** The earlier key that signs the next authorization's ID token, if one was asked for. */
  private signNextKid: string | null = null;
  /** ID tokens being signed with an earlier key (a token request waits for them). */
  private overrides = new Set<Promise<void>>();
  private queue: string[] = [];
  private defaultUser: string | null;
  private denyNextCount = 0;
  private codes = new Map<string, CodeGrant>();
  private refresh = new Map<string, RefreshGrant>();
  private revokedUsers = new Set<string>();

  constructor(opts: MockIdpOptions = {}) {
    super('mock identity provider');
    const users = opts.users ?? defaultUsers();
    this.users = new Map(users.map((u) => [u.name, u]));
    this.clients = opts.clients ?? { 'gwc-gateway': `gwc-secret-${randomUUID()}` };
    this.ttl = opts.tokenTtlSeconds ?? 3600;
    this.groupsClaim = opts.groupsClaim ?? 'groups';
    this.alg = opts.alg ?? 'RS256';
    this.defaultUser = users[0]?.name ?? null;
  }

  /** The issuer URL (equal to the server URL, no trailing slash). */
  get issuer(): string {
    return this.url;
  }

  /** The kid of the key that signs now. */
  get currentKid(): string {
    return this.gen.kid;
  }

  override async start(host = '127.0.0.1', port = 0): Promise<string> {
    const url = await super.start(host, port);
    this.gen = await this.newGeneration();
    return url;
  }

  /** The user the next authorization signs in (queued: one per sign-in, in order). */
  signInNext(name: string): void {
    if (!this.users.has(name)) throw new Error(`mock IdP: no test user named ${name}`);
    this.queue.push(name);
  }

  /** The user signed in when nothing is queued; null makes an unqueued authorization fail with access_denied. */
  setDefaultUser(name: string | null): void {
    if (name !== null && !this.users.has(name)) throw new Error(`mock IdP: no test user named ${name}`);
    this.defaultUser = name;
  }

  /** The next authorization is refused (`error=access_denied` on the redirect), as when the user cancels. */
  denyNext(): void {
    this.denyNextCount++;
  }

  /**
   * Rolls the signing key. Tokens signed before verify only while `keepOld` keeps the old
   * public key in the JWKS; without it they fail at once (a revoked key).
   */
  async rotateKeys(opts: { keepOld?: boolean } = {}): Promise<string> {
    const old = this.gen.issuer.keys.toJSON();
    this.gen = await this.newGeneration();
    this.retained = opts.keepOld ? [...this.retained, ...old] : [];
    return this.gen.kid;
  }

  /**
   * Puts an earlier key back: it signs again and is the only key published (as an IdP that backs
   * out a key roll). Codes not yet redeemed are void, as after a rotation.
   */
  reinstateKey(kid: string): void {
    const g = this.generations.get(kid);
    if (!g) throw new Error(`mock IdP: no key ${kid}`);
    this.gen = g;
    this.retained = [];
  }

  /**
   * The ID token of the next authorization (for whichever user it signs in) is signed with an
   * earlier key, withdrawn or not, instead of the current one: a stolen or stale key. `null`
   * calls it off (when that authorization never came).
   */
  signNextWith(kid: string | null): void {
    if (kid !== null && !this.generations.has(kid)) throw new Error(`mock IdP: no key ${kid}`);
    this.signNextKid = kid;
  }

  /** Drops a public key kept by an earlier rotation from the JWKS. */
  revokeKey(kid: string): void {
    if (kid === this.gen.kid) throw new Error('mock IdP: rotate before revoking the current key');
    this.retained = this.retained.filter((k) => k.kid !== kid);
  }

  /** Deprovisions a user: authorization refused, refresh tokens and userinfo answer errors. */
  revokeUser(name: string): void {
    if (!this.users.has(name)) throw new Error(`mock IdP: no test user named ${name}`);
    this.revokedUsers.add(name);
  }

  /** Provisions a deprovisioned user again (as an admin who lifts a suspension): they sign in again; a refresh token presented meanwhile stays spent. */
  reinstateUser(name: string): void {
    if (!this.users.has(name)) throw new Error(`mock IdP: no test user named ${name}`);
    this.revokedUsers.delete(name);
  }

  /** Signs a token for a user outside any flow (e.g. to forge or to present an expired one). */
  async mintIdToken(name: string, opts: { audience: string; expiresIn?: number }): Promise<string> {
    const user = this.mustUser(name);
    return this.gen.issuer.buildToken({
      expiresIn: opts.expiresIn ?? this.ttl,
      scopesOrTransform: (_h, p) => Object.assign(p, this.claimsOf(user), { aud: opts.audience }),
    });
  }

  /** The JWKS as served. */
  jwks(): { keys: Record<string, unknown>[] } {
    return { keys: [...this.gen.issuer.keys.toJSON(), ...this.retained] };
  }

  discovery(): Record<string, unknown> {
    const i = this.issuer;
    return {
      issuer: i,
      authorization_endpoint: `${i}/authorize`,
      token_endpoint: `${i}/token`,
      userinfo_endpoint: `${i}/userinfo`,
      jwks_uri: `${i}/jwks`,
      revocation_endpoint: `${i}/revoke`,
      end_session_endpoint: `${i}/endsession`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: [this.alg],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      code_challenge_methods_supported: ['S256', 'plain'],
      scopes_supported: ['openid', 'email', 'profile', 'groups', 'offline_access'],
      claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'email', 'email_verified', 'name', 'preferred_username', this.groupsClaim],
    };
  }

  private mustUser(name: string): TestUser {
    const u = this.users.get(name);
    if (!u) throw new Error(`mock IdP: no test user named ${name}`);
    return u;
  }

  private claimsOf(user: TestUser): Record<string, unknown> {
    return {
      sub: user.sub,
      email: user.email,
      email_verified: true,
      name: user.name,
      preferred_username: user.name,
      [this.groupsClaim]: [...user.groups],
    };
  }

  private async newGeneration(): Promise<Generation> {
    const issuer = new OAuth2Issuer(false);
    issuer.url = this.url;
    const key = await issuer.keys.generate(this.alg, { kid: `gwc-${randomUUID()}` });
    const service = new OAuth2Service(issuer);
    this.generations.set(key.kid, { issuer, service, kid: key.kid });
    service.on('beforeAuthorizeRedirect', (r: MutableRedirectUri, req: http.IncomingMessage) => this.onAuthorize(r, req));
    service.on('beforeTokenSigning', (t: MutableToken, req: TokenRequestIncomingMessage) => this.onSign(t, req));
    service.on('beforeResponse', (r: MutableResponse, req: TokenRequestIncomingMessage) => this.onTokenResponse(r, req));
    return this.generations.get(key.kid)!;
  }

  protected handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    this.requests.push({ method: req.method ?? '', path, at: Date.now() });
    if (req.method === 'GET' && path === '/.well-known/openid-configuration') return sendJson(res, 200, this.discovery());
    if (req.method === 'GET' && path === '/jwks') return sendJson(res, 200, this.jwks());
    if (path === '/authorize' && req.method === 'GET') {
      const q = new URL(req.url ?? '/', 'http://x').searchParams;
      const clientId = q.get('client_id');
      if (clientId === null || !(clientId in this.clients)) {
        return sendJson(res, 400, { error: 'invalid_client', error_description: 'unknown client_id' });
      }
    }
    if (path === '/userinfo' && req.method === 'GET') {
      void this.userinfo(req).then(([status, body]) => sendJson(res, status, body));
      return;
    }
    if (path === '/revoke' && req.method === 'POST') {
      void this.revoke(req).then(() => {
        res.writeHead(200);
        res.end();
      });
      return;
    }
    // A token request waits for ID tokens being signed with an earlier key (see onAuthorize).
    if (path === '/token' && this.overrides.size) {
      void Promise.allSettled(this.overrides).then(() => this.gen.service.requestHandler(req, res));
      return;
    }
    // The library answers the rest (authorize, token, endsession).
    this.gen.service.requestHandler(req, res);
  }

  private onAuthorize(r: MutableRedirectUri, req: http.IncomingMessage): void {
    const code = r.url.searchParams.get('code');
    if (code === null) return; // the library already put an error on the redirect
    const deny = (error: string, description: string) => {
      r.url.searchParams.delete('code');
      r.url.searchParams.set('error', error);
      r.url.searchParams.set('error_description', description);
    };
    if (this.denyNextCount > 0) {
      this.denyNextCount--;
      return deny('access_denied', 'sign-in refused by the test script');
    }
    const name = this.queue.shift() ?? this.defaultUser;
    if (name === null) return deny('access_denied', 'no test user scripted for this sign-in');
    if (this.revokedUsers.has(name)) return deny('access_denied', 'user deprovisioned');
    const q = new URL(req.url ?? '/', 'http://x').searchParams;
    const grant: CodeGrant = {
      user: this.mustUser(name),
      clientId: q.get('client_id') ?? undefined,
      redirectUri: q.get('redirect_uri') ?? '',
      pkce: q.get('code_challenge') !== null,
      used: false,
    };
    this.codes.set(code, grant);
    if (this.signNextKid !== null) {
      // Signed now, with the claims the token endpoint would give (this hook cannot wait; the
      // token request for this code waits for it in handle()).
      const signer = this.generations.get(this.signNextKid)!.issuer;
      this.signNextKid = null;
      const nonce = q.get('nonce');
      const claims = { ...this.claimsOf(grant.user), aud: grant.clientId, ...(nonce !== null ? { nonce } : {}) };
      const p: Promise<void> = signer
        .buildToken({ expiresIn: this.ttl, scopesOrTransform: (_h, payload) => Object.assign(payload, claims) })
        .then((t) => void (grant.idTokenOverride = t))
        .finally(() => this.overrides.delete(p));
      this.overrides.add(p);
    }
  }

  private userOfRequest(req: TokenRequestIncomingMessage): TestUser | undefined {
    const body = req.body as unknown as Record<string, unknown>;
    if (body.grant_type === 'authorization_code') return this.codes.get(String(body.code))?.user;
    if (body.grant_type === 'refresh_token') return this.refresh.get(String(body.refresh_token))?.user;
    return undefined;
  }

  private onSign(t: MutableToken, req: TokenRequestIncomingMessage): void {
    const user = this.userOfRequest(req);
    t.payload.exp = t.payload.iat + this.ttl;
    if (!user) return;
    const isIdToken = t.payload.scope === undefined;
    Object.assign(t.payload, isIdToken ? this.claimsOf(user) : { sub: user.sub, [this.groupsClaim]: [...user.groups] });
  }

  /** Refuses what the library would let through; records issued refresh tokens. */
  private onTokenResponse(r: MutableResponse, req: TokenRequestIncomingMessage): void {
    const body = req.body as unknown as Record<string, unknown>;
    const fail = (status: number, error: string, description: string) => {
      r.statusCode = status;
      r.body = { error, error_description: description };
    };
    const client = clientOf(req);
    if (body.grant_type !== 'authorization_code' && body.grant_type !== 'refresh_token') {
      return fail(400, 'unsupported_grant_type', 'only authorization_code and refresh_token');
    }
    if (client.id === undefined || !(client.id in this.clients)) return fail(401, 'invalid_client', 'unknown client');
    const secret = this.clients[client.id];
    if (secret !== null && client.secret !== secret) return fail(401, 'invalid_client', 'bad client credentials');
    let user: TestUser;
    let override: string | undefined;
    if (body.grant_type === 'authorization_code') {
      const grant = this.codes.get(String(body.code));
      if (!grant || grant.used) return fail(400, 'invalid_grant', 'unknown or used code');
      grant.used = true;
      if (grant.clientId !== client.id) return fail(400, 'invalid_grant', 'code issued to another client');
      if (typeof body.redirect_uri === 'string' && body.redirect_uri !== grant.redirectUri) {
        return fail(400, 'invalid_grant', 'redirect_uri differs from the authorization request');
      }
      if (grant.pkce && typeof body.code_verifier !== 'string') return fail(400, 'invalid_grant', 'code_verifier missing');
      user = grant.user;
      override = grant.idTokenOverride;
    } else {
      const token = String(body.refresh_token);
      const grant = this.refresh.get(token);
      if (!grant || grant.clientId !== client.id) return fail(400, 'invalid_grant', 'unknown refresh token');
      // Rotation: a refresh token is good once.
      this.refresh.delete(token);
      user = grant.user;
    }
    if (this.revokedUsers.has(user.name)) return fail(400, 'invalid_grant', 'user deprovisioned');
    const out = r.body as Record<string, unknown>;
    out.expires_in = this.ttl;
    if (override !== undefined) out.id_token = override;
    if (typeof out.refresh_token === 'string') this.refresh.set(out.refresh_token, { user, clientId: client.id });
  }

  /** Userinfo for an access token this IdP signed with a published key, of a user not deprovisioned. */
  private async userinfo(req: http.IncomingMessage): Promise<[number, unknown]> {
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Bearer ')) return [401, { error: 'invalid_token' }];
    try {
      const { payload } = await jwtVerify(auth.slice(7), createLocalJWKSet(this.jwks() as JSONWebKeySet), { issuer: this.issuer });
      const user = [...this.users.values()].find((u) => u.sub === payload.sub);
      if (!user || this.revokedUsers.has(user.name)) return [401, { error: 'invalid_token' }];
      return [200, this.claimsOf(user)];
    } catch {
      return [401, { error: 'invalid_token' }];
    }
  }

  /** RFC 7009 revocation of a refresh token (form body `token=`); answers 200 whatever the token. */
  private async revoke(req: http.IncomingMessage): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const token = new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('token');
    if (token !== null) this.refresh.delete(token);
  }
}
