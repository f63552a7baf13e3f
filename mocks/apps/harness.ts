// The apps profile's surroundings, on loopback: the mock IdP (test users in chosen groups),
// the telemetry collector, one recording upstream per configured upstream name, and the
// gateway configuration (public dialect) that points a gateway at them. Secrets are `${VAR}`
// references; their values are in `env`, for the gateway's environment only.
import { randomBytes } from 'node:crypto';
import { stringify } from 'yaml';
import { MockIdp, type TestUser } from '../oidc/idp.js';
import { OtlpCollector } from '../otlp/collector.js';
import { AppsRecordingUpstream } from './upstream.js';

/** alice (eng), bob (contractors), carol (no allowed group), dave (eng; the spend checks), olga (ops; no managed policy). */
export function appsUsers(domain = 'example.test'): TestUser[] {
  const u = (name: string, groups: string[]) => ({ name, sub: `user-${name}`, email: `${name}@${domain}`, groups });
  return [u('alice', ['eng']), u('bob', ['contractors']), u('carol', []), u('dave', ['eng']), u('olga', ['ops']), u('erin', ['eng'])];
}

/** Upstreams: eng-up serves the eng group, haiku-up serves claude-haiku-4-5, default-up the rest. */
export const APPS_UPSTREAMS = [
  { name: 'eng-up', groups: ['eng'] },
  { name: 'haiku-up', models: ['claude-haiku-4-5'] },
  { name: 'default-up' },
] as const;

export class AppsSurroundings {
  readonly idp: MockIdp;
  readonly collector = new OtlpCollector();
  readonly upstreams = new Map<string, AppsRecordingUpstream>(APPS_UPSTREAMS.map((u) => [u.name, new AppsRecordingUpstream(u.name)]));
  readonly clientSecret = randomBytes(18).toString('base64url');
  readonly jwtSecret = randomBytes(33).toString('base64url');
  readonly adminKey = randomBytes(33).toString('base64url');
  readonly upstreamKey = randomBytes(18).toString('base64url');

  constructor() {
    this.idp = new MockIdp({ users: appsUsers(), clients: { 'gwc-gateway': this.clientSecret } });
  }

  async start(): Promise<void> {
    await this.idp.start();
    await this.collector.start();
    for (const u of this.upstreams.values()) await u.start();
  }

  async stop(): Promise<void> {
    for (const u of this.upstreams.values()) await u.stop();
    await this.collector.stop();
    await this.idp.stop();
  }

  /** The environment the configuration's `${VAR}` references need. */
  get env(): Record<string, string> {
    return { GW_OIDC_SECRET: this.clientSecret, GW_JWT_SECRET: this.jwtSecret, GW_ADMIN_WRITE: this.adminKey, GW_UPSTREAM_KEY: this.upstreamKey };
  }

  /** The gateway configuration in the public dialect (`listen` on `port`; PGlite unless `postgresUrl`). */
  config(opts: { port: number; postgresUrl?: string }): string {
    const doc = {
      listen: { host: '127.0.0.1', port: opts.port, public_url: `http://127.0.0.1:${opts.port}` },
      oidc: { issuer: this.idp.issuer, client_id: 'gwc-gateway', client_secret: '${GW_OIDC_SECRET}', allowed_groups: ['eng', 'contractors', 'ops'] },
      session: { jwt_secret: '${GW_JWT_SECRET}', ttl_hours: 1 },
      ...(opts.postgresUrl ? { store: { postgres_url: opts.postgresUrl } } : {}),
      upstreams: APPS_UPSTREAMS.map((u) => ({ name: u.name, provider: 'anthropic', base_url: this.upstreams.get(u.name)!.url, auth: { api_key: '${GW_UPSTREAM_KEY}' }, ...('groups' in u ? { groups: [...u.groups] } : {}), ...('models' in u ? { models: [...u.models] } : {}) })),
      // The profile signs a dozen users in from one address within a minute; the public dialect's
      // defaults (device_verify: 10 per 600 s per address) would stop the eleventh.
      rate_limits: { device_authorization: { max: 1000, window_seconds: 600 }, device_verify: { max: 1000, window_seconds: 600 } },
      admin: { write_keys: [{ id: 'gwc-writer', key: '${GW_ADMIN_WRITE}' }] },
      telemetry: { forward_to: [{ url: this.collector.url, traces: true, logs: true, metrics: true }] },
      managed: {
        policies: [
          { match: { groups: ['eng'] }, settings: { availableModels: ['claude-sonnet-4-6', 'claude-haiku-4-5'], permissions: { deny: ['Bash(rm:*)'] } } },
          { match: { groups: ['contractors'] }, settings: {} },
        ],
      },
    };
    return stringify(doc);
  }
}
