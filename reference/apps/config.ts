// The configuration of the reference apps gateway: the public dialect (the one the Claude apps
// gateway reads: listen, oidc, session, store, upstreams, admin, telemetry, managed), the subset
// the reference implements. `${VAR}` is expanded from the environment; an unset variable, a
// missing required field or a value of the wrong type is refused with one line.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { HarnessError } from '../../src/core/errors.js';

export interface AppsUpstreamConfig {
  name: string;
  baseUrl: string;
  apiKey: string;
  groups?: string[];
  models?: string[];
}

export interface AppsConfig {
  listen: { host: string; port: number; publicUrl?: string };
  oidc: { issuer: string; clientId: string; clientSecret: string; allowedGroups?: string[]; groupsClaim: string };
  session: { jwtSecret: string; ttlHours: number };
  store: { postgresUrl?: string };
  upstreams: AppsUpstreamConfig[];
  admin?: { writeKeys: string[]; readKeys: string[] };
  telemetry?: { forwardTo: { url: string; traces: boolean; logs: boolean; metrics: boolean }[] };
  managed?: { policies: { groups?: string[]; settings: Record<string, unknown> }[] };
}

const bad = (m: string) => new HarnessError('BAD_CONFIG', `apps gateway configuration: ${m}`);

function expand(v: unknown, env: NodeJS.ProcessEnv): unknown {
  if (typeof v === 'string')
    return v.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
      const x = env[name];
      if (x === undefined) throw bad(`undefined env var in config: ${name}`);
      return x;
    });
  if (Array.isArray(v)) return v.map((x) => expand(x, env));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expand(x, env)]));
  return v;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown, path: string, required = true): Obj | undefined => {
  if (v === undefined && !required) return undefined;
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw bad(`${path}: expected a mapping`);
  return v as Obj;
};
const str = (o: Obj, k: string, path: string, required = true): string | undefined => {
  const v = o[k];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string' || v === '') throw bad(`${path}.${k}: expected a non-empty string`);
  return v;
};
const strs = (o: Obj, k: string, path: string): string[] | undefined => {
  const v = o[k];
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw bad(`${path}.${k}: expected a list of strings`);
  return v as string[];
};
const bool = (o: Obj, k: string, dflt: boolean) => (o[k] === undefined ? dflt : o[k] === true);

export function parseAppsConfig(text: string, env: NodeJS.ProcessEnv): AppsConfig {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (e) {
    throw bad(`not valid YAML (${(e as Error).message.split('\n')[0]})`);
  }
  const root = obj(expand(raw, env), '(root)')!;
  const listen = obj(root.listen, 'listen')!;
  const oidc = obj(root.oidc, 'oidc')!;
  const session = obj(root.session, 'session')!;
  const store = obj(root.store, 'store', false) ?? {};
  if (!Array.isArray(root.upstreams) || root.upstreams.length === 0) throw bad('upstreams: expected a non-empty list');
  const secret = str(session, 'jwt_secret', 'session')!;
  if (secret.length < 32) throw bad('session.jwt_secret: at least 32 characters');
  const ttl = session.ttl_hours === undefined ? 1 : Number(session.ttl_hours);
  if (!(ttl > 0)) throw bad('session.ttl_hours: expected a positive number');
  const upstreams = root.upstreams.map((u, i): AppsUpstreamConfig => {
    const o = obj(u, `upstreams[${i}]`)!;
    const auth = obj(o.auth, `upstreams[${i}].auth`)!;
    return { name: str(o, 'name', `upstreams[${i}]`, false) ?? 'anthropic', baseUrl: str(o, 'base_url', `upstreams[${i}]`)!.replace(/\/+$/, ''), apiKey: str(auth, 'api_key', `upstreams[${i}].auth`)!, groups: strs(o, 'groups', `upstreams[${i}]`), models: strs(o, 'models', `upstreams[${i}]`) };
  });
  const admin = obj(root.admin, 'admin', false);
  const keys = (k: string) => ((admin?.[k] as Obj[] | undefined) ?? []).map((x, i) => str(obj(x, `admin.${k}[${i}]`)!, 'key', `admin.${k}[${i}]`)!);
  const tel = obj(root.telemetry, 'telemetry', false);
  const managed = obj(root.managed, 'managed', false);
  const port = listen.port === undefined ? 8080 : Number(listen.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw bad('listen.port: expected a port number');
  return {
    listen: { host: str(listen, 'host', 'listen', false) ?? '127.0.0.1', port, publicUrl: str(listen, 'public_url', 'listen', false)?.replace(/\/+$/, '') },
    oidc: { issuer: str(oidc, 'issuer', 'oidc')!.replace(/\/+$/, ''), clientId: str(oidc, 'client_id', 'oidc')!, clientSecret: str(oidc, 'client_secret', 'oidc')!, allowedGroups: strs(oidc, 'allowed_groups', 'oidc'), groupsClaim: str(oidc, 'groups_claim', 'oidc', false) ?? 'groups' },
    session: { jwtSecret: secret, ttlHours: ttl },
    store: { postgresUrl: str(store, 'postgres_url', 'store', false) },
    upstreams,
    admin: admin && { writeKeys: keys('write_keys'), readKeys: keys('read_keys') },
    telemetry: tel && {
      forwardTo: ((tel.forward_to as Obj[] | undefined) ?? []).map((f, i) => {
        const o = obj(f, `telemetry.forward_to[${i}]`)!;
        return { url: str(o, 'url', `telemetry.forward_to[${i}]`)!.replace(/\/+$/, ''), traces: bool(o, 'traces', false), logs: bool(o, 'logs', false), metrics: bool(o, 'metrics', true) };
      }),
    },
    managed: managed && {
      policies: ((managed.policies as Obj[] | undefined) ?? []).map((p, i) => {
        const o = obj(p, `managed.policies[${i}]`)!;
        const match = obj(o.match, `managed.policies[${i}].match`, false) ?? {};
        return { groups: strs(match, 'groups', `managed.policies[${i}].match`), settings: obj(o.settings ?? {}, `managed.policies[${i}].settings`)! };
      }),
    },
  };
}

export function loadAppsConfig(file: string, env: NodeJS.ProcessEnv): AppsConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new HarnessError('BAD_CONFIG', `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return parseAppsConfig(text, env);
}
