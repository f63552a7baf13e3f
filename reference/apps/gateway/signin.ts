// Sign-in at the reference apps gateway: the device authorization grant (RFC 8628), whose
// verification page hands the browser to the configured IdP for an OIDC code flow with PKCE;
// the callback checks the ID token and the allowed groups and approves the device.
import { patientSignal } from '../../../src/core/stall.js';
import type http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { createLocalJWKSet, createRemoteJWKSet, importJWK, jwtVerify, type JSONWebKeySet, type JWK, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { AppsFaultName } from '../faults.js';
import type { GatewayContext } from './context.js';
import { b64url, escapeHtml, html, json, readForm } from './http.js';

/**
 * How long the gateway waits for the IdP on its back channel (discovery, keys, grants), its own
 * holds not counted: 10 s. At 5 s a loaded machine starting six gateways at once refused
 * sign-ins and once failed a gateway's start.
 */
export const IDP_WAIT_MS = 10_000;

/** How long a device code and its browser cookie live, in seconds. */
export const DEVICE_TTL_S = 600;

/**
 * The IdP's signing keys. ID tokens reach the gateway only from the IdP's token endpoint (the
 * back channel), so an unfamiliar kid means the IdP rolled its key, never an attacker's probe:
 * the key set is fetched again at once (no cooldown), and a fetch replaces it, so a key the
 * IdP withdrew stops verifying (OIDC Core 10.1.1).
 */
export async function idpKeys(uri: URL, is: (fault: AppsFaultName) => boolean): Promise<JWTVerifyGetKey> {
  const fetchSet = async () => {
    const bound = patientSignal(IDP_WAIT_MS);
    try {
      const res = await fetch(uri, { signal: bound.signal });
      if (!res.ok) throw new Error(`JWKS: HTTP ${res.status}`);
      return (await res.json()) as JSONWebKeySet;
    } finally {
      bound.done();
    }
  };
  if (is('apps-jwks-cached-forever')) return createLocalJWKSet(await fetchSet());
  if (is('apps-jwks-keys-kept')) {
    const kept = new Map<string, JWK>();
    return async (header) => {
      if (!kept.has(header.kid ?? '')) for (const k of (await fetchSet()).keys) kept.set(k.kid ?? '', k);
      const k = kept.get(header.kid ?? '');
      if (!k) throw new Error(`no key ${header.kid} in the JWKS`);
      return importJWK(k, header.alg);
    };
  }
  // jose's own default is 5 s, and it counts this process's holds.
  return createRemoteJWKSet(uri, { cooldownDuration: 0, timeoutDuration: IDP_WAIT_MS });
}

/** The link the user opens; the faults build it from the gateway's own name for itself (only its host reaches it), or on a path it does not serve. */
function completeLink(ctx: GatewayContext, userCode: string): string {
  if (ctx.is('apps-device-link-internal')) return `http://localhost:${new URL(ctx.publicUrl).port}/device?user_code=${userCode}`;
  if (ctx.is('apps-device-link-dead')) return `${ctx.publicUrl}/activate?user_code=${userCode}`;
  return `${ctx.publicUrl}/device?user_code=${userCode}`;
}

export async function deviceAuthorization(ctx: GatewayContext, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  await readForm(req);
  const deviceCode = b64url(32);
  const letters = 'BCDFGHJKLMNPQRSTVWXZ';
  const raw = [...randomBytes(8)].map((b) => letters[b % letters.length]).join('');
  const userCode = `${raw.slice(0, 4)}-${raw.slice(4)}`;
  await ctx.db.query('INSERT INTO devices (device_code, user_code, expires_at) VALUES ($1, $2, $3)', [deviceCode, userCode, Date.now() + DEVICE_TTL_S * 1000]);
  ctx.audit('device.authorize', { user_code: userCode });
  json(res, 200, {
    device_code: deviceCode,
    user_code: userCode,
    verification_uri: `${ctx.publicUrl}/device`,
    verification_uri_complete: completeLink(ctx, userCode),
    expires_in: DEVICE_TTL_S,
    interval: 1,
  });
}

export function devicePage(url: URL, res: http.ServerResponse): void {
  const code = escapeHtml(url.searchParams.get('user_code') ?? '');
  html(res, 200, `<h1>Sign in to Claude Code</h1><form method="post" action="/device"><input name="user_code" value="${code}"><button type="submit">Continue</button></form>`);
}

export async function deviceVerify(ctx: GatewayContext, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const origin = req.headers.origin;
  const site = req.headers['sec-fetch-site'];
  if (!(origin === ctx.publicUrl || site === 'same-origin' || site === 'none'))
    return html(res, 403, '<p>This request came from another site and was blocked. Open the verification link directly.</p>');
  const userCode = (await readForm(req)).get('user_code')?.trim().toUpperCase() ?? '';
  const state = b64url(24), verifier = b64url(32), nonce = b64url(16), browser = b64url(24);
  const { rows } = await ctx.db.query(
    "UPDATE devices SET state = $1, verifier = $2, nonce = $3, browser = $4 WHERE user_code = $5 AND status = 'pending' AND expires_at > $6 RETURNING device_code",
    [state, verifier, nonce, browser, userCode, Date.now()],
  );
  if (!rows.length) return html(res, 400, '<p>That code is unknown or has expired.</p>');
  const q = new URLSearchParams({
    client_id: ctx.cfg.oidc.clientId,
    response_type: 'code',
    scope: 'openid profile email offline_access',
    redirect_uri: `${ctx.publicUrl}/oauth/callback`,
    state,
    nonce,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  res.writeHead(302, { location: `${ctx.idp.authorization_endpoint}?${q}`, 'set-cookie': `gw_dev=${browser}; Max-Age=${DEVICE_TTL_S}; HttpOnly; SameSite=Lax; Path=/`, 'cache-control': 'no-store' });
  res.end();
}

export async function callback(ctx: GatewayContext, req: http.IncomingMessage, url: URL, res: http.ServerResponse): Promise<void> {
  const state = url.searchParams.get('state') ?? '';
  const { rows } = await ctx.db.query<{ device_code: string; verifier: string; nonce: string; browser: string }>(
    "SELECT device_code, verifier, nonce, browser FROM devices WHERE state = $1 AND status = 'pending' AND expires_at > $2",
    [state, Date.now()],
  );
  const row = rows[0];
  const cookie = /(?:^|;\s*)gw_dev=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
  const failPage = () => html(res, 400, '<p>We couldn’t finish signing you in.</p>');
  if (!row || cookie !== row.browser) return failPage();
  const deny = async (why: string) => {
    await ctx.db.query("UPDATE devices SET status = 'denied' WHERE device_code = $1", [row.device_code]);
    ctx.audit('session.mint', { result: 'fail', err: why });
    failPage();
  };
  const code = url.searchParams.get('code');
  if (!code) return deny(url.searchParams.get('error') ?? 'no code');
  const tok = await idpToken(ctx, { grant_type: 'authorization_code', code, redirect_uri: `${ctx.publicUrl}/oauth/callback`, code_verifier: row.verifier });
  if (!tok.ok) return deny(`token endpoint: ${tok.error}`);
  let payload: JWTPayload;
  try {
    payload = (await jwtVerify(String(tok.body.id_token), ctx.jwks, { issuer: ctx.cfg.oidc.issuer, audience: ctx.cfg.oidc.clientId })).payload;
  } catch (e) {
    return deny(`id_token: ${(e as Error).message}`);
  }
  if (payload.nonce !== row.nonce) return deny('id_token: nonce mismatch');
  const groups = Array.isArray(payload[ctx.cfg.oidc.groupsClaim]) ? (payload[ctx.cfg.oidc.groupsClaim] as unknown[]).map(String) : [];
  const allowed = ctx.cfg.oidc.allowedGroups;
  if (allowed && !ctx.is('apps-group-check-skipped') && !groups.some((g) => allowed.includes(g))) return deny('user is not a member of an allowed group');
  const claims = { sub: String(payload.sub), email: String(payload.email ?? ''), name: String(payload.name ?? payload.sub), groups };
  await ctx.db.query("UPDATE devices SET status = 'approved', claims = $1, idp_refresh = $2 WHERE device_code = $3", [JSON.stringify(claims), typeof tok.body.refresh_token === 'string' ? tok.body.refresh_token : null, row.device_code]);
  html(res, 200, '<p>You’re signed in. You can close this window.</p>', { 'set-cookie': 'gw_dev=; Max-Age=0; Path=/' });
}

/** A grant at the IdP's token endpoint, authenticated as the gateway's client. */
export async function idpToken(ctx: GatewayContext, form: Record<string, string>): Promise<{ ok: true; body: Record<string, unknown> } | { ok: false; error: string }> {
  const bound = patientSignal(IDP_WAIT_MS);
  try {
    const res = await fetch(ctx.idp.token_endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(ctx.cfg.oidc.clientId)}:${encodeURIComponent(ctx.cfg.oidc.clientSecret)}`).toString('base64')}`,
      },
      body: new URLSearchParams(form),
      // This process's own holds not counted (a loaded machine): a sign-in refused for a slow grant is not the IdP's refusal.
      signal: bound.signal,
    });
    const body = (await res.json()) as Record<string, unknown>;
    return res.ok ? { ok: true, body } : { ok: false, error: String(body.error ?? res.status) };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  } finally {
    bound.done();
  }
}
