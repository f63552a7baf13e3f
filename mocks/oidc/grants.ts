// The mock IdP's strict token endpoint: the authorization codes and refresh tokens it issued,
// and the checks oauth2-mock-server leaves out: codes are single use and bound to their client
// and redirect URI, a code issued with a PKCE challenge needs its verifier, confidential clients
// must authenticate, refresh tokens rotate, and a deprovisioned user gets nothing.
import type { MutableResponse, TokenRequestIncomingMessage } from 'oauth2-mock-server';
import type { TestUser } from './users.js';

/** What an authorization code was issued for. */
export interface CodeGrant {
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

const bodyOf = (req: TokenRequestIncomingMessage) => req.body as unknown as Record<string, unknown>;

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
  const body = bodyOf(req);
  return {
    id: typeof body.client_id === 'string' ? body.client_id : undefined,
    secret: typeof body.client_secret === 'string' ? body.client_secret : undefined,
  };
}

export class Grants {
  private readonly codes = new Map<string, CodeGrant>();
  private readonly refresh = new Map<string, RefreshGrant>();

  constructor(
    private readonly clients: Readonly<Record<string, string | null>>,
    private readonly ttl: number,
    private readonly deprovisioned: (user: TestUser) => boolean,
  ) {}

  /** Records the code the library put on an authorization redirect. */
  addCode(code: string, grant: CodeGrant): void {
    this.codes.set(code, grant);
  }

  /** The user a token request is for (by its code or refresh token), if this IdP issued it. */
  userOf(req: TokenRequestIncomingMessage): TestUser | undefined {
    const body = bodyOf(req);
    if (body.grant_type === 'authorization_code') return this.codes.get(String(body.code))?.user;
    if (body.grant_type === 'refresh_token') return this.refresh.get(String(body.refresh_token))?.user;
    return undefined;
  }

  /** Refuses what the library would let through; records issued refresh tokens. */
  onTokenResponse(r: MutableResponse, req: TokenRequestIncomingMessage): void {
    const body = bodyOf(req);
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
    if (this.deprovisioned(user)) return fail(400, 'invalid_grant', 'user deprovisioned');
    const out = r.body as Record<string, unknown>;
    out.expires_in = this.ttl;
    if (override !== undefined) out.id_token = override;
    if (typeof out.refresh_token === 'string') this.refresh.set(out.refresh_token, { user, clientId: client.id });
  }

  /** RFC 7009: the refresh token is no longer good. */
  revokeRefresh(token: string): void {
    this.refresh.delete(token);
  }
}
