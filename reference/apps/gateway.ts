// The reference apps gateway: the wire contract of the Claude apps gateway (public dialect
// configuration), implemented well enough to pass every APP-* check of the apps profile.
// Sign-in is the device authorization grant (RFC 8628) completed through an OIDC code flow
// with PKCE against the configured issuer; sessions are short-lived HS256 tokens with rotating
// refresh tokens; model policy and routing follow the caller's IdP groups; spend limits are
// set through the Admin API and enforced with a 429 that states limit, window and reset;
// the gateway relays client telemetry and exports traces of its own requests.
// Where this follows our requirements rather than the real product, the comment says so.
import http from 'node:http';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createLocalJWKSet, createRemoteJWKSet, decodeJwt, decodeProtectedHeader, importJWK, jwtVerify, SignJWT, type JSONWebKeySet, type JWK, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { SpanStatusCode, type Span } from '@opentelemetry/api';
import { LoopbackServer } from '../../src/core/server.js';
import { HarnessError } from '../../src/core/errors.js';
import type { AppsConfig, AppsUpstreamConfig } from './config.js';
import type { AppsFault } from './faults.js';
import { migrate, openStore, type Db } from './store.js';
import { GatewayTelemetry } from './telemetry.js';

/** The models the reference serves, with prices in US cents per million tokens (input, output). */
export const APPS_MODELS: Record<string, { display: string; in: number; out: number }> = {
  'claude-opus-4-7': { display: 'Claude Opus 4.7', in: 1500, out: 7500 },
  'claude-sonnet-4-6': { display: 'Claude Sonnet 4.6', in: 300, out: 1500 },
  'claude-haiku-4-5': { display: 'Claude Haiku 4.5', in: 100, out: 500 },
};
const CHEAPEST = 'claude-haiku-4-5';
const SESSION_AUDIENCE = 'claude-gateway';
const DEVICE_TTL_S = 600;
const PERIODS = ['daily', 'weekly', 'monthly'] as const;
type Period = (typeof PERIODS)[number];

interface Claims {
  sub: string;
  email: string;
  name: string;
  groups: string[];
  sid: string;
}

interface IdpMeta {
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const b64url = (n: number) => randomBytes(n).toString('base64url');

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}
const apiError = (res: http.ServerResponse, status: number, type: string, message: string, headers: Record<string, string> = {}) =>
  json(res, status, { type: 'error', error: { type, message } }, headers);
function html(res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(`<!doctype html><html><body>${body}</body></html>`);
}
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function readBody(req: http.IncomingMessage, limit = 32 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of req) {
    n += (c as Buffer).length;
    if (n > limit) throw new Error('body too large');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The start of the period after `now` (UTC): the reset of a spend window. */
export function periodReset(period: Period, now = new Date()): Date {
  const y = now.getUTCFullYear(), m = now.getUTCMonth(), d = now.getUTCDate();
  if (period === 'daily') return new Date(Date.UTC(y, m, d + 1));
  if (period === 'monthly') return new Date(Date.UTC(y, m + 1, 1));
  const dow = (now.getUTCDay() + 6) % 7; // Monday = 0
  return new Date(Date.UTC(y, m, d - dow + 7));
}
function periodKey(period: Period, now = new Date()): string {
  const iso = now.toISOString();
  if (period === 'daily') return `d:${iso.slice(0, 10)}`;
  if (period === 'monthly') return `m:${iso.slice(0, 7)}`;
  return `w:${new Date(periodReset('weekly', now).getTime() - 7 * 86400_000).toISOString().slice(0, 10)}`;
}

export interface AppsGatewayOptions {
  fault?: AppsFault;
  /** PGlite data directory (state survives a restart); in memory without one. Ignored with store.postgres_url. */
  dataDir?: string;
  /**
   * A database the caller owns and keeps open across restarts of the gateway, as a PostgreSQL
   * server outlives the gateway (the apps demo's PGlite); the gateway migrates it and never closes it.
   */
  db?: Db;
  /** Audit lines (JSON, never prompt text or credentials). */
  log?: (line: string) => void;
}

export class AppsGateway extends LoopbackServer {
  private db!: Db;
  private idp!: IdpMeta;
  private jwks!: JWTVerifyGetKey;
  private telemetry!: GatewayTelemetry;
  private readonly key: Uint8Array;
  private readonly memorySpend = new Map<string, number>();
  /** Fault apps-spend-counted-late: a request's spend, recorded only once the user's next request was let through. */
  private readonly lateSpend = new Map<string, () => Promise<void>>();
  private publicUrl = '';

  constructor(
    readonly cfg: AppsConfig,
    private readonly opts: AppsGatewayOptions = {},
  ) {
    super('reference apps gateway');
    this.key = new TextEncoder().encode(cfg.session.jwtSecret);
  }

  private is(fault: string): boolean {
    return this.opts.fault?.name === fault;
  }

  private audit(evt: string, fields: Record<string, unknown>): void {
    this.opts.log?.(JSON.stringify({ evt, ...fields }));
  }

  override async start(host = this.cfg.listen.host, port = this.cfg.listen.port): Promise<string> {
    this.db = this.opts.db ?? (await openStore({ postgresUrl: this.cfg.store.postgresUrl, dataDir: this.opts.dataDir }));
    if (this.opts.db) await migrate(this.opts.db);
    try {
      const res = await fetch(`${this.cfg.oidc.issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(5000) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      this.idp = (await res.json()) as IdpMeta;
    } catch (e) {
      if (!this.opts.db) await this.db.close();
      throw new HarnessError('GATEWAY_START', `reference apps gateway: cannot read the IdP discovery document of ${this.cfg.oidc.issuer} (${(e as Error).message})`);
    }
    this.jwks = await this.idpKeys(new URL(this.idp.jwks_uri));
    this.telemetry = new GatewayTelemetry(this.is('apps-no-own-traces') ? [] : (this.cfg.telemetry?.forwardTo ?? []).filter((f) => f.traces).map((f) => f.url));
    const url = await super.start(host, port);
    this.publicUrl = this.cfg.listen.publicUrl ?? url;
    return url;
  }

  /**
   * The IdP's signing keys. ID tokens reach the gateway only from the IdP's token endpoint (the
   * back channel), so an unfamiliar kid means the IdP rolled its key, never an attacker's probe:
   * the key set is fetched again at once (no cooldown), and a fetch replaces it, so a key the
   * IdP withdrew stops verifying (OIDC Core 10.1.1).
   */
  private async idpKeys(uri: URL): Promise<JWTVerifyGetKey> {
    const fetchSet = async () => {
      const res = await fetch(uri, { signal: AbortSignal.timeout(5000) });
      if (!res.ok) throw new Error(`JWKS: HTTP ${res.status}`);
      return (await res.json()) as JSONWebKeySet;
    };
    if (this.is('apps-jwks-cached-forever')) return createLocalJWKSet(await fetchSet());
    if (this.is('apps-jwks-keys-kept')) {
      const kept = new Map<string, JWK>();
      return async (header) => {
        if (!kept.has(header.kid ?? '')) for (const k of (await fetchSet()).keys) kept.set(k.kid ?? '', k);
        const k = kept.get(header.kid ?? '');
        if (!k) throw new Error(`no key ${header.kid} in the JWKS`);
        return importJWK(k, header.alg);
      };
    }
    return createRemoteJWKSet(uri, { cooldownDuration: 0 });
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.telemetry?.shutdown();
    if (!this.opts.db) await this.db?.close();
  }

  protected handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.route(req, res).catch((e: Error) => {
      if (!res.headersSent) apiError(res, 500, 'api_error', `internal error: ${e.message}`);
      else res.destroy();
    });
  }

  private async route(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://gateway');
    const p = url.pathname;
    const m = req.method ?? 'GET';
    if (p === '/healthz' || p === '/readyz') {
      if (this.is('apps-no-health')) return json(res, 404, { type: 'error', error: { type: 'not_found_error', message: 'not found' } });
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end(p === '/healthz' ? 'ok' : 'ready');
    }
    if (m === 'GET' && p === '/.well-known/oauth-authorization-server') return json(res, 200, this.metadata(), { 'cache-control': 'max-age=300' });
    if (m === 'POST' && p === '/oauth/device_authorization') return this.deviceAuthorization(req, res);
    if (m === 'GET' && p === '/device') return this.devicePage(url, res);
    if (m === 'POST' && p === '/device') return this.deviceVerify(req, res);
    if (m === 'GET' && p === '/oauth/callback') return this.callback(req, url, res);
    if (m === 'POST' && p === '/oauth/token') return this.token(req, res);
    if (m === 'POST' && p === '/oauth/revoke') return this.revoke(req, res);
    if (p.startsWith('/v1/organizations/spend_limits')) return this.admin(req, res, p);
    if (m === 'GET' && p === '/v1/models' && this.is('apps-discovery-behind-login') && !req.headers.authorization) {
      res.writeHead(302, { location: `${this.idp.authorization_endpoint}?client_id=${encodeURIComponent(this.cfg.oidc.clientId)}&response_type=code` });
      return void res.end();
    }
    const claims = await this.authenticate(req);
    if (!claims) {
      if (p === '/v1/messages' && this.is('apps-html-login-on-api')) return html(res, 401, `<h1>Sign in</h1><a href="${escapeHtml(this.publicUrl)}/device">Sign in with your organisation</a>`);
      return apiError(res, 401, 'authentication_error', 'invalid token', { 'x-should-retry': 'false' });
    }
    if (m === 'GET' && p === '/v1/models') return this.models(claims, res);
    if (m === 'POST' && p === '/v1/messages') return this.messages(req, claims, res);
    if (m === 'GET' && p === '/managed/settings') return this.managed(req, claims, res);
    if (m === 'POST' && (p === '/v1/traces' || p === '/v1/metrics' || p === '/v1/logs')) return this.relay(req, res, p);
    return apiError(res, 404, 'not_found_error', 'not found');
  }

  private metadata(): Record<string, unknown> {
    const u = this.publicUrl;
    return {
      issuer: u,
      device_authorization_endpoint: `${u}/oauth/device_authorization`,
      token_endpoint: `${u}/oauth/token`,
      // Not in the real product (2.1.330 has no revocation): our reference revokes sessions (APP-TOKEN-1 "revoked").
      revocation_endpoint: `${u}/oauth/revoke`,
      grant_types_supported: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
      response_types_supported: [],
      token_endpoint_auth_methods_supported: ['none'],
      scopes_supported: ['openid', 'profile', 'email'],
      gateway_protocol_version: 1,
    };
  }

  // --- sign-in -------------------------------------------------------------------------------

  private async form(req: http.IncomingMessage): Promise<URLSearchParams> {
    return new URLSearchParams((await readBody(req, 64 * 1024)).toString('utf8'));
  }

  private async deviceAuthorization(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    await this.form(req);
    const deviceCode = b64url(32);
    const letters = 'BCDFGHJKLMNPQRSTVWXZ';
    const raw = [...randomBytes(8)].map((b) => letters[b % letters.length]).join('');
    const userCode = `${raw.slice(0, 4)}-${raw.slice(4)}`;
    await this.db.query('INSERT INTO devices (device_code, user_code, expires_at) VALUES ($1, $2, $3)', [deviceCode, userCode, Date.now() + DEVICE_TTL_S * 1000]);
    this.audit('device.authorize', { user_code: userCode });
    json(res, 200, {
      device_code: deviceCode,
      user_code: userCode,
      verification_uri: `${this.publicUrl}/device`,
      verification_uri_complete: `${this.publicUrl}/device?user_code=${userCode}`,
      expires_in: DEVICE_TTL_S,
      interval: 1,
    });
  }

  private devicePage(url: URL, res: http.ServerResponse): void {
    const code = escapeHtml(url.searchParams.get('user_code') ?? '');
    html(res, 200, `<h1>Sign in to Claude Code</h1><form method="post" action="/device"><input name="user_code" value="${code}"><button type="submit">Continue</button></form>`);
  }

  private async deviceVerify(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const origin = req.headers.origin;
    const site = req.headers['sec-fetch-site'];
    if (!(origin === this.publicUrl || site === 'same-origin' || site === 'none'))
      return html(res, 403, '<p>This request came from another site and was blocked. Open the verification link directly.</p>');
    const userCode = (await this.form(req)).get('user_code')?.trim().toUpperCase() ?? '';
    const state = b64url(24), verifier = b64url(32), nonce = b64url(16), browser = b64url(24);
    const { rows } = await this.db.query(
      "UPDATE devices SET state = $1, verifier = $2, nonce = $3, browser = $4 WHERE user_code = $5 AND status = 'pending' AND expires_at > $6 RETURNING device_code",
      [state, verifier, nonce, browser, userCode, Date.now()],
    );
    if (!rows.length) return html(res, 400, '<p>That code is unknown or has expired.</p>');
    const q = new URLSearchParams({
      client_id: this.cfg.oidc.clientId,
      response_type: 'code',
      scope: 'openid profile email offline_access',
      redirect_uri: `${this.publicUrl}/oauth/callback`,
      state,
      nonce,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    res.writeHead(302, { location: `${this.idp.authorization_endpoint}?${q}`, 'set-cookie': `gw_dev=${browser}; Max-Age=${DEVICE_TTL_S}; HttpOnly; SameSite=Lax; Path=/`, 'cache-control': 'no-store' });
    res.end();
  }

  private async callback(req: http.IncomingMessage, url: URL, res: http.ServerResponse): Promise<void> {
    const state = url.searchParams.get('state') ?? '';
    const { rows } = await this.db.query<{ device_code: string; verifier: string; nonce: string; browser: string }>(
      "SELECT device_code, verifier, nonce, browser FROM devices WHERE state = $1 AND status = 'pending' AND expires_at > $2",
      [state, Date.now()],
    );
    const row = rows[0];
    const cookie = /(?:^|;\s*)gw_dev=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    const failPage = () => html(res, 400, '<p>We couldn’t finish signing you in.</p>');
    if (!row || cookie !== row.browser) return failPage();
    const deny = async (why: string) => {
      await this.db.query("UPDATE devices SET status = 'denied' WHERE device_code = $1", [row.device_code]);
      this.audit('session.mint', { result: 'fail', err: why });
      failPage();
    };
    const code = url.searchParams.get('code');
    if (!code) return deny(url.searchParams.get('error') ?? 'no code');
    const tok = await this.idpToken({ grant_type: 'authorization_code', code, redirect_uri: `${this.publicUrl}/oauth/callback`, code_verifier: row.verifier });
    if (!tok.ok) return deny(`token endpoint: ${tok.error}`);
    let payload: JWTPayload;
    try {
      payload = (await jwtVerify(String(tok.body.id_token), this.jwks, { issuer: this.cfg.oidc.issuer, audience: this.cfg.oidc.clientId })).payload;
    } catch (e) {
      return deny(`id_token: ${(e as Error).message}`);
    }
    if (payload.nonce !== row.nonce) return deny('id_token: nonce mismatch');
    const groups = Array.isArray(payload[this.cfg.oidc.groupsClaim]) ? (payload[this.cfg.oidc.groupsClaim] as unknown[]).map(String) : [];
    const allowed = this.cfg.oidc.allowedGroups;
    if (allowed && !this.is('apps-group-check-skipped') && !groups.some((g) => allowed.includes(g))) return deny('user is not a member of an allowed group');
    const claims = { sub: String(payload.sub), email: String(payload.email ?? ''), name: String(payload.name ?? payload.sub), groups };
    await this.db.query("UPDATE devices SET status = 'approved', claims = $1, idp_refresh = $2 WHERE device_code = $3", [JSON.stringify(claims), typeof tok.body.refresh_token === 'string' ? tok.body.refresh_token : null, row.device_code]);
    html(res, 200, '<p>You’re signed in. You can close this window.</p>', { 'set-cookie': 'gw_dev=; Max-Age=0; Path=/' });
  }

  private async idpToken(form: Record<string, string>): Promise<{ ok: true; body: Record<string, unknown> } | { ok: false; error: string }> {
    try {
      const res = await fetch(this.idp.token_endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${encodeURIComponent(this.cfg.oidc.clientId)}:${encodeURIComponent(this.cfg.oidc.clientSecret)}`).toString('base64')}`,
        },
        body: new URLSearchParams(form),
        signal: AbortSignal.timeout(5000),
      });
      const body = (await res.json()) as Record<string, unknown>;
      return res.ok ? { ok: true, body } : { ok: false, error: String(body.error ?? res.status) };
    } catch (e) {
      return { ok: false, error: (e as Error).message };
    }
  }

  private async token(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const f = await this.form(req);
    const grant = f.get('grant_type');
    const oauthError = (status: number, error: string) => json(res, status, { error }, { pragma: 'no-cache' });
    if (grant === 'urn:ietf:params:oauth:grant-type:device_code') {
      const { rows } = await this.db.query<{ status: string; claims: string | null; idp_refresh: string | null; expires_at: string }>(
        'SELECT status, claims, idp_refresh, expires_at FROM devices WHERE device_code = $1',
        [f.get('device_code') ?? ''],
      );
      const row = rows[0];
      if (!row || Number(row.expires_at) < Date.now()) return oauthError(400, 'expired_token');
      if (row.status === 'pending') return this.is('apps-device-pending-500') ? apiError(res, 500, 'api_error', 'internal error') : oauthError(400, 'authorization_pending');
      await this.db.query('DELETE FROM devices WHERE device_code = $1', [f.get('device_code')]);
      if (row.status === 'denied') return oauthError(400, 'access_denied');
      const claims = { ...(JSON.parse(row.claims!) as Omit<Claims, 'sid'>), sid: randomUUID() };
      this.audit('session.mint', { result: 'success', sub: claims.sub });
      return json(res, 200, await this.issue(claims, row.idp_refresh), { pragma: 'no-cache' });
    }
    if (grant === 'refresh_token') {
      const hash = sha256(f.get('refresh_token') ?? '');
      // Rotation (our APP-TOKEN-1; the real product passes the IdP's refresh token through):
      // a refresh token is good once.
      const { rows } = this.is('apps-refresh-not-rotated')
        ? await this.db.query<{ sid: string; claims: string; idp_refresh: string | null }>('SELECT sid, claims, idp_refresh FROM refresh_tokens WHERE token_hash = $1', [hash])
        : await this.db.query<{ sid: string; claims: string; idp_refresh: string | null }>('UPDATE refresh_tokens SET used = TRUE WHERE token_hash = $1 AND used = FALSE RETURNING sid, claims, idp_refresh', [hash]);
      const row = rows[0];
      if (!row) return oauthError(400, 'invalid_grant');
      if ((await this.db.query('SELECT 1 FROM revoked_sessions WHERE sid = $1', [row.sid])).rows.length) return oauthError(400, 'invalid_grant');
      const claims = { ...(JSON.parse(row.claims) as Omit<Claims, 'sid'>), sid: row.sid };
      let idpRefresh = row.idp_refresh;
      if (idpRefresh && !this.is('apps-refresh-skips-idp')) {
        // The IdP decides whether the user is still there, and re-reads nothing else here.
        const r = await this.idpToken({ grant_type: 'refresh_token', refresh_token: idpRefresh });
        if (!r.ok) return oauthError(400, 'invalid_grant');
        idpRefresh = typeof r.body.refresh_token === 'string' ? r.body.refresh_token : idpRefresh;
      }
      this.audit('session.refresh', { result: 'success', sub: claims.sub });
      const out = await this.issue(claims, idpRefresh, this.is('apps-refresh-not-rotated') ? f.get('refresh_token')! : undefined);
      return json(res, 200, out, { pragma: 'no-cache' });
    }
    oauthError(400, 'unsupported_grant_type');
  }

  private async issue(claims: Claims, idpRefresh: string | null, keepRefresh?: string): Promise<Record<string, unknown>> {
    const ttl = Math.round(this.cfg.session.ttlHours * 3600);
    const access = await new SignJWT({ email: claims.email, name: claims.name, groups: claims.groups, sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setAudience(SESSION_AUDIENCE)
      .setIssuer(this.publicUrl)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttl)
      .sign(this.key);
    const refresh = keepRefresh ?? b64url(32);
    if (!keepRefresh) {
      const { sid, ...rest } = claims;
      await this.db.query('INSERT INTO refresh_tokens (token_hash, sid, claims, idp_refresh, created_at) VALUES ($1, $2, $3, $4, $5)', [sha256(refresh), sid, JSON.stringify(rest), idpRefresh, Date.now()]);
    }
    return { access_token: access, refresh_token: refresh, token_type: 'Bearer', expires_in: ttl };
  }

  /** RFC 7009: a refresh or access token; the whole session is revoked. Always 200. */
  private async revoke(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const token = (await this.form(req)).get('token') ?? '';
    let sid: string | undefined = (await this.db.query<{ sid: string }>('SELECT sid FROM refresh_tokens WHERE token_hash = $1', [sha256(token)])).rows[0]?.sid;
    if (!sid) {
      try {
        sid = String((await jwtVerify(token, this.key, { algorithms: ['HS256'], audience: SESSION_AUDIENCE, issuer: this.publicUrl })).payload.sid);
      } catch {
        sid = undefined;
      }
    }
    if (sid) await this.db.query('INSERT INTO revoked_sessions (sid, revoked_at) VALUES ($1, $2) ON CONFLICT (sid) DO NOTHING', [sid, Date.now()]);
    res.writeHead(200, { 'cache-control': 'no-store' });
    res.end();
  }

  private async authenticate(req: http.IncomingMessage): Promise<Claims | null> {
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Bearer ')) return null;
    const token = auth.slice(7).trim();
    let payload: JWTPayload;
    try {
      if (this.is('apps-alg-none-accepted') && decodeProtectedHeader(token).alg === 'none') payload = decodeJwt(token);
      else payload = (await jwtVerify(token, this.key, { algorithms: ['HS256'], audience: SESSION_AUDIENCE, issuer: this.publicUrl })).payload;
    } catch {
      return null;
    }
    const sid = String(payload.sid ?? '');
    if (sid && (await this.db.query('SELECT 1 FROM revoked_sessions WHERE sid = $1', [sid])).rows.length) return null;
    return { sub: String(payload.sub), email: String(payload.email ?? ''), name: String(payload.name ?? ''), groups: Array.isArray(payload.groups) ? payload.groups.map(String) : [], sid };
  }

  // --- policy, routing, discovery ---------------------------------------------------------------

  private policyOf(claims: Claims): { settings: Record<string, unknown> } | undefined {
    return this.cfg.managed?.policies.find((p) => !p.groups || p.groups.some((g) => claims.groups.includes(g)));
  }

  private allowedModels(claims: Claims): string[] {
    const all = Object.keys(APPS_MODELS);
    const avail = this.policyOf(claims)?.settings.availableModels;
    if (this.is('apps-policy-ignored') || !Array.isArray(avail)) return all;
    return all.filter((m) => avail.includes(m));
  }

  private pickUpstream(claims: Claims, model: string): AppsUpstreamConfig | undefined {
    const ups = this.cfg.upstreams;
    if (this.is('apps-routing-ignored')) return ups[0];
    const fits = (u: AppsUpstreamConfig) => (!u.groups || u.groups.some((g) => claims.groups.includes(g))) && (!u.models || u.models.includes(model));
    // A rule that names groups or models wins over a catch-all (the default upstream).
    return ups.find((u) => (u.groups || u.models) && fits(u)) ?? ups.find((u) => !u.groups && !u.models);
  }

  private models(claims: Claims, res: http.ServerResponse): void {
    const data = this.allowedModels(claims).map((id) => ({ type: 'model', id, display_name: APPS_MODELS[id]!.display, created_at: '2026-01-01T00:00:00Z' }));
    json(res, 200, { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null }, { 'cache-control': 'private, max-age=60' });
  }

  private managed(req: http.IncomingMessage, claims: Claims, res: http.ServerResponse): void {
    const policy = this.policyOf(claims);
    if (!policy && !this.is('apps-managed-200-for-everyone')) {
      res.writeHead(404, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
      return void res.end('no policy matched');
    }
    const settings = policy?.settings ?? {};
    const checksum = `sha256:${sha256(canonical(settings))}`;
    const etag = `"${checksum}"`;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag, 'cache-control': 'private, no-cache' });
      return void res.end();
    }
    json(res, 200, { uuid: checksum, checksum, settings }, { etag, 'cache-control': 'private, no-cache' });
  }

  // --- spend -----------------------------------------------------------------------------------

  private async spent(sub: string, period: Period): Promise<number> {
    const key = periodKey(period);
    if (this.is('apps-spend-in-memory')) return this.memorySpend.get(`${sub}|${key}`) ?? 0;
    const { rows } = await this.db.query<{ cents: number }>('SELECT cents FROM spend WHERE principal = $1 AND period_key = $2', [sub, key]);
    return Number(rows[0]?.cents ?? 0);
  }

  private async addSpend(sub: string, cents: number): Promise<void> {
    if (!(cents > 0)) return;
    for (const period of PERIODS) {
      const key = periodKey(period);
      if (this.is('apps-spend-in-memory')) this.memorySpend.set(`${sub}|${key}`, (this.memorySpend.get(`${sub}|${key}`) ?? 0) + cents);
      else await this.db.query('INSERT INTO spend (principal, period_key, cents) VALUES ($1, $2, $3) ON CONFLICT (principal, period_key) DO UPDATE SET cents = spend.cents + EXCLUDED.cents', [sub, key, cents]);
    }
  }

  /** The first limit of the user that is reached, or null. */
  private async overLimit(sub: string): Promise<{ amount: number; period: Period; spent: number } | null> {
    const { rows } = await this.db.query<{ amount_cents: string; period: Period }>('SELECT amount_cents, period FROM spend_limits WHERE user_id = $1 ORDER BY period', [sub]);
    for (const r of rows) {
      const spent = await this.spent(sub, r.period);
      if (spent >= Number(r.amount_cents)) return { amount: Number(r.amount_cents), period: r.period, spent };
    }
    return null;
  }

  private async admin(req: http.IncomingMessage, res: http.ServerResponse, p: string): Promise<void> {
    const admin = this.cfg.admin;
    const key = String(req.headers['x-api-key'] ?? '');
    if (!admin || !(admin.writeKeys.includes(key) || admin.readKeys.includes(key))) return apiError(res, 401, 'authentication_error', 'missing or invalid admin credentials');
    const write = admin.writeKeys.includes(key);
    const m = req.method ?? 'GET';
    const view = (r: { id: string; user_id: string; amount_cents: string | number; period: string }) => ({ type: 'spend_limit', id: r.id, scope: { type: 'user', user_id: r.user_id }, amount: String(r.amount_cents), currency: 'USD', period: r.period });
    if (m === 'GET' && p === '/v1/organizations/spend_limits') {
      const { rows } = await this.db.query<{ id: string; user_id: string; amount_cents: string; period: string }>('SELECT id, user_id, amount_cents, period FROM spend_limits ORDER BY created_at');
      return json(res, 200, { data: rows.map(view), has_more: false, first_id: rows[0]?.id ?? null, last_id: rows.at(-1)?.id ?? null });
    }
    if (!write) return apiError(res, 403, 'permission_error', 'requires write:spend_limits');
    if (m === 'POST' && p === '/v1/organizations/spend_limits') {
      let body: { scope?: { type?: string; user_id?: string }; amount?: unknown; period?: unknown };
      try {
        body = JSON.parse((await readBody(req, 64 * 1024)).toString('utf8'));
      } catch {
        return apiError(res, 400, 'invalid_request_error', 'body is not JSON');
      }
      const period = (body.period ?? 'monthly') as Period;
      const amount = Number(body.amount);
      if (body.scope?.type !== 'user' || typeof body.scope.user_id !== 'string') return apiError(res, 400, 'invalid_request_error', 'scope: only {type: user, user_id} is supported by the reference');
      if (!PERIODS.includes(period)) return apiError(res, 400, 'invalid_request_error', 'period: daily, weekly or monthly');
      if (typeof body.amount !== 'string' || !Number.isInteger(amount) || amount < 0) return apiError(res, 400, 'invalid_request_error', 'amount: whole cents as a decimal string');
      const { rows } = await this.db.query<{ id: string; user_id: string; amount_cents: string; period: string }>(
        'INSERT INTO spend_limits (id, user_id, amount_cents, period, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id, period) DO UPDATE SET amount_cents = EXCLUDED.amount_cents RETURNING id, user_id, amount_cents, period',
        [`spl_${randomUUID().replace(/-/g, '')}`, body.scope.user_id, amount, period, Date.now()],
      );
      this.audit('admin.limit.upsert', { user_id: body.scope.user_id, amount, period });
      return json(res, 200, view(rows[0]!));
    }
    const id = /^\/v1\/organizations\/spend_limits\/([^/]+)$/.exec(p)?.[1];
    if (m === 'DELETE' && id) {
      const { rows } = await this.db.query('DELETE FROM spend_limits WHERE id = $1 RETURNING id', [id]);
      if (!rows.length) return apiError(res, 404, 'not_found_error', 'no such spend limit');
      return json(res, 200, { type: 'spend_limit_deleted', id });
    }
    apiError(res, 404, 'not_found_error', 'not found');
  }

  // --- inference -------------------------------------------------------------------------------

  private async messages(req: http.IncomingMessage, claims: Claims, res: http.ServerResponse): Promise<void> {
    const requestId = `req_${randomUUID().replace(/-/g, '')}`;
    const started = Date.now();
    const span = this.telemetry.tracer.startSpan('gateway.request', { attributes: { 'gateway.request_id': requestId, 'http.route': '/v1/messages', 'http.request.method': 'POST', 'enduser.id': claims.sub } });
    const end = (status: number, attrs: Record<string, string | number | boolean> = {}) => {
      span.setAttributes({ 'http.response.status_code': status, 'gateway.latency_ms': Date.now() - started, ...attrs });
      if (status >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    let body: { model?: unknown; stream?: unknown; messages?: unknown };
    let raw: Buffer;
    try {
      raw = await readBody(req);
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      end(400, { 'error.type': 'invalid_request_error' });
      return apiError(res, 400, 'invalid_request_error', 'body is not JSON', { 'request-id': requestId });
    }
    let model = String(body.model ?? '');
    span.setAttribute('gen_ai.request.model', model);
    if (this.is('apps-prompts-in-spans')) span.setAttribute('gen_ai.prompt', JSON.stringify(body.messages ?? null));
    // Spend first: a blocked user is refused whatever the model.
    const over = await this.overLimit(claims.sub);
    if (over && this.is('apps-spend-substitutes-model')) {
      model = CHEAPEST;
      body.model = model;
      raw = Buffer.from(JSON.stringify(body));
    } else if (over && !this.is('apps-spend-never-enforced')) return this.denySpend(res, claims, over, requestId, span, end);
    const late = this.lateSpend.get(claims.sub);
    if (late) {
      this.lateSpend.delete(claims.sub);
      await late();
    }
    const allowed = this.allowedModels(claims);
    if (!APPS_MODELS[model] || !allowed.includes(model)) {
      end(400, { 'gateway.policy.decision': 'deny', 'error.type': 'invalid_request_error' });
      return apiError(res, 400, 'invalid_request_error', APPS_MODELS[model] ? `model ${model} is not allowed by your group's policy` : `model ${model} is not in the operator's model allowlist`, { 'request-id': requestId });
    }
    span.setAttribute('gateway.policy.decision', 'allow');
    const up = this.pickUpstream(claims, model);
    if (!up) {
      end(400, { 'error.type': 'invalid_request_error' });
      return apiError(res, 400, 'invalid_request_error', `model ${model} is not served by any upstream of yours`, { 'request-id': requestId });
    }
    span.setAttribute('gateway.upstream', up.name);
    let upRes: Response;
    try {
      upRes = await fetch(`${up.baseUrl}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': up.apiKey, 'anthropic-version': String(req.headers['anthropic-version'] ?? '2023-06-01') },
        body: new Uint8Array(raw),
        signal: AbortSignal.timeout(60_000),
      });
    } catch (e) {
      end(502, { 'error.type': 'upstream_unreachable' });
      return apiError(res, 502, 'api_error', `upstream ${up.name} unreachable`, { 'request-id': requestId });
    }
    if (upRes.status >= 400 && this.is('apps-prompts-on-error-path')) span.setAttribute('gen_ai.prompt', JSON.stringify(body.messages ?? null));
    const ct = upRes.headers.get('content-type') ?? 'application/json';
    const price = APPS_MODELS[model]!;
    // Spend is recorded before the response ends, so the client's next request sees it.
    const account = async () => {
      if (!upRes.ok) return;
      const add = () => this.addSpend(claims.sub, (input * price.in + output * price.out) / 1e6);
      if (this.is('apps-spend-counted-late')) this.lateSpend.set(claims.sub, add);
      else await add();
    };
    res.writeHead(upRes.status, { 'content-type': ct, 'request-id': requestId, 'cache-control': 'no-store' });
    let input = 0, output = 0;
    if (ct.includes('text/event-stream') && upRes.body) {
      const dec = new TextDecoder();
      let buf = '';
      for await (const chunk of upRes.body as unknown as AsyncIterable<Uint8Array>) {
        res.write(chunk);
        buf += dec.decode(chunk, { stream: true });
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i).trim();
          buf = buf.slice(i + 1);
          if (!line.startsWith('data:')) continue;
          try {
            const ev = JSON.parse(line.slice(5)) as { message?: { usage?: Record<string, number> }; usage?: Record<string, number> };
            const u = ev.message?.usage ?? ev.usage;
            if (u?.input_tokens) input = u.input_tokens;
            if (u?.output_tokens) output = u.output_tokens;
          } catch {
            /* not JSON: passed through as is */
          }
        }
      }
      await account();
      res.end();
    } else {
      const text = Buffer.from(await upRes.arrayBuffer());
      try {
        const u = (JSON.parse(text.toString('utf8')) as { usage?: Record<string, number> }).usage;
        input = u?.input_tokens ?? 0;
        output = u?.output_tokens ?? 0;
      } catch {
        /* an error body without usage */
      }
      await account();
      res.end(text);
    }
    const cents = (input * price.in + output * price.out) / 1e6;
    this.audit('inference', { request_id: requestId, sub: claims.sub, model, upstream: up.name, status: upRes.status, ms: Date.now() - started });
    end(upRes.status, { 'gateway.spend.cents': cents, 'gen_ai.usage.input_tokens': input, 'gen_ai.usage.output_tokens': output, ...(upRes.status >= 400 ? { 'error.type': `upstream_${upRes.status}` } : {}) });
  }

  /**
   * APP-SPEND-1 as we read it: the body states the limit, the window and the reset (the real
   * product's body states only the reset, the window and reset being in headers).
   */
  private denySpend(res: http.ServerResponse, claims: Claims, over: { amount: number; period: Period; spent: number }, requestId: string, span: Span, end: (s: number, a?: Record<string, string | number | boolean>) => void): void {
    const reset = periodReset(over.period);
    const headers = {
      'request-id': requestId,
      'retry-after': String(Math.max(1, Math.ceil((reset.getTime() - Date.now()) / 1000))),
      'x-should-retry': 'false',
      'anthropic-ratelimit-unified-status': 'rejected',
      'anthropic-ratelimit-unified-reset': String(Math.floor(reset.getTime() / 1000)),
      'anthropic-ratelimit-unified-overage-period': over.period,
    };
    this.audit('spend.blocked', { sub: claims.sub, cap_cents: over.amount, period: over.period });
    if (!this.is('apps-no-spend-telemetry')) {
      const d = this.telemetry.tracer.startSpan('gateway.spend.denied', { attributes: { 'gateway.request_id': requestId, 'enduser.id': claims.sub, 'gateway.spend.limit_cents': over.amount, 'gateway.spend.window': over.period, 'gateway.spend.spent_cents': over.spent, 'gateway.spend.reset': reset.toISOString() } });
      d.end();
    }
    if (!this.is('apps-no-spend-telemetry')) span.setAttribute('gateway.spend.decision', 'deny');
    end(429, { 'error.type': 'billing_error' });
    if (this.is('apps-spend-error-html')) return html(res, 429, '<h1>Spend limit reached</h1>', headers);
    if (this.is('apps-spend-error-vague')) return apiError(res, 429, 'billing_error', 'spend limit reached', headers);
    json(
      res,
      429,
      {
        type: 'error',
        error: {
          type: 'billing_error',
          message: `spend limit reached: ${over.amount} US cents per ${over.period} window; resets ${reset.toISOString()}`,
          limit: { amount: String(over.amount), currency: 'USD', unit: 'cents' },
          window: over.period,
          reset: reset.toISOString(),
        },
      },
      headers,
    );
  }

  // --- telemetry relay -------------------------------------------------------------------------

  /** Forwards the client's OTLP post verbatim; answers 200 at once, whatever the collector does (APP-TEL-4). */
  private async relay(req: http.IncomingMessage, res: http.ServerResponse, p: string): Promise<void> {
    const body = await readBody(req);
    const signal = p.slice(4) as 'traces' | 'metrics' | 'logs';
    const dests = (this.cfg.telemetry?.forwardTo ?? []).filter((d) => d[signal]);
    const sends = dests.map((d) =>
      fetch(`${d.url}${p}`, { method: 'POST', headers: { 'content-type': String(req.headers['content-type'] ?? 'application/x-protobuf') }, body: new Uint8Array(body), signal: AbortSignal.timeout(2000) }).then(
        async (r) => {
          await r.arrayBuffer().catch(() => undefined);
          if (!r.ok) throw new Error(`HTTP ${r.status}`);
        },
      ),
    );
    if (this.is('apps-telemetry-breaks-inference')) {
      const results = await Promise.allSettled(sends);
      if (results.some((r) => r.status === 'rejected')) return apiError(res, 502, 'api_error', 'telemetry collector unavailable');
    } else for (const s of sends) s.catch((e: Error) => this.audit('otel.forward.failed', { error: e.message }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  }
}
