// Sessions of the reference apps gateway: the token endpoint (device-code and refresh grants),
// short-lived HS256 session tokens with rotating refresh tokens, revocation (RFC 7009) and the
// bearer check of every authenticated request.
import type http from 'node:http';
import { randomUUID } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { SESSION_AUDIENCE, type Claims, type GatewayContext } from './context.js';
import { apiError, b64url, json, readForm, sha256 } from './http.js';
import { idpToken } from './signin.js';

type OAuthError = (status: number, error: string) => void;

export async function token(ctx: GatewayContext, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const f = await readForm(req);
  const grant = f.get('grant_type');
  const oauthError: OAuthError = (status, error) => json(res, status, { error }, { pragma: 'no-cache' });
  if (grant === 'urn:ietf:params:oauth:grant-type:device_code') return deviceCodeGrant(ctx, f, res, oauthError);
  if (grant === 'refresh_token') return refreshGrant(ctx, f, res, oauthError);
  oauthError(400, 'unsupported_grant_type');
}

async function deviceCodeGrant(ctx: GatewayContext, f: URLSearchParams, res: http.ServerResponse, oauthError: OAuthError): Promise<void> {
  const { rows } = await ctx.db.query<{ status: string; claims: string | null; idp_refresh: string | null; expires_at: string }>(
    'SELECT status, claims, idp_refresh, expires_at FROM devices WHERE device_code = $1',
    [f.get('device_code') ?? ''],
  );
  const row = rows[0];
  if (!row || Number(row.expires_at) < Date.now()) return oauthError(400, 'expired_token');
  if (row.status === 'pending') return ctx.is('apps-device-pending-500') ? apiError(res, 500, 'api_error', 'internal error') : oauthError(400, 'authorization_pending');
  // A device code is good once (the fault lets an approved one yield tokens again).
  if (!ctx.is('apps-device-code-reused')) await ctx.db.query('DELETE FROM devices WHERE device_code = $1', [f.get('device_code')]);
  if (row.status === 'denied') return oauthError(400, 'access_denied');
  const claims = { ...(JSON.parse(row.claims!) as Omit<Claims, 'sid'>), sid: randomUUID() };
  ctx.audit('session.mint', { result: 'success', sub: claims.sub });
  return json(res, 200, await issue(ctx, claims, row.idp_refresh), { pragma: 'no-cache' });
}

async function refreshGrant(ctx: GatewayContext, f: URLSearchParams, res: http.ServerResponse, oauthError: OAuthError): Promise<void> {
  const hash = sha256(f.get('refresh_token') ?? '');
  // Rotation (our APP-TOKEN-1; the real product passes the IdP's refresh token through):
  // a refresh token is good once.
  const { rows } = ctx.is('apps-refresh-not-rotated')
    ? await ctx.db.query<{ sid: string; claims: string; idp_refresh: string | null }>('SELECT sid, claims, idp_refresh FROM refresh_tokens WHERE token_hash = $1', [hash])
    : await ctx.db.query<{ sid: string; claims: string; idp_refresh: string | null }>('UPDATE refresh_tokens SET used = TRUE WHERE token_hash = $1 AND used = FALSE RETURNING sid, claims, idp_refresh', [hash]);
  const row = rows[0];
  if (!row) return oauthError(400, 'invalid_grant');
  if ((await ctx.db.query('SELECT 1 FROM revoked_sessions WHERE sid = $1', [row.sid])).rows.length) return oauthError(400, 'invalid_grant');
  const claims = { ...(JSON.parse(row.claims) as Omit<Claims, 'sid'>), sid: row.sid };
  let idpRefresh = row.idp_refresh;
  if (idpRefresh && !ctx.is('apps-refresh-skips-idp')) {
    // The IdP decides whether the user is still there, and re-reads nothing else here.
    const r = await idpToken(ctx, { grant_type: 'refresh_token', refresh_token: idpRefresh });
    if (!r.ok) return oauthError(400, 'invalid_grant');
    idpRefresh = typeof r.body.refresh_token === 'string' ? r.body.refresh_token : idpRefresh;
  }
  ctx.audit('session.refresh', { result: 'success', sub: claims.sub });
  const out = await issue(ctx, claims, idpRefresh, ctx.is('apps-refresh-not-rotated') ? f.get('refresh_token')! : undefined);
  return json(res, 200, out, { pragma: 'no-cache' });
}

async function issue(ctx: GatewayContext, claims: Claims, idpRefresh: string | null, keepRefresh?: string): Promise<Record<string, unknown>> {
  const ttl = Math.round(ctx.cfg.session.ttlHours * 3600);
  const access = await new SignJWT({ email: claims.email, name: claims.name, groups: claims.groups, sid: claims.sid })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setAudience(SESSION_AUDIENCE)
    .setIssuer(ctx.publicUrl)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttl)
    .sign(ctx.key);
  const refresh = keepRefresh ?? b64url(32);
  if (!keepRefresh) {
    const { sid, ...rest } = claims;
    await ctx.db.query('INSERT INTO refresh_tokens (token_hash, sid, claims, idp_refresh, created_at) VALUES ($1, $2, $3, $4, $5)', [sha256(refresh), sid, JSON.stringify(rest), idpRefresh, Date.now()]);
  }
  return { access_token: access, refresh_token: refresh, token_type: 'Bearer', expires_in: ttl };
}

/** RFC 7009: a refresh or access token; the whole session is revoked. Always 200. */
export async function revoke(ctx: GatewayContext, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const token = (await readForm(req)).get('token') ?? '';
  let sid: string | undefined = (await ctx.db.query<{ sid: string }>('SELECT sid FROM refresh_tokens WHERE token_hash = $1', [sha256(token)])).rows[0]?.sid;
  if (!sid) {
    try {
      sid = String((await jwtVerify(token, ctx.key, { algorithms: ['HS256'], audience: SESSION_AUDIENCE, issuer: ctx.publicUrl })).payload.sid);
    } catch {
      sid = undefined;
    }
  }
  if (sid) await ctx.db.query('INSERT INTO revoked_sessions (sid, revoked_at) VALUES ($1, $2) ON CONFLICT (sid) DO NOTHING', [sid, Date.now()]);
  res.writeHead(200, { 'cache-control': 'no-store' });
  res.end();
}

/** The caller's claims from a valid, unrevoked session token; null otherwise. */
export async function authenticate(ctx: GatewayContext, req: http.IncomingMessage): Promise<Claims | null> {
  const auth = req.headers.authorization ?? '';
  if (!auth.startsWith('Bearer ')) return null;
  const token = auth.slice(7).trim();
  let payload: JWTPayload;
  try {
    if (ctx.is('apps-alg-none-accepted') && decodeProtectedHeader(token).alg === 'none') payload = decodeJwt(token);
    else payload = (await jwtVerify(token, ctx.key, { algorithms: ['HS256'], audience: SESSION_AUDIENCE, issuer: ctx.publicUrl })).payload;
  } catch {
    return null;
  }
  const sid = String(payload.sid ?? '');
  if (sid && (await ctx.db.query('SELECT 1 FROM revoked_sessions WHERE sid = $1', [sid])).rows.length) return null;
  return { sub: String(payload.sub), email: String(payload.email ?? ''), name: String(payload.name ?? ''), groups: Array.isArray(payload.groups) ? payload.groups.map(String) : [], sid };
}
