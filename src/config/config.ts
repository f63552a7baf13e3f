// Run settings from flags, environment and an optional gwc.yaml (flags win, then the
// environment, then the file). The file's keys are the flags' names.
import { existsSync, readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import YAML from 'yaml';
import { HarnessError } from '../core/errors.js';
import { PROFILES, type ProfileName } from '../core/registry.js';
import { REPORTERS, type ReporterName } from '../reporters/index.js';
import { DEFAULT_BOUNDS } from '../core/oracle.js';

export interface RunConfig {
  target?: string;
  upstreamListen: string;
  profile: ProfileName;
  only: string[];
  skip: string[];
  reporter: ReporterName[];
  out: string;
  token: string;
  seed: number;
  timeoutMs: number;
  strict: boolean;
  concurrency: number;
  runs: number;
  modelRoutes: Record<string, string>;
  sse: { maxLagMs: number; burstWindowMs: number };
  idle: { maxS: number; minS: number };
  /** The service profile's key and models (from the environment); set only with --profile service. */
  service?: ServiceConfig;
}

export interface ServiceConfig {
  key: string;
  models: { messages: string; native: string; chat: string };
}

/** The environment variables of the service profile: one key for the three protocols, a model for each. */
export const SERVICE_ENV = { key: 'GWC_SERVICE_KEY', messages: 'GWC_MESSAGES_MODEL', native: 'GWC_NATIVE_MODEL', chat: 'GWC_CHAT_MODEL' } as const;

/** Reads the service profile's settings; a missing variable is a harness error naming each one missing. */
export function serviceConfig(env: NodeJS.ProcessEnv): ServiceConfig {
  const missing = Object.values(SERVICE_ENV).filter((name) => !env[name]?.trim());
  if (missing.length) throw new HarnessError('BAD_CONFIG', `the service profile needs ${missing.join(', ')} in the environment (the service key, and the model to use on each protocol)`);
  const v = (name: string) => env[name]!.trim();
  return { key: v(SERVICE_ENV.key), models: { messages: v(SERVICE_ENV.messages), native: v(SERVICE_ENV.native), chat: v(SERVICE_ENV.chat) } };
}

export const CONFIG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    target: { type: 'string', pattern: '^https?://' },
    'upstream-listen': { type: 'string' },
    profile: { enum: [...PROFILES] },
    only: { type: 'array', items: { type: 'string' } },
    skip: { type: 'array', items: { type: 'string' } },
    reporter: { type: 'array', items: { enum: REPORTERS } },
    out: { type: 'string' },
    'token-env': { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
    seed: { type: 'integer' },
    'timeout-ms': { type: 'integer', minimum: 100 },
    strict: { type: 'boolean' },
    concurrency: { type: 'integer', minimum: 1, maximum: 64 },
    runs: { type: 'integer', minimum: 1, maximum: 10000 },
    'model-routes': { type: 'object', additionalProperties: { type: 'string' } },
    'sse-max-lag-ms': { type: 'integer', minimum: 1 },
    'sse-burst-window-ms': { type: 'integer', minimum: 1 },
    'idle-max-s': { type: 'integer', minimum: 1 },
    'idle-min-s': { type: 'integer', minimum: 1 },
  },
} as const;

export type FileConfig = Partial<{
  target: string;
  'upstream-listen': string;
  profile: ProfileName;
  only: string[];
  skip: string[];
  reporter: ReporterName[];
  out: string;
  'token-env': string;
  seed: number;
  'timeout-ms': number;
  strict: boolean;
  concurrency: number;
  runs: number;
  'model-routes': Record<string, string>;
  'sse-max-lag-ms': number;
  'sse-burst-window-ms': number;
  'idle-max-s': number;
  'idle-min-s': number;
}>;

const ajv = new Ajv({ allErrors: true });
const validate = ajv.compile<FileConfig>(CONFIG_SCHEMA);

/** Reads and validates gwc.yaml; errors name the file and the key. */
export function loadConfigFile(path: string, required: boolean): FileConfig {
  if (!existsSync(path)) {
    if (required) throw new HarnessError('BAD_CONFIG', `config file ${path} does not exist`);
    return {};
  }
  let data: unknown;
  try {
    data = YAML.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new HarnessError('BAD_CONFIG', `${path}: not valid YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  if (data === null || data === undefined) return {};
  if (!validate(data)) {
    const e = validate.errors![0];
    const key = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
    if (e.keyword === 'additionalProperties') throw new HarnessError('BAD_CONFIG', `${path}: unknown key "${[key, (e.params as { additionalProperty: string }).additionalProperty].filter(Boolean).join('.')}"`);
    throw new HarnessError('BAD_CONFIG', `${path}: key "${key || '(root)'}" ${e.message}${e.keyword === 'enum' ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})` : ''}`);
  }
  return data;
}

export interface FlagValues {
  target?: string;
  upstreamListen?: string;
  profile?: string;
  only?: string[];
  skip?: string[];
  reporter?: string[];
  out?: string;
  token?: string;
  seed?: string;
  timeoutMs?: string;
  strict?: boolean;
  concurrency?: string;
  runs?: string;
  sseMaxLagMs?: string;
  idleMaxS?: string;
  idleMinS?: string;
}

function int(v: string | undefined, flag: string, min: number): number | undefined {
  if (v === undefined) return undefined;
  if (!/^-?\d+$/.test(v) || Number(v) < min) throw new HarnessError('BAD_FLAG', `${flag}: expected a whole number >= ${min}, got "${v}"`);
  return Number(v);
}

export function resolveConfig(flags: FlagValues, file: FileConfig, env: NodeJS.ProcessEnv): RunConfig {
  const profile = flags.profile ?? file.profile ?? 'default';
  if (!(PROFILES as readonly string[]).includes(profile)) throw new HarnessError('BAD_FLAG', `--profile: unknown profile "${profile}" (${PROFILES.join(', ')})`);
  const reporter = flags.reporter?.length ? flags.reporter : (file.reporter ?? ['console', 'junit', 'json', 'html']);
  for (const r of reporter) if (!(REPORTERS as string[]).includes(r)) throw new HarnessError('BAD_FLAG', `--reporter: unknown reporter "${r}" (${REPORTERS.join(', ')})`);
  const tokenFromFileEnv = file['token-env'] ? env[file['token-env']] : undefined;
  if (flags.target !== undefined && !/^https?:\/\/[^/]/.test(flags.target)) throw new HarnessError('BAD_FLAG', `--target: expected an http:// or https:// URL, got "${flags.target}"`);
  // The service profile sends the service key, on every protocol (spec 5 rule 1).
  const service = profile === 'service' ? serviceConfig(env) : undefined;
  return {
    target: flags.target ?? file.target,
    upstreamListen: flags.upstreamListen ?? file['upstream-listen'] ?? '127.0.0.1:18080',
    profile: profile as ProfileName,
    only: flags.only?.length ? flags.only : (file.only ?? []),
    skip: [...(file.skip ?? []), ...(flags.skip ?? [])],
    reporter: reporter as ReporterName[],
    out: flags.out ?? file.out ?? 'reports',
    token: service?.key ?? flags.token ?? env.GWC_TOKEN ?? tokenFromFileEnv ?? 'gwc-test-token',
    seed: int(flags.seed, '--seed', -(2 ** 31)) ?? file.seed ?? Math.floor(Math.random() * 2 ** 31),
    timeoutMs: int(flags.timeoutMs, '--timeout-ms', 100) ?? file['timeout-ms'] ?? 20_000,
    strict: flags.strict ?? file.strict ?? false,
    concurrency: int(flags.concurrency, '--concurrency', 1) ?? file.concurrency ?? 4,
    runs: int(flags.runs, '--runs', 1) ?? file.runs ?? 40,
    modelRoutes: file['model-routes'] ?? {},
    sse: {
      maxLagMs: int(flags.sseMaxLagMs, '--sse-max-lag-ms', 1) ?? file['sse-max-lag-ms'] ?? DEFAULT_BOUNDS.maxLagMs,
      burstWindowMs: file['sse-burst-window-ms'] ?? DEFAULT_BOUNDS.burstWindowMs,
    },
    idle: {
      maxS: int(flags.idleMaxS, '--idle-max-s', 1) ?? file['idle-max-s'] ?? 120,
      minS: int(flags.idleMinS, '--idle-min-s', 1) ?? file['idle-min-s'] ?? 65,
    },
    service,
  };
}
