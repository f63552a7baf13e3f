// One realm of the mock OIDC identity provider: the users, clients, keys, codes and refresh
// tokens of one issuer, and its script (idp.ts serves one realm alone, or many on one server,
// each under its own issuer path). Built on oauth2-mock-server (token signing, authorization
// codes, PKCE verification), behind a thin front that adds what the library leaves out:
//  - scripted users: an authorization (by its state, else the next) signs in the user the
//    harness chose, without a login page, and the tokens carry that user's sub, email and groups;
//  - a strict token endpoint: single-use codes of this IdP, PKCE verifiers, client authentication;
//  - key rotation (the old public key kept in the JWKS or not), putting an earlier key back,
//    signing one ID token with a withdrawn key, revocation of users and refresh tokens.
// Rotation swaps in a fresh issuer and service from the library (its key store cannot drop
// keys), so codes not yet redeemed at that moment are void, as after a real IdP key roll.
// keys.ts holds the keys, grants.ts the token endpoint's checks, users.ts the test users.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import type { MutableRedirectUri, MutableResponse, MutableToken, OAuth2Service, TokenRequestIncomingMessage } from 'oauth2-mock-server';
import { discoveryDocument } from './discovery.js';
import { Grants, type CodeGrant } from './grants.js';
import { KeyRing } from './keys.js';
import { claimsOf, defaultUsers, type TestUser } from './users.js';

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

export type IdpRequest = { method: string; path: string; at: number };

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}

/** Where a realm is served: the server's URL (once it listens), the realm's path on it ('' at the root), and how it leaves the server. */
export interface RealmMount {
  base: () => string;
  prefix: string;
  drop?: () => void;
}

export class IdpRealm {
  readonly users: ReadonlyMap<string, TestUser>;
  readonly clients: Readonly<Record<string, string | null>>;
  readonly requests: IdpRequest[] = [];
  private readonly ttl: number;
  private readonly groupsClaim: string;
  private readonly alg: string;
  private readonly keys: KeyRing;
  private readonly grants: Grants;
  private queue: string[] = [];
  /** Users scripted for the authorization request with this `state` (taken before the queue). */
  private byState = new Map<string, string>();
  /** The authorizations answered with a code or a refusal of this IdP's: state, whom, why not. */
  readonly authorizations: { state: string | null; user: string | null; refused?: string }[] = [];
  private defaultUser: string | null;
  private denyNextCount = 0;
  private revokedUsers = new Set<string>();

  constructor(
    opts: MockIdpOptions,
    private readonly mount: RealmMount,
  ) {
    const users = opts.users ?? defaultUsers();
    this.users = new Map(users.map((u) => [u.name, u]));
    this.clients = opts.clients ?? { 'gwc-gateway': `gwc-secret-${randomUUID()}` };
    this.ttl = opts.tokenTtlSeconds ?? 3600;
    this.groupsClaim = opts.groupsClaim ?? 'groups';
    this.alg = opts.alg ?? 'RS256';
    this.defaultUser = users[0]?.name ?? null;
    this.keys = new KeyRing(this.alg, () => this.issuer, (service) => this.wire(service));
    this.grants = new Grants(this.clients, this.ttl, (user) => this.revokedUsers.has(user.name));
  }

  /** The issuer URL: the server's URL and the realm's path on it (no trailing slash). */
  get issuer(): string {
    return `${this.mount.base()}${this.mount.prefix}`;
  }

  /** The kid of the key that signs now. */
  get currentKid(): string {
    return this.keys.current.kid;
  }

  /** Makes the first signing key, once the server listens (a key's issuer is the realm's URL); returns the issuer. */
  async start(): Promise<string> {
    await this.keys.start();
    return this.issuer;
  }

  /** Whether the realm has its first key (it answers nothing before). */
  get started(): boolean {
    return this.keys.ready;
  }

  /** Takes the realm off its server (a shared one: the server goes on serving the others). */
  async stop(): Promise<void> {
    this.mount.drop?.();
  }

  /**
   * The user the next authorization signs in: the one whose request carries `state` when given
   * (so a sign-in whose authorization never arrives leaves nothing for another), otherwise
   * queued, one per sign-in, in order.
   */
  signInNext(name: string, opts: { state?: string } = {}): void {
    this.mustUser(name);
    if (opts.state) this.byState.set(opts.state, name);
    else this.queue.push(name);
  }

  /** The user signed in when nothing is queued; null makes an unqueued authorization fail with access_denied. */
  setDefaultUser(name: string | null): void {
    if (name !== null) this.mustUser(name);
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
    return this.keys.rotate(!!opts.keepOld);
  }

  /**
   * Puts an earlier key back: it signs again and is the only key published (as an IdP that backs
   * out a key roll). Codes not yet redeemed are void, as after a rotation.
   */
  reinstateKey(kid: string): void {
    this.keys.reinstate(kid);
  }

  /**
   * The ID token of the next authorization (for whichever user it signs in) is signed with an
   * earlier key, withdrawn or not, instead of the current one: a stolen or stale key. `null`
   * calls it off (when that authorization never came).
   */
  signNextWith(kid: string | null): void {
    this.keys.signNextWith(kid);
  }

  /** Drops a public key kept by an earlier rotation from the JWKS. */
  revokeKey(kid: string): void {
    this.keys.revoke(kid);
  }

  /** Deprovisions a user: authorization refused, refresh tokens and userinfo answer errors. */
  revokeUser(name: string): void {
    this.mustUser(name);
    this.revokedUsers.add(name);
  }

  /** Provisions a deprovisioned user again (as an admin who lifts a suspension): they sign in again; a refresh token presented meanwhile stays spent. */
  reinstateUser(name: string): void {
    this.mustUser(name);
    this.revokedUsers.delete(name);
  }

  /** Signs a token for a user outside any flow (e.g. to forge or to present an expired one). */
  async mintIdToken(name: string, opts: { audience: string; expiresIn?: number }): Promise<string> {
    const user = this.mustUser(name);
    return this.keys.current.issuer.buildToken({
      expiresIn: opts.expiresIn ?? this.ttl,
      scopesOrTransform: (_h, p) => Object.assign(p, this.claimsOf(user), { aud: opts.audience }),
    });
  }

  /** The JWKS as served. */
  jwks(): { keys: Record<string, unknown>[] } {
    return this.keys.jwks();
  }

  discovery(): Record<string, unknown> {
    return discoveryDocument(this.issuer, this.alg, this.groupsClaim);
  }

  private mustUser(name: string): TestUser {
    const u = this.users.get(name);
    if (!u) throw new Error(`mock IdP: no test user named ${name}`);
    return u;
  }

  private claimsOf(user: TestUser): Record<string, unknown> {
    return claimsOf(user, this.groupsClaim);
  }

  private wire(service: OAuth2Service): void {
    service.on('beforeAuthorizeRedirect', (r: MutableRedirectUri, req: http.IncomingMessage) => this.onAuthorize(r, req));
    service.on('beforeTokenSigning', (t: MutableToken, req: TokenRequestIncomingMessage) => this.onSign(t, req));
    service.on('beforeResponse', (r: MutableResponse, req: TokenRequestIncomingMessage) => this.grants.onTokenResponse(r, req));
  }

  /** Answers a request whose URL is relative to the realm (its path taken off); the request is recorded with its path as sent. */
  serve(req: http.IncomingMessage, res: http.ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    this.requests.push({ method: req.method ?? '', path: `${this.mount.prefix}${path}`, at: Date.now() });
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
    const pending = path === '/token' ? this.keys.pending() : undefined;
    if (pending) return void pending.then(() => this.keys.current.service.requestHandler(req, res));
    // The library answers the rest (authorize, token, endsession).
    this.keys.current.service.requestHandler(req, res);
  }

  private onAuthorize(r: MutableRedirectUri, req: http.IncomingMessage): void {
    const code = r.url.searchParams.get('code');
    if (code === null) return; // the library already put an error on the redirect
    const q = new URL(req.url ?? '/', 'http://x').searchParams;
    const state = q.get('state');
    const scripted = state !== null ? this.byState.get(state) : undefined;
    this.byState.delete(state ?? '');
    const deny = (user: string | null, error: string, description: string) => {
      this.authorizations.push({ state, user, refused: description });
      r.url.searchParams.delete('code');
      r.url.searchParams.set('error', error);
      r.url.searchParams.set('error_description', description);
    };
    if (this.denyNextCount > 0) {
      this.denyNextCount--;
      return deny(scripted ?? null, 'access_denied', 'sign-in refused by the test script');
    }
    const name = scripted ?? this.queue.shift() ?? this.defaultUser;
    if (name === null) return deny(null, 'access_denied', 'no test user scripted for this sign-in');
    if (this.revokedUsers.has(name)) return deny(name, 'access_denied', 'user deprovisioned');
    this.authorizations.push({ state, user: name });
    const grant: CodeGrant = {
      user: this.mustUser(name),
      clientId: q.get('client_id') ?? undefined,
      redirectUri: q.get('redirect_uri') ?? '',
      pkce: q.get('code_challenge') !== null,
      used: false,
    };
    this.grants.addCode(code, grant);
    // With the claims the token endpoint would give (this hook cannot wait; the token request
    // for this code waits for the signature in handle()).
    const nonce = q.get('nonce');
    const claims = { ...this.claimsOf(grant.user), aud: grant.clientId, ...(nonce !== null ? { nonce } : {}) };
    this.keys.signEarly(claims, this.ttl, (t) => void (grant.idTokenOverride = t));
  }

  private onSign(t: MutableToken, req: TokenRequestIncomingMessage): void {
    const user = this.grants.userOf(req);
    t.payload.exp = t.payload.iat + this.ttl;
    if (!user) return;
    const isIdToken = t.payload.scope === undefined;
    Object.assign(t.payload, isIdToken ? this.claimsOf(user) : { sub: user.sub, [this.groupsClaim]: [...user.groups] });
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
    if (token !== null) this.grants.revokeRefresh(token);
  }
}
