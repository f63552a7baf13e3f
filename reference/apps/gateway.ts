// The reference apps gateway: the wire contract of the Claude apps gateway (public dialect
// configuration), implemented well enough to pass every APP-* check of the apps profile.
// Sign-in is the device authorization grant (RFC 8628) completed through an OIDC code flow
// with PKCE against the configured issuer; sessions are short-lived HS256 tokens with rotating
// refresh tokens; model policy and routing follow the caller's IdP groups; spend limits are
// set through the Admin API and enforced with a 429 that states limit, window and reset;
// the gateway relays client telemetry and exports traces of its own requests.
// Where this follows our requirements rather than the real product, the comment says so.
// This file starts the gateway and routes requests; the work is in gateway/: signin.ts and
// sessions.ts (sign-in), policy.ts, spend.ts, inference.ts, relay.ts (telemetry), http.ts.
import { patientSignal } from '../../src/core/stall.js';
import type http from 'node:http';
import { LoopbackServer } from '../../src/core/server.js';
import { HarnessError } from '../../src/core/errors.js';
import { contractDocument } from '../../src/core/apps-contract.js';
import type { AppsConfig } from './config.js';
import type { AppsFault, AppsFaultName } from './faults.js';
import { migrate, openStore, type Db } from './store.js';
import { GatewayTelemetry } from './telemetry.js';
import type { GatewayContext, IdpMeta } from './gateway/context.js';
import { apiError, escapeHtml, html, json } from './gateway/http.js';
import { messages } from './gateway/inference.js';
import { managed, models } from './gateway/policy.js';
import { relay } from './gateway/relay.js';
import { authenticate, revoke, token } from './gateway/sessions.js';
import { callback, deviceAuthorization, devicePage, deviceVerify, idpKeys, IDP_WAIT_MS } from './gateway/signin.js';
import { admin } from './gateway/spend.js';

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
  private db?: Db;
  private telemetry?: GatewayTelemetry;
  private ctx!: GatewayContext;
  private readonly key: Uint8Array;

  constructor(
    readonly cfg: AppsConfig,
    private readonly opts: AppsGatewayOptions = {},
  ) {
    super('reference apps gateway');
    this.key = new TextEncoder().encode(cfg.session.jwtSecret);
  }

  private readonly is = (fault: AppsFaultName): boolean => this.opts.fault?.name === fault;

  override async start(host = this.cfg.listen.host, port = this.cfg.listen.port): Promise<string> {
    const db = (this.db = this.opts.db ?? (await openStore({ postgresUrl: this.cfg.store.postgresUrl, dataDir: this.opts.dataDir })));
    if (this.opts.db) await migrate(this.opts.db);
    let idp: IdpMeta;
    try {
      // The IdP's silence is bounded, not this process's holds (a busy machine starting many gateways at once).
      const bound = patientSignal(IDP_WAIT_MS);
      try {
        const res = await fetch(`${this.cfg.oidc.issuer}/.well-known/openid-configuration`, { signal: bound.signal });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        idp = (await res.json()) as IdpMeta;
      } finally {
        bound.done();
      }
    } catch (e) {
      if (!this.opts.db) await db.close();
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new HarnessError('GATEWAY_START', `reference apps gateway: cannot read the IdP discovery document of ${this.cfg.oidc.issuer} (${(e as Error).message}${cause ? `: ${cause.code ?? cause.message}` : ''})`);
    }
    const jwks = await idpKeys(new URL(idp.jwks_uri), this.is);
    const telemetry = (this.telemetry = new GatewayTelemetry(this.is('apps-no-own-traces') ? [] : (this.cfg.telemetry?.forwardTo ?? []).filter((f) => f.traces).map((f) => f.url)));
    const audit = (evt: string, fields: Record<string, unknown>) => this.opts.log?.(JSON.stringify({ evt, ...fields }));
    this.ctx = { cfg: this.cfg, db, idp, jwks, telemetry, key: this.key, publicUrl: '', spend: { counters: new Map(), late: new Map() }, is: this.is, audit };
    const url = await super.start(host, port);
    this.ctx.publicUrl = this.cfg.listen.publicUrl ?? url;
    return url;
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
    const ctx = this.ctx;
    const url = new URL(req.url ?? '/', 'http://gateway');
    const p = url.pathname;
    const m = req.method ?? 'GET';
    if (p === '/healthz' || p === '/readyz') {
      if (this.is('apps-no-health')) return json(res, 404, { type: 'error', error: { type: 'not_found_error', message: 'not found' } });
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end(p === '/healthz' ? 'ok' : 'ready');
    }
    if (m === 'GET' && p === '/protocol') {
      // The statements of the real product's contract that our requirements rely on (src/core/apps-contract.ts).
      res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' });
      return void res.end(contractDocument(this.is('apps-contract-drifted') ? (s) => s.backs.startsWith('DISC-1') : undefined));
    }
    if (m === 'GET' && p === '/.well-known/oauth-authorization-server') return json(res, 200, this.metadata(), { 'cache-control': 'max-age=300' });
    if (m === 'POST' && p === '/oauth/device_authorization') return deviceAuthorization(ctx, req, res);
    if (m === 'GET' && p === '/device') return devicePage(url, res);
    if (m === 'POST' && p === '/device') return deviceVerify(ctx, req, res);
    if (m === 'GET' && p === '/oauth/callback') return callback(ctx, req, url, res);
    if (m === 'POST' && p === '/oauth/token') return token(ctx, req, res);
    if (m === 'POST' && p === '/oauth/revoke') return revoke(ctx, req, res);
    if (p.startsWith('/v1/organizations/spend_limits')) return admin(ctx, req, res, p);
    if (m === 'GET' && p === '/v1/models' && this.is('apps-discovery-behind-login') && !req.headers.authorization) {
      res.writeHead(302, { location: `${ctx.idp.authorization_endpoint}?client_id=${encodeURIComponent(this.cfg.oidc.clientId)}&response_type=code` });
      return void res.end();
    }
    const claims = await authenticate(ctx, req);
    if (!claims) {
      if (p === '/v1/messages' && this.is('apps-html-login-on-api')) return html(res, 401, `<h1>Sign in</h1><a href="${escapeHtml(ctx.publicUrl)}/device">Sign in with your organisation</a>`);
      return apiError(res, 401, 'authentication_error', 'invalid token', { 'x-should-retry': 'false' });
    }
    if (m === 'GET' && p === '/v1/models') return models(ctx, claims, res);
    if (m === 'POST' && p === '/v1/messages') return messages(ctx, req, claims, res);
    if (m === 'GET' && p === '/managed/settings') return managed(ctx, req, claims, res);
    if (m === 'POST' && (p === '/v1/traces' || p === '/v1/metrics' || p === '/v1/logs')) return relay(ctx, req, res, p);
    return apiError(res, 404, 'not_found_error', 'not found');
  }

  private metadata(): Record<string, unknown> {
    const u = this.ctx.publicUrl;
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
}
