// Run settings from flags, environment and an optional gwc.yaml (flags win, then the
// environment, then the file). Every option is described once, in src/config/options.ts.
import { HarnessError } from '../core/errors.js';
import { NO_CREDENTIAL, PROTOCOLS, type OptionValues, type ProtocolName } from './options.js';
import { resolveOptions, type FlagValues } from './option-values.js';
import { expandTargeting, resolveTargeting, type Targeting } from './targeting.js';
import type { TransportSettings } from '../client/transport.js';
import { parseDeclaredLimit } from '../core/limits.js';
import { PROFILE_FACTS, type Protocol } from '../core/features.js';
import { DEFAULT_MODEL, RECORDS, socketRoutesOf } from '../protocols/index.js';
import type { SocketRouteName } from '../core/protocols.js';
import type { LoadSettings } from '../check/check.js';

export type ExpandedTargeting = ReturnType<typeof expandTargeting>;

/** `cfg` with its header values expanded against this environment and upstream URL. */
export function withExpandedTargeting(cfg: RunConfig, upstreamUrl: string | null, env: NodeJS.ProcessEnv): RunConfig {
  return { ...cfg, expanded: expandTargeting(cfg.targeting, upstreamUrl, env) };
}

type V = OptionValues;

/**
 * The settings of one run. The flat fields are the option rows' values under their camel-case
 * names, typed by the rows (src/config/options.ts); the grouped ones gather related rows.
 */
export interface RunConfig {
  target: V['target'];
  upstreamListen: V['upstream-listen'];
  /** --attach: the URL of a running `gw-conformance mock` a load run attaches to ('' when none). */
  attach: V['attach'];
  profile: V['profile'];
  /** The features the gateway declares: checks that need another are skipped as "not declared". */
  protocols: ProtocolName[];
  /** The WebSocket routes the gateway serves (--websockets, of the declared protocols) and the silence a socket must survive. */
  websockets: { served: SocketRouteName[]; idleS: number };
  only: V['only'];
  skip: V['skip'];
  reporter: V['reporter'];
  /** The client profile's real clients (--clients). */
  clients: V['clients'];
  out: V['out'];
  /** The credential sent to the gateway; '' when the user says the gateway takes none (--no-token, `token: none`). */
  token: string;
  seed: number;
  timeoutMs: V['timeout-ms'];
  strict: V['strict'];
  concurrency: V['concurrency'];
  runs: V['runs'];
  modelRoutes: V['model-routes'];
  /** The capability matrix: whether it runs, and the features whose cells are MUST. */
  capabilities: { run: boolean; required: V['require-capability'] };
  sse: { maxLagMs: V['sse-max-lag-ms']; burstWindowMs: V['sse-burst-window-ms']; latP50Ms: V['sse-lat-p50-ms'] };
  idle: { maxS: V['idle-max-s']; minS: V['idle-min-s'] };
  /** How long errors.upstream.timeout waits for the gateway's own time-out. */
  hangWaitMs: V['hang-wait-ms'];
  /** The gateway's declared body limit and retry bound (MSG-SIZE-1, ERR-RETRY-2). */
  bodyLimitBytes: V['body-limit-bytes'];
  retryBound: V['retry-bound'];
  /** The gateway's declared failover chain for a model-not-found 404 (ERR-RETRY-2): further attempts, each with another model. */
  failoverChain: V['failover-chain'];
  /** Where each protocol lives on the gateway, its extra headers and credential style (src/config/targeting.ts). */
  targeting: Targeting;
  /** The targeting's header values expanded (set by the CLI before the run: env and upstream are known there). */
  expanded?: ExpandedTargeting;
  /** Readiness gate: how long to wait for a forwarded canary of each declared protocol. */
  readyTimeoutS: V['ready-timeout-s'];
  /** The gateway the harness starts itself (src/launch/). */
  launch: { cmd?: string; image?: string; env: V['gateway-env']; args: V['gateway-arg'] };
  /** The service profile's key and models (from the environment); set only with --profile service. */
  service?: ServiceConfig;
  /** The YAML file whose `waivers:` list applies (a waivers file, or gwc.yaml itself), or null. */
  waivers: string | null;
  /** Attempts per check (--repeat), and per check that did not pass (--repeat-failures). */
  repeat: V['repeat'];
  repeatFailures: V['repeat-failures'];
  allowFlaky: V['allow-flaky'];
  /** --shard i/n (1-based), and the earlier report that balances the slices. */
  shard: { index: number; count: number } | null;
  shardDurations: string | null;
  junitFormat: V['junit-format'];
  /** --color / --no-color; unset: colour when writing to a terminal (src/reporters/style.ts). */
  color: V['color'];
  /** The apps profile: the configuration apps-config wrote (--target), the store of the one the harness writes (--gateway-cmd). */
  apps: { config: string | null; postgresUrl: string | null; jwksRefetchMs: number };
  /** TLS and HTTP/2 to the gateway (read and checked before the run: src/client/transport.ts). */
  transport: TransportSettings;
  /** The recording upstream over TLS (--upstream-tls), and HTTP/2 beside HTTP/1.1 (--upstream-http2). */
  upstreamTls: { on: boolean; http2: boolean };
  /** The load profile's bounds, declared limit and budget. */
  load: LoadSettings;
  /** --gateway-name, --gateway-version: the product under test, as report.json records it. */
  gateway: { name?: string; version?: string };
}

/** Parses `i/n` (1 <= i <= n <= 1000). */
export function parseShard(text: string): { index: number; count: number } {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || count > 1000 || index < 1 || index > count) throw new HarnessError('BAD_FLAG', `--shard: expected i/n with 1 <= i <= n <= 1000 (e.g. 2/4), got "${text}"`);
  return { index, count };
}

export interface ServiceConfig {
  key: string;
  models: Record<Protocol, string>;
}

/** The variables of the service profile: its key, and the model to use on each protocol. */
export const SERVICE_MODEL_ENV = Object.fromEntries(PROTOCOLS.map((p) => [p, RECORDS[p].service.modelEnv])) as Record<Protocol, string>;
export const SERVICE_ENV = { key: 'GWC_SERVICE_KEY', ...SERVICE_MODEL_ENV } as const;

/** Protocols the service profile has no checks of yet: their model variable may be left unset (the protocol's default model then). */
const SERVICE_MODEL_OPTIONAL: ReadonlySet<string> = new Set(PROTOCOLS.filter((p) => RECORDS[p].service.optional).map((p) => SERVICE_MODEL_ENV[p]));

/** Reads the service profile's settings; a missing variable is a harness error naming each one missing. */
export function serviceConfig(env: NodeJS.ProcessEnv): ServiceConfig {
  const missing = Object.values(SERVICE_ENV).filter((name) => !env[name]?.trim() && !SERVICE_MODEL_OPTIONAL.has(name));
  if (missing.length) throw new HarnessError('BAD_CONFIG', `the service profile needs ${missing.join(', ')} in the environment (the service key, and the model to use on each protocol)`);
  const v = (name: string) => env[name]!.trim();
  const model = (p: Protocol) => env[SERVICE_MODEL_ENV[p]]?.trim() || DEFAULT_MODEL[p];
  return { key: sendable(v(SERVICE_ENV.key), SERVICE_ENV.key, 'BAD_CONFIG'), models: Object.fromEntries(PROTOCOLS.map((p) => [p, model(p)])) as Record<Protocol, string> };
}

export { CONFIG_SCHEMA, loadConfigFile, type FileConfig } from './config-file.js';
import type { FileConfig } from './config-file.js';

export type { FlagValues };

const DUMMY_TOKEN = 'gwc-test-token';
const SAY_NONE = 'or, if the gateway takes no credential, --no-token (`token: none` in gwc.yaml)';

/**
 * The credential: the flag's, GWC_TOKEN's, or that of the variable gwc.yaml's `token-env` names;
 * a dummy when none is named. An empty one is an error (an unset variable would otherwise send an
 * empty credential and fail the credential checks falsely); `none` says the gateway takes none ('').
 */
function credentialOf(given: string | undefined, from: string, tokenEnv: string | undefined, env: NodeJS.ProcessEnv): string {
  if (given === NO_CREDENTIAL) return '';
  if (given === '') throw new HarnessError('BAD_FLAG', `--token is empty (an unset variable?): give the gateway's credential, ${SAY_NONE}`);
  if (given !== undefined) return sendable(given, from, 'BAD_FLAG');
  if (env.GWC_TOKEN === '') throw new HarnessError('BAD_FLAG', `GWC_TOKEN is set but empty: give the gateway's credential, ${SAY_NONE}`);
  if (!tokenEnv) return DUMMY_TOKEN;
  const v = env[tokenEnv];
  if (!v) throw new HarnessError('BAD_CONFIG', `token-env: the variable ${tokenEnv} is ${v === '' ? 'empty' : 'not set'}: set it to the gateway's credential, ${SAY_NONE}`);
  return sendable(v, `token-env: the variable ${tokenEnv}`, 'BAD_CONFIG');
}

/**
 * The credential as given, when a request header can carry it: one line of text that is not only
 * spaces. A line break (a token read from a file with its newline) would make every request fail
 * in the client, and the readiness gate would blame the gateway's upstream; it is refused here,
 * before anything starts, without repeating the secret.
 */
function sendable(v: string, label: string, code: 'BAD_FLAG' | 'BAD_CONFIG'): string {
  if (/[\r\n]/.test(v)) throw new HarnessError(code, `${label} holds a line break (read from a file with its newline?): a request header carries one line; give the credential without it`);
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(v)) throw new HarnessError(code, `${label} holds a control character, which a request header cannot carry; give the credential as printable text`);
  if (!v.trim()) throw new HarnessError(code, `${label} is only spaces: give the gateway's credential, ${SAY_NONE}`);
  return v;
}

/** A value that stands for one path segment (Vertex's project or region): no `/`, `?`, `#`, `:`, `%` or space. */
function pathValue(v: string, label: string): string {
  if (!/^[A-Za-z0-9._~-]+$/.test(v)) throw new HarnessError('BAD_FLAG', `--${label}: expected one path segment (letters, digits, "-", "_", "." or "~"), got "${v}"`);
  return v;
}

/** `configPath`: the gwc.yaml the file values came from (its `waivers:` list is read from there). */
export function resolveConfig(flags: FlagValues, file: FileConfig, env: NodeJS.ProcessEnv, configPath?: string): RunConfig {
  const v = resolveOptions(flags, file, env);
  const w = v.waivers;
  if (Array.isArray(w) && !configPath) throw new HarnessError('BAD_CONFIG', 'waivers: a list of waivers needs the file it was read from');
  const waivers = w === undefined ? null : Array.isArray(w) ? configPath! : w;
  const profile = v.profile;
  const tokenEnv = v['token-env'];
  // The service profile sends the service key, on every protocol: it is the credential the service knows.
  const service = PROFILE_FACTS[profile].serviceKey ? serviceConfig(env) : undefined;
  const { declared, targeting } = resolveTargeting(file.protocols, Array.isArray(v.protocols) ? v.protocols : undefined, v['base-path'], v.header);
  targeting.vertex.placeholders = { project: pathValue(v['vertex-project'], 'vertex-project'), region: pathValue(v['vertex-region'], 'vertex-region') };
  // The start barrier is at the mock the shards attach to, for the shard count they declare.
  if ((v['start-together'] ?? 0) > 0 && (!v['attach'] || v.shard === undefined || profile !== 'load')) throw new HarnessError('BAD_FLAG', '--start-together needs --profile load, --attach <mock URL> and --shard i/n (the shards wait for each other at the mock they attach to)');
  return {
    target: v.target,
    upstreamListen: v['upstream-listen'],
    attach: v['attach'],
    profile,
    protocols: PROTOCOLS.filter((p) => declared.includes(p)),
    websockets: { served: socketRoutesOf(PROTOCOLS.filter((p) => declared.includes(p))).filter((r) => v.websockets.includes(r)), idleS: v['websocket-idle-s'] },
    targeting,
    readyTimeoutS: v['ready-timeout-s'],
    launch: { cmd: v['gateway-cmd'] || undefined, image: v['gateway-image'] || undefined, env: v['gateway-env'], args: v['gateway-arg'] },
    only: v.only,
    skip: v.skip,
    reporter: [...new Set(v.reporter)],
    clients: [...new Set(v.clients)],
    out: v.out,
    token: service?.key ?? credentialOf(v.token, flags.token === undefined ? 'GWC_TOKEN' : '--token', tokenEnv, env),
    seed: v.seed ?? Math.floor(Math.random() * 2 ** 31),
    timeoutMs: v['timeout-ms'],
    strict: v.strict,
    concurrency: v.concurrency,
    runs: v.runs,
    modelRoutes: v['model-routes'],
    capabilities: { run: v.capabilities || v['require-capability'].length > 0, required: v['require-capability'] },
    sse: { maxLagMs: v['sse-max-lag-ms'], burstWindowMs: v['sse-burst-window-ms'], latP50Ms: v['sse-lat-p50-ms'] },
    idle: { maxS: v['idle-max-s'], minS: v['idle-min-s'] },
    hangWaitMs: v['hang-wait-ms'],
    bodyLimitBytes: v['body-limit-bytes'],
    retryBound: v['retry-bound'],
    failoverChain: v['failover-chain'],
    service,
    waivers,
    repeat: v.repeat,
    repeatFailures: v['repeat-failures'],
    allowFlaky: v['allow-flaky'],
    shard: v.shard === undefined ? null : parseShard(v.shard),
    shardDurations: v['shard-durations'] ?? null,
    junitFormat: v['junit-format'],
    color: v.color,
    apps: { config: v['apps-config'] || null, postgresUrl: v['apps-postgres-url'] || null, jwksRefetchMs: v['jwks-refetch-s'] * 1000 },
    transport: { caFile: v['ca-file'] || undefined, insecure: v.insecure, clientCert: v['client-cert'] || undefined, clientKey: v['client-key'] || undefined, http2: v.http2 },
    upstreamTls: { on: v['upstream-tls'], http2: v['upstream-http2'] },
    load: loadConfig(v, LOAD_PROTOCOLS.filter((p) => declared.includes(p))),
    gateway: gatewayOf(v['gateway-name'], v['gateway-version']),
  };
}

/** The gateway's name and version as given; a version without a name names nothing. */
function gatewayOf(name: string | undefined, version: string | undefined): RunConfig['gateway'] {
  if (version?.trim() && !name?.trim()) throw new HarnessError('BAD_FLAG', '--gateway-version: give --gateway-name too (the version of which gateway?)');
  return { ...(name?.trim() ? { name: name.trim() } : {}), ...(version?.trim() ? { version: version.trim() } : {}) };
}

/**
 * The protocols of the load profile's mixed workload: the first three, whose verdicts under load
 * it was measured on; the Responses API and the cloud formats are not in its mix yet.
 */
const LOAD_PROTOCOLS: readonly Protocol[] = ['messages', 'native', 'chat'];

/** The load profile's settings from its options (the declared limit and the budget parsed here, bad ones exit 2). */
function loadConfig(v: OptionValues, protocols: Protocol[]): LoadSettings {
  const budget = v.budget['added-p99-ms'];
  const extra = Object.keys(v.budget).filter((k) => k !== 'added-p99-ms');
  if (extra.length || (budget !== undefined && !/^\d+$/.test(budget))) throw new HarnessError('BAD_FLAG', `--budget: expected added-p99-ms=N (whole milliseconds), got ${JSON.stringify(v.budget)}`);
  return {
    rate: v['load-rate'],
    durationS: v['load-duration-s'],
    requests: v['load-requests'],
    clients: v['load-clients'],
    protocols,
    declaredLimit: parseDeclaredLimit(v['declared-limit']),
    budgetAddedP99Ms: budget === undefined ? null : Number(budget),
    frontier: v['load-frontier'],
    startTogetherS: v['start-together'] ?? 0,
    firstSend: { at: null },
  };
}
