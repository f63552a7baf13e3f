// The apps profile's surroundings, on loopback: the mock IdP (test users in chosen groups),
// the telemetry collector, one recording upstream per configured upstream name, and the
// gateway configuration (public dialect) that points a gateway at them. Secrets are `${VAR}`
// references; their values are in `env`, for the gateway's environment only. The eng policy's
// managed settings name a second OTLP endpoint of the collector, one that takes exports only with
// a token (`/direct`), and the headers that carry it (APP-TEL-5).
//
// Two ways to place them: on free ports (demo, --gateway-cmd: the harness writes the
// configuration after they started), or on fixed ports chosen before (apps-config writes the
// configuration and its secrets first; `run --profile apps --apps-config` reads both back and
// starts the servers where the configuration says they are). Runs that go on at once may share
// one IdP and one collector (`SharedServers`, the apps detection matrix): each run's
// surroundings then take a realm of the IdP (its own issuer path, users, client secret, keys and
// script) and a tenant of the collector (its own address, records, mode and token).
import { randomBytes } from 'node:crypto';
import { parse, stringify } from 'yaml';
import { HarnessError } from '../../src/core/errors.js';
import { MockIdp, SharedIdp, type IdpRealm } from '../oidc/idp.js';
import type { TestUser } from '../oidc/users.js';
import { OtlpCollector, SharedCollector } from '../otlp/collector.js';
import { AppsRecordingUpstream } from './upstream.js';

/**
 * alice (eng), bob (contractors), carol (no allowed group), dave (eng; the spend checks, JSON),
 * frank (eng; the spend checks, streamed), gina (eng; the accounting of a cut stream), olga (ops;
 * no managed policy), erin (eng; sign-in, key roll, deprovisioning).
 */
export function appsUsers(domain = 'example.test'): TestUser[] {
  const u = (name: string, groups: string[]) => ({ name, sub: `user-${name}`, email: `${name}@${domain}`, groups });
  return [u('alice', ['eng']), u('bob', ['contractors']), u('carol', []), u('dave', ['eng']), u('olga', ['ops']), u('erin', ['eng']), u('frank', ['eng']), u('gina', ['eng'])];
}

/** Upstreams: eng-up serves the eng group, haiku-up serves claude-haiku-4-5, default-up the rest. */
export const APPS_UPSTREAMS = [
  { name: 'eng-up', groups: ['eng'] },
  { name: 'haiku-up', models: ['claude-haiku-4-5'] },
  { name: 'default-up' },
] as const;

/** The OIDC client the configuration names (the mock IdP knows it under the client secret). */
export const APPS_CLIENT_ID = 'gwc-gateway';

/** Where apps-config puts the servers by default: IdP at the base, collector base+1, upstreams base+2 on. */
export const DEFAULT_PORTS_BASE = 47001;
export const DEFAULT_GATEWAY_PORT = 48080;

/** Fixed loopback ports of the surroundings (0: any free port). */
export interface AppsPorts {
  idp: number;
  collector: number;
  upstreams: Record<string, number>;
}

export function portsFromBase(base: number): AppsPorts {
  return { idp: base, collector: base + 1, upstreams: Object.fromEntries(APPS_UPSTREAMS.map((u, i) => [u.name, base + 2 + i])) };
}

/** The gateway's secrets, as the environment variables the configuration references. */
export const SECRET_ENV = { clientSecret: 'GW_OIDC_SECRET', jwtSecret: 'GW_JWT_SECRET', adminKey: 'GW_ADMIN_WRITE', upstreamKey: 'GW_UPSTREAM_KEY', otlpToken: 'GW_OTLP_TOKEN' } as const;
export type AppsSecrets = Record<keyof typeof SECRET_ENV, string>;
/** Loopback IdP, upstream and collector URLs are refused by the real gateway without it. */
export const LOOPBACK_ENV = { CLAUDE_GATEWAY_ALLOW_LOOPBACK: '1' } as const;

/** The collector's path prefix that takes exports only with the OTLP token: the endpoint the eng policy hands clients. */
export const DIRECT_OTLP_PREFIX = '/direct';

/** The gateway's `listen.public_url` in the configuration the harness writes: where user devices reach it. */
export const publicUrlOf = (port: number) => `http://127.0.0.1:${port}`;

export function newSecrets(): AppsSecrets {
  return { clientSecret: randomBytes(18).toString('base64url'), jwtSecret: randomBytes(33).toString('base64url'), adminKey: randomBytes(33).toString('base64url'), upstreamKey: randomBytes(18).toString('base64url'), otlpToken: randomBytes(18).toString('base64url') };
}

/** One IdP and one collector for runs that go on at once; each run's surroundings take their own realm and tenant of them. */
export class SharedServers {
  readonly idp = new SharedIdp();
  readonly collector = new SharedCollector();

  async start(): Promise<void> {
    await this.idp.start();
  }

  async stop(): Promise<void> {
    await this.idp.stop();
  }
}

export class AppsSurroundings {
  readonly idp: IdpRealm;
  readonly collector: OtlpCollector;
  readonly upstreams = new Map<string, AppsRecordingUpstream>(APPS_UPSTREAMS.map((u) => [u.name, new AppsRecordingUpstream(u.name)]));
  readonly clientSecret: string;
  readonly jwtSecret: string;
  readonly adminKey: string;
  readonly upstreamKey: string;
  readonly otlpToken: string;
  private readonly ports: AppsPorts;
  private readonly startIdp: () => Promise<unknown>;

  /** With `shared`, a realm of its IdP and a tenant of its collector (on free addresses: no `ports`). */
  constructor(opts: { secrets?: AppsSecrets; ports?: AppsPorts; shared?: SharedServers } = {}) {
    if (opts.shared && opts.ports) throw new Error('apps surroundings: shared servers have their own addresses; no fixed ports with them');
    const s = opts.secrets ?? newSecrets();
    this.clientSecret = s.clientSecret;
    this.jwtSecret = s.jwtSecret;
    this.adminKey = s.adminKey;
    this.upstreamKey = s.upstreamKey;
    this.otlpToken = s.otlpToken;
    const credential = { prefix: DIRECT_OTLP_PREFIX, token: s.otlpToken };
    this.collector = opts.shared ? opts.shared.collector.tenant(credential) : new OtlpCollector(credential);
    this.ports = opts.ports ?? { idp: 0, collector: 0, upstreams: {} };
    const idpOpts = { users: appsUsers(), clients: { [APPS_CLIENT_ID]: this.clientSecret } };
    if (opts.shared) {
      const realm = opts.shared.idp.realm(idpOpts);
      this.idp = realm;
      this.startIdp = () => realm.start();
    } else {
      const idp = new MockIdp(idpOpts);
      this.idp = idp;
      this.startIdp = () => idp.start('127.0.0.1', this.ports.idp);
    }
  }

  /** Starts every server on its port; a taken port stops the ones started and is a one-line harness error naming it. */
  async start(): Promise<void> {
    try {
      await this.startIdp();
      await this.collector.start('127.0.0.1', this.ports.collector);
      for (const u of this.upstreams.values()) await u.start('127.0.0.1', this.ports.upstreams[u.name] ?? 0);
    } catch (e) {
      await this.stop();
      throw e;
    }
  }

  async stop(): Promise<void> {
    for (const u of this.upstreams.values()) await u.stop();
    await this.collector.stop();
    await this.idp.stop();
  }

  /** The environment the configuration's `${VAR}` references need. */
  get env(): Record<string, string> {
    return { [SECRET_ENV.clientSecret]: this.clientSecret, [SECRET_ENV.jwtSecret]: this.jwtSecret, [SECRET_ENV.adminKey]: this.adminKey, [SECRET_ENV.upstreamKey]: this.upstreamKey, [SECRET_ENV.otlpToken]: this.otlpToken };
  }

  /** Every value no report may carry. */
  get secrets(): string[] {
    return [this.jwtSecret, this.adminKey, this.clientSecret, this.upstreamKey, this.otlpToken];
  }

  /** A server's URL: where it listens once started, else where it will (its fixed port). */
  private at(url: string, port: number | undefined): string {
    return url || `http://127.0.0.1:${port ?? 0}`;
  }

  /** What the harness needs to know of the surroundings, for people: issuer, upstream URLs, telemetry endpoint, users. */
  describe(): string[] {
    return [
      `IdP issuer: ${this.at(this.idp.issuer, this.ports.idp)} (client ${APPS_CLIENT_ID})`,
      `telemetry collector (OTLP/HTTP): ${this.at(this.collector.url, this.ports.collector)}`,
      ...APPS_UPSTREAMS.map((u) => `upstream ${u.name}: ${this.at(this.upstreams.get(u.name)!.url, this.ports.upstreams[u.name])}${'groups' in u ? ` (groups ${u.groups.join(', ')})` : ''}${'models' in u ? ` (models ${u.models.join(', ')})` : ''}`),
      `test users: ${appsUsers().map((u) => `${u.name} (${u.groups.join(', ') || 'no group'})`).join(', ')}; allowed groups eng, contractors, ops`,
    ];
  }

  /** The gateway configuration in the public dialect (`listen` on `port`; PGlite unless `postgresUrl`). */
  config(opts: { port: number; postgresUrl?: string }): string {
    const doc = {
      listen: { host: '127.0.0.1', port: opts.port, public_url: publicUrlOf(opts.port) },
      oidc: { issuer: this.at(this.idp.issuer, this.ports.idp), client_id: APPS_CLIENT_ID, client_secret: `\${${SECRET_ENV.clientSecret}}`, allowed_groups: ['eng', 'contractors', 'ops'] },
      session: { jwt_secret: `\${${SECRET_ENV.jwtSecret}}`, ttl_hours: 1 },
      ...(opts.postgresUrl ? { store: { postgres_url: opts.postgresUrl } } : {}),
      upstreams: APPS_UPSTREAMS.map((u) => ({ name: u.name, provider: 'anthropic', base_url: this.at(this.upstreams.get(u.name)!.url, this.ports.upstreams[u.name]), auth: { api_key: `\${${SECRET_ENV.upstreamKey}}` }, ...('groups' in u ? { groups: [...u.groups] } : {}), ...('models' in u ? { models: [...u.models] } : {}) })),
      // The profile signs a dozen users in from one address within a minute; the public dialect's
      // defaults (device_verify: 10 per 600 s per address) would stop the eleventh.
      rate_limits: { device_authorization: { max: 1000, window_seconds: 600 }, device_verify: { max: 1000, window_seconds: 600 } },
      admin: { write_keys: [{ id: 'gwc-writer', key: `\${${SECRET_ENV.adminKey}}` }] },
      telemetry: { forward_to: [{ url: this.at(this.collector.url, this.ports.collector), traces: true, logs: true, metrics: true }] },
      managed: {
        policies: [
          { match: { groups: ['eng'] }, settings: { availableModels: ['claude-sonnet-4-6', 'claude-haiku-4-5'], permissions: { deny: ['Bash(rm:*)'] }, env: this.directOtlpEnv() } },
          { match: { groups: ['contractors'] }, settings: {} },
        ],
      },
    };
    return stringify(doc);
  }

  /** The eng policy's telemetry settings: the collector's endpoint that needs a token, and the header that sends it. */
  private directOtlpEnv(): Record<string, string> {
    return {
      OTEL_EXPORTER_OTLP_ENDPOINT: `${this.at(this.collector.url, this.ports.collector)}${DIRECT_OTLP_PREFIX}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer \${${SECRET_ENV.otlpToken}}`,
    };
  }
}

/** The secrets sidecar (`gateway.env`): KEY=VALUE lines of the gateway's environment. */
export function envFileText(s: AppsSurroundings): string {
  return `${Object.entries({ ...s.env, ...LOOPBACK_ENV }).map(([k, v]) => `${k}=${v}`).join('\n')}\n`;
}

/** Parses KEY=VALUE lines (blank lines and # comments ignored); the secrets the harness needs must be there. */
export function parseEnvFile(text: string, file: string): { secrets: AppsSecrets; env: Record<string, string> } {
  const env: Record<string, string> = {};
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (!m) throw new HarnessError('BAD_CONFIG', `${file}:${i + 1}: expected KEY=VALUE`);
    env[m[1]] = m[2].replace(/^(['"])(.*)\1$/, '$2');
  }
  const missing = Object.values(SECRET_ENV).filter((k) => !env[k]);
  if (missing.length) throw new HarnessError('BAD_CONFIG', `${file}: missing ${missing.join(', ')} (apps-config writes them)`);
  return { secrets: { clientSecret: env[SECRET_ENV.clientSecret], jwtSecret: env[SECRET_ENV.jwtSecret], adminKey: env[SECRET_ENV.adminKey], upstreamKey: env[SECRET_ENV.upstreamKey], otlpToken: env[SECRET_ENV.otlpToken] }, env };
}

/**
 * The addresses a configuration written by apps-config records: the gateway's public URL, and the
 * loopback ports of the IdP, the collector and each upstream (by name). Anything else is a
 * one-line harness error naming the key.
 */
export function addressesOf(text: string, file: string): { publicUrl: string; ports: AppsPorts } {
  const bad = (m: string) => new HarnessError('BAD_CONFIG', `${file}: ${m} (write it with \`gw-conformance apps-config --out ${file}\`)`);
  let doc: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  try {
    doc = parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  } catch (e) {
    throw bad(`not valid YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  const port = (v: unknown, key: string): number => {
    let u: URL;
    try {
      u = new URL(String(v));
    } catch {
      throw bad(`${key} is not a URL`);
    }
    if (u.hostname !== '127.0.0.1' || !u.port) throw bad(`${key} must be http://127.0.0.1:PORT (the harness serves it on loopback), got "${String(v)}"`);
    return Number(u.port);
  };
  if (!doc || typeof doc !== 'object') throw bad('not a mapping');
  const lp = doc.listen?.port;
  const publicUrl = String(doc.listen?.public_url ?? (lp ? `http://127.0.0.1:${lp}` : ''));
  if (!publicUrl) throw bad('no listen.public_url or listen.port');
  const ups = Array.isArray(doc.upstreams) ? (doc.upstreams as { name?: string; base_url?: string }[]) : [];
  const names = ups.map((u) => u.name);
  const want = APPS_UPSTREAMS.map((u) => u.name);
  if (names.join(',') !== want.join(',')) throw bad(`upstreams must be ${want.join(', ')} (the harness records each), got ${names.join(', ') || 'none'}`);
  const collector = doc.telemetry?.forward_to?.[0]?.url;
  if (!collector) throw bad('no telemetry.forward_to[0].url (the collector)');
  return {
    publicUrl: publicUrl.replace(/\/$/, ''),
    ports: {
      idp: port(doc.oidc?.issuer, 'oidc.issuer'),
      collector: port(collector, 'telemetry.forward_to[0].url'),
      upstreams: Object.fromEntries(ups.map((u, i) => [u.name!, port(u.base_url, `upstreams[${i}].base_url`)])),
    },
  };
}
