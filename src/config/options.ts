// The one table of run settings. Each is described once, here: its flag, its gwc.yaml key (the
// flag's name), its environment variable, type, bounds, default, help and the commands that take
// it. From this table come the commander options (cli/shared/context.ts), the JSON Schema of gwc.yaml,
// the typed values (src/config/option-values.ts, src/config/config.ts) and the CLI reference
// (src/config/commands.ts, docs/cli.md and the README's flag table; tests compare them).
import { CLIENT_NAMES, DEFAULT_CLIENTS } from '../real-clients/types.js';
import { DEFAULT_BOUNDS } from '../core/oracle.js';
import { DEFAULT_PROTOCOLS, PROFILES, PROTOCOLS, type Profile, type Protocol } from '../core/features.js';
import { CAPABILITIES } from '../core/capabilities.js';
import { CREDENTIAL_STYLES, SOCKET_ROUTES } from '../core/protocols.js';
import { HTTP2_MODES } from '../client/http2-modes.js';

export { PROFILES, PROTOCOLS };
export type ProfileName = Profile;
export type ProtocolName = Protocol;
import { DEFAULT_REPORTERS, JUNIT_FORMATS, REPORTER_NAMES, type JunitFormat, type ReporterName } from '../reporters/names.js';
export { DEFAULT_REPORTERS, JUNIT_FORMATS, REPORTER_NAMES, type JunitFormat, type ReporterName };

export type OptionKind = 'string' | 'url' | 'int' | 'bool' | 'enum' | 'list' | 'enum-list' | 'map' | 'waivers';

/** Every command of the CLI; each has its folder under cli/ (cli/<command>/command.ts). */
export const COMMAND_NAMES = ['run', 'demo', 'certify', 'verify', 'merge-reports', 'mock', 'reference', 'apps-config', 'list', 'lint-config', 'compare', 'matrix', 'keygen', 'completion'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];
/** The commands a run-settings row belongs to when it names none: those that run the suite from flags, environment and gwc.yaml. */
export const RUN_COMMANDS = ['run', 'demo', 'certify'] as const satisfies readonly CommandName[];

export interface OptionSpec {
  /** The flag's long name and the gwc.yaml key. */
  name: string;
  kind: OptionKind;
  help: string;
  /** The default as the documentation shows it. */
  defaultText: string;
  default?: unknown;
  /** Environment variable that sets it (flags win over it, it wins over the file). */
  env?: string;
  /** Allowed values (enum, enum-list). */
  values?: readonly string[];
  min?: number;
  max?: number;
  /** Argument name in the help (`<url>`). */
  arg?: string;
  /** Where it can be set: a flag only (`--config`), the file only (`token-env`), or both (the default). */
  where?: 'flag' | 'file';
  /** List options: the flag and the file add up (skip) instead of the flag replacing the file (only). */
  accumulate?: boolean;
  /** A value the user must keep out of reports and logs. */
  secret?: boolean;
  /** List options whose values may hold commas: each flag is one item (not split on ','). */
  whole?: boolean;
  /** The commands that take this flag (default: RUN_COMMANDS). */
  commands?: readonly CommandName[];
  /** Flags of one command only (not run settings): commander checks `values` itself. */
  choices?: boolean;
  /** Flags of one command only: the value commander gives when the flag is absent. */
  flagDefault?: string | string[];
  /** Flags of one command only: the command refuses to run without it. */
  required?: boolean;
  /** The help of its `--no-NAME` flag, which sets the value `none`. */
  negate?: string;
  /** The group `--help` shows a run setting under (a command's own flags are under "Options:"). */
  group?: HelpGroup;
}

/** The groups `run --help-all` shows the run settings in, in this order (src/config/help.ts). */
export const HELP_GROUPS = ['Targeting:', 'Credential:', 'Selection:', 'Timing and bounds:', 'Properties:', 'Reports and verdicts:', 'Starting the gateway:', 'Apps profile:', 'Client profile:', 'Capability matrix:', 'Transport:', 'Load profile:'] as const;
export type HelpGroup = (typeof HELP_GROUPS)[number];

/** The value `--no-token` (and `token: none`) gives: the gateway takes no credential. */
export const NO_CREDENTIAL = 'none';

export const OPTIONS = [
  { name: 'target', group: 'Targeting:', commands: ['run', 'certify', 'verify'], kind: 'url', arg: '<url>', help: 'base URL of the gateway under test', defaultText: '(required, unless --gateway-cmd or --gateway-image starts the gateway)', env: 'GWC_TARGET' },
  { name: 'config', group: 'Targeting:', kind: 'string', arg: '<file>', where: 'flag', help: 'YAML config file', defaultText: '`./gwc.yaml` when present' },
  { name: 'upstream-listen', group: 'Targeting:', commands: [...RUN_COMMANDS, 'verify'], kind: 'string', arg: '<host:port>', help: 'address of the recording upstream the gateway forwards to', default: '127.0.0.1:18080', defaultText: '`127.0.0.1:18080`', env: 'GWC_UPSTREAM_LISTEN' },
  { name: 'profile', group: 'Selection:', kind: 'enum', values: PROFILES, arg: '<name>', help: '`default`; `slow` adds the slow checks (the idle probe); `service` runs the hosted-service checks; `apps` runs the apps gateway checks (with `demo`, or `run` against a gateway of your own: see apps-config); `client` runs real clients straight and through the gateway and compares the two runs (docs/client-profile.md); `load` sends concurrent load, bounded (docs/load-profile.md)', default: 'default', defaultText: '`default`', env: 'GWC_PROFILE' },
  { name: 'clients', group: 'Client profile:', commands: ['run', 'demo'], kind: 'enum-list', values: CLIENT_NAMES, arg: '<list>', help: 'with the client profile: the real clients to run, comma-separated (each pinned, installed by you or CI: Claude Code under GWC_CLAUDE_DIR, the SDKs as optional peer dependencies; Codex CLI under GWC_CODEX_DIR and Gemini CLI under GWC_GEMINI_CLI_DIR, not run unless named, like the Bedrock and Vertex modes of Claude Code, openai-responses, anthropic-vertex, and the socket clients openai-realtime (the openai SDK\'s Realtime WebSocket) and genai-live (@google/genai\'s Live WebSocket))', default: [...DEFAULT_CLIENTS], defaultText: 'claude-code, anthropic-sdk, openai, genai', env: 'GWC_CLIENTS' },
  {
    name: 'protocols',
    group: 'Targeting:',
    kind: 'enum-list',
    values: PROTOCOLS,
    arg: '<list>',
    help: 'the protocols the gateway serves, comma-separated (MCP and A2A are not among the defaults: name them, docs/mcp.md); checks of the others are skipped (the A2A checks run and report what they find as info) as "not declared". In gwc.yaml also a map of each protocol\'s targeting (`base-path`, `headers`, `credential`, `upstream-base-path`, or `false`)',
    default: [...DEFAULT_PROTOCOLS],
    defaultText: `\`${DEFAULT_PROTOCOLS.join(',')}\` (mcp and a2a only when named)`,
    env: 'GWC_PROTOCOLS',
  },
  { name: 'websockets', group: 'Targeting:', kind: 'enum-list', values: [...SOCKET_ROUTES, 'none'], arg: '<list>', help: 'the WebSocket routes the gateway serves, comma-separated (`responses`: the Responses API\'s socket, as Codex uses it; `realtime`: OpenAI Realtime; `live`: Gemini Live), or `none`; a route of a protocol not declared is not served. The sockets checks carry these, and judge only the refusal of the others (docs/websockets.md)', default: [...SOCKET_ROUTES], defaultText: `\`${SOCKET_ROUTES.join(',')}\``, env: 'GWC_WEBSOCKETS' },
  { name: 'only', group: 'Selection:', kind: 'list', arg: '<id>', help: 'run only this check, area or requirement id, a prefix of one (`messages.auth`) or a glob (`messages.*`, `*.stream.*`) (repeatable). A check named by its id runs whatever its profile', default: [], defaultText: '', env: 'GWC_ONLY' },
  { name: 'skip', group: 'Selection:', kind: 'list', arg: '<id>', accumulate: true, help: 'skip this check, area or requirement id, a prefix or a glob, as --only takes them (repeatable; adds to the file\'s list)', default: [], defaultText: '', env: 'GWC_SKIP' },
  { name: 'reporter', group: 'Reports and verdicts:', commands: [...RUN_COMMANDS, 'merge-reports'], kind: 'enum-list', values: REPORTER_NAMES, arg: '<name>', help: 'report formats (repeatable); `github` (annotations and a job summary) is added when GITHUB_ACTIONS=true', default: [...DEFAULT_REPORTERS], defaultText: '`console,junit,json,html`', env: 'GWC_REPORTER' },
  { name: 'out', group: 'Reports and verdicts:', kind: 'string', arg: '<dir>', help: 'report folder', default: 'reports', defaultText: '`reports/`', env: 'GWC_OUT' },
  {
    name: 'token',
    group: 'Credential:',
    commands: [...RUN_COMMANDS, 'verify'],
    kind: 'string',
    arg: '<token>',
    secret: true,
    negate: 'the gateway takes no credential: send none and skip the checks of a client credential (`token: none` in gwc.yaml)',
    help: 'credential sent to the gateway (an empty one is an error); the service profile sends GWC_SERVICE_KEY instead. In gwc.yaml only `none` (the credential itself goes in `token-env`)',
    defaultText: 'a dummy token',
    env: 'GWC_TOKEN',
  },
  { name: 'token-env', group: 'Credential:', kind: 'string', where: 'file', help: 'the environment variable that holds the credential (gwc.yaml only, so the file never holds a secret)', defaultText: '' },
  { name: 'seed', group: 'Properties:', kind: 'int', min: -(2 ** 31), max: 2 ** 31 - 1, arg: '<n>', help: 'seed of the property-based checks; printed in every report', defaultText: 'random', env: 'GWC_SEED' },
  { name: 'runs', group: 'Properties:', kind: 'int', min: 1, max: 10_000, arg: '<n>', help: 'generated cases per property', default: 40, defaultText: '40', env: 'GWC_RUNS' },
  { name: 'timeout-ms', group: 'Timing and bounds:', kind: 'int', min: 100, max: 3_600_000, arg: '<ms>', help: 'time limit per check', default: 20_000, defaultText: '20000', env: 'GWC_TIMEOUT_MS' },
  { name: 'concurrency', group: 'Timing and bounds:', kind: 'int', min: 1, max: 64, arg: '<n>', help: 'checks run at once', default: 4, defaultText: '4', env: 'GWC_CONCURRENCY' },
  { name: 'strict', group: 'Reports and verdicts:', kind: 'bool', help: "SHOULD failures fail the run too, and the checks read the interface to the letter where the real client's contract allows more (DISC-1: a JSON 404 from discovery; ERR-PASS-1: a generic message from a cloud upstream; ERR-RETRY-2: a 404 advancing a declared failover chain)", default: false, defaultText: 'off', env: 'GWC_STRICT' },
  { name: 'model-routes', group: 'Targeting:', kind: 'map', arg: '<requested=routed>', help: 'a routing rule the gateway declares (repeatable): a mapped model is then not a substitution', default: {}, defaultText: '' },
  { name: 'capabilities', group: 'Capability matrix:', kind: 'bool', help: 'also build the capability matrix: per declared protocol and model route, which features (tools, images, documents, thinking, caching, JSON mode, web search, 1M context, citations, server tools, tool search) pass through intact, JSON and streamed (INFO)', default: false, defaultText: 'off', env: 'GWC_CAPABILITIES' },
  { name: 'require-capability', group: 'Capability matrix:', kind: 'enum-list', values: CAPABILITIES, arg: '<list>', help: 'features the gateway must carry (comma-separated): builds the capability matrix, whose cells for these features are MUST', default: [], defaultText: '', env: 'GWC_REQUIRE_CAPABILITY' },
  { name: 'sse-max-lag-ms', group: 'Timing and bounds:', kind: 'int', min: 1, max: 60_000, arg: '<ms>', help: 'coarse bound of incremental delivery (SSE-INC-1): a stream event arriving later than this after it was sent fails', default: DEFAULT_BOUNDS.maxLagMs, defaultText: String(DEFAULT_BOUNDS.maxLagMs), env: 'GWC_SSE_MAX_LAG_MS' },
  { name: 'sse-lat-p50-ms', group: 'Timing and bounds:', kind: 'int', min: 1, max: 60_000, arg: '<ms>', help: 'bound on the median added latency per stream event (SSE-LAT-1, a SHOULD)', default: DEFAULT_BOUNDS.latP50Ms, defaultText: String(DEFAULT_BOUNDS.latP50Ms), env: 'GWC_SSE_LAT_P50_MS' },
  { name: 'sse-burst-window-ms', group: 'Timing and bounds:', kind: 'int', min: 1, max: 10_000, arg: '<ms>', help: 'stream events arriving within this window of each other arrived together', default: DEFAULT_BOUNDS.burstWindowMs, defaultText: String(DEFAULT_BOUNDS.burstWindowMs), env: 'GWC_SSE_BURST_WINDOW_MS' },
  { name: 'hang-wait-ms', group: 'Timing and bounds:', kind: 'int', min: 500, max: 3_600_000, arg: '<ms>', help: "how long the hung-upstream probe (errors.upstream.timeout) waits for the gateway's own time-out; a longer one is reported as not observed", default: 8000, defaultText: '8000', env: 'GWC_HANG_WAIT_MS' },
  { name: 'body-limit-bytes', group: 'Timing and bounds:', kind: 'int', min: 1_048_576, max: 32_000_000, arg: '<bytes>', help: "the gateway's declared request body limit (MSG-SIZE-1): a messages body of this size must reach the upstream byte for byte, and one over it must get a JSON 413 request_too_large", default: 32_000_000, defaultText: "32000000 (the provider's limit)", env: 'GWC_BODY_LIMIT_BYTES' },
  { name: 'retry-bound', group: 'Timing and bounds:', kind: 'int', min: 0, max: 10, arg: '<n>', help: 'the most times the gateway declares it retries a 429, 529 or 5xx upstream answer (ERR-RETRY-2): the upstream may see such a request at most 1 + N times', default: 2, defaultText: '2 (what the official SDKs retry)', env: 'GWC_RETRY_BOUND' },
  { name: 'failover-chain', group: 'Timing and bounds:', kind: 'int', min: 0, max: 10, arg: '<n>', help: 'the most further upstream attempts the gateway declares for a model-not-found 404, each with another model of its failover chain (ERR-RETRY-2; not under --strict): the upstream may see such a request at most 1 + N times, never twice with one model', default: 0, defaultText: '0 (no failover chain)', env: 'GWC_FAILOVER_CHAIN' },
  { name: 'websocket-idle-s', group: 'Timing and bounds:', kind: 'int', min: 1, max: 3600, arg: '<s>', help: "the silence a WebSocket must survive through the gateway (sockets.idle.kept); nginx cuts a quiet socket at its proxy_read_timeout, 60 s by default", default: 10, defaultText: '10', env: 'GWC_WEBSOCKET_IDLE_S' },
  { name: 'idle-max-s', group: 'Timing and bounds:', kind: 'int', min: 1, max: 3600, arg: '<s>', help: "the idle probe's longest silence (slow profile)", default: 120, defaultText: '120', env: 'GWC_IDLE_MAX_S' },
  { name: 'base-path', group: 'Targeting:', kind: 'list', whole: true, where: 'flag', arg: '<protocol=/path>', help: 'the path under which the gateway serves a protocol, e.g. messages=/anthropic (repeatable; gwc.yaml: `protocols: { messages: { base-path: ... } }`)', default: [], defaultText: 'the host root' },
  {
    name: 'header',
    group: 'Targeting:',
    kind: 'list',
    whole: true,
    where: 'flag',
    arg: '<[protocol:]name=value>',
    help: 'an extra request header for one protocol, or for every protocol without `protocol:` (repeatable). The value may hold `${VAR}` (an environment variable) and `{upstream}` (the recording upstream\'s URL); reports mask it',
    default: [],
    defaultText: '',
  },
  { name: 'ready-timeout-s', group: 'Timing and bounds:', kind: 'int', min: 1, max: 600, arg: '<s>', help: 'readiness gate: how long to wait for the gateway to forward a canary request of each declared protocol before any check', default: 30, defaultText: '30', env: 'GWC_READY_TIMEOUT_S' },
  { name: 'gateway-cmd', group: 'Starting the gateway:', commands: [...RUN_COMMANDS, 'verify'], kind: 'string', arg: '<command>', help: 'start the gateway with this shell command (placeholders {upstream_url}, {upstream_port}, {listen_port}, {workdir}, and {upstream_ca} when the upstream serves TLS); the target is then optional', defaultText: '', env: 'GWC_GATEWAY_CMD' },
  { name: 'gateway-image', group: 'Starting the gateway:', kind: 'string', arg: '<image>', help: 'start the gateway as a container of this image (host network; the placeholders as environment variables GWC_UPSTREAM_URL, GWC_UPSTREAM_PORT, GWC_LISTEN_PORT, GWC_WORKDIR)', defaultText: '', env: 'GWC_GATEWAY_IMAGE' },
  { name: 'gateway-env', group: 'Starting the gateway:', commands: [...RUN_COMMANDS, 'verify'], kind: 'list', whole: true, arg: '<K=V>', help: 'an environment variable of the started gateway (repeatable; placeholders expand)', default: [], defaultText: '' },
  { name: 'gateway-arg', group: 'Starting the gateway:', kind: 'list', whole: true, arg: '<arg>', help: "an argument of the gateway image's command (repeatable; placeholders expand)", default: [], defaultText: '' },
  { name: 'apps-config', group: 'Apps profile:', kind: 'string', arg: '<file>', help: 'with the apps profile, for a gateway you started: the configuration `apps-config` wrote (its secrets are read from the `.env` file beside it); the harness starts the IdP, collector and upstreams where it says', defaultText: '', env: 'GWC_APPS_CONFIG' },
  { name: 'apps-postgres-url', group: 'Apps profile:', kind: 'string', arg: '<url>', help: 'with the apps profile, when the harness starts the gateway: `store.postgres_url` of the configuration the harness writes to `{workdir}/gateway.yaml` (without it, none: the reference then uses PGlite)', defaultText: '', env: 'GWC_APPS_POSTGRES_URL' },
  { name: 'jwks-refetch-s', group: 'Apps profile:', kind: 'int', min: 0, max: 3600, arg: '<s>', help: "with the apps profile: the longest JWKS refetch throttle a gateway may have after the IdP rolls its signing key (apps.device.key-rotation tries a refused sign-in once more this long after the gateway's last JWKS fetch; a gateway built on openid-client has 60 s)", default: 60, defaultText: '60', env: 'GWC_JWKS_REFETCH_S' },
  { name: 'idle-min-s', group: 'Timing and bounds:', kind: 'int', min: 1, max: 3600, arg: '<s>', help: 'the least idle tolerance that passes (slow profile)', default: 65, defaultText: '65', env: 'GWC_IDLE_MIN_S' },
  // Waivers, repeats (flaky checks), shards and the JUnit dialect: what CI and certification need.
  {
    name: 'waivers',
    group: 'Reports and verdicts:',
    kind: 'waivers',
    arg: '<file>',
    help: 'waivers file (a `waivers:` list of {check or requirement, reason, expires, link}); in gwc.yaml, the list itself or a file name',
    defaultText: 'none',
    env: 'GWC_WAIVERS',
  },
  { name: 'repeat', group: 'Reports and verdicts:', kind: 'int', min: 1, max: 100, arg: '<n>', help: 'run every selected check this many times; a check whose verdicts differ is flaky', default: 1, defaultText: '1', env: 'GWC_REPEAT' },
  { name: 'repeat-failures', group: 'Reports and verdicts:', kind: 'int', min: 1, max: 100, arg: '<n>', help: 'run a check that did not pass again, up to this many attempts in all; differing verdicts make it flaky', default: 1, defaultText: '1', env: 'GWC_REPEAT_FAILURES' },
  { name: 'allow-flaky', group: 'Reports and verdicts:', kind: 'bool', help: 'a flaky check does not fail the run', default: false, defaultText: 'off', env: 'GWC_ALLOW_FLAKY' },
  { name: 'shard', group: 'Selection:', kind: 'string', arg: '<i/n>', help: 'run only slice i of n of the selected checks (stable: by check id hash, or balanced by the durations of an earlier run); with --profile load, be load process i of n: every load check runs, merge-reports adds the shards up', defaultText: 'all checks', env: 'GWC_SHARD' },
  { name: 'shard-durations', group: 'Selection:', kind: 'string', arg: '<report.json>', help: "balance the shards by each check's duration in this earlier JSON report", defaultText: '', env: 'GWC_SHARD_DURATIONS' },
  { name: 'junit-format', group: 'Reports and verdicts:', commands: [...RUN_COMMANDS, 'merge-reports'], kind: 'enum', values: JUNIT_FORMATS, arg: '<name>', help: '`jenkins` (valid against junit-10.xsd; a flaky check is a failure of type "flaky") or `surefire` (adds flakyFailure/rerunFailure elements)', default: 'jenkins', defaultText: '`jenkins`', env: 'GWC_JUNIT_FORMAT' },
  // The console.
  { name: 'color', group: 'Reports and verdicts:', commands: ['run', 'demo'], kind: 'bool', where: 'flag', negate: 'no colour, even in a terminal', help: 'colour the console (`--no-color`: never); without either, colour when writing to a terminal, unless NO_COLOR is set (FORCE_COLOR forces it)', defaultText: 'in a terminal' },
  // Transport: TLS and HTTP/2 to the gateway (src/client/transport.ts), and the recording upstream over TLS.
  { name: 'ca-file', group: 'Transport:', commands: ['run', 'certify'], kind: 'string', arg: '<file>', help: "extra CA certificates (PEM) to trust for an https:// target, besides the system's", defaultText: '', env: 'GWC_CA_FILE' },
  { name: 'insecure', group: 'Transport:', commands: ['run', 'certify'], kind: 'bool', help: "do not verify the https:// target's certificate (a test set-up only: the console and the report say so)", default: false, defaultText: 'off', env: 'GWC_INSECURE' },
  { name: 'client-cert', group: 'Transport:', commands: ['run', 'certify'], kind: 'string', arg: '<file>', help: 'client certificate (PEM) for a gateway that asks for one (mutual TLS), given with its key', defaultText: '', env: 'GWC_CLIENT_CERT' },
  { name: 'client-key', group: 'Transport:', commands: ['run', 'certify'], kind: 'string', arg: '<file>', help: "the client certificate's private key (PEM, not encrypted)", defaultText: '', env: 'GWC_CLIENT_KEY' },
  { name: 'http2', group: 'Transport:', commands: ['run', 'certify'], kind: 'enum', values: HTTP2_MODES, arg: '<mode>', help: '`h2`: HTTP/2 to an https:// target when it offers it (ALPN; HTTP/1.1 otherwise); `h2c`: HTTP/2 with prior knowledge to an http:// target; `off`: HTTP/1.1', default: 'off', defaultText: '`off`', env: 'GWC_HTTP2' },
  { name: 'upstream-tls', group: 'Transport:', commands: ['run', 'certify', 'mock'], kind: 'bool', help: 'the recording upstream serves https with a throw-away CA made at start; the CA file is printed and given to the command that starts the gateway as {upstream_ca}', default: false, defaultText: 'off', env: 'GWC_UPSTREAM_TLS' },
  { name: 'upstream-http2', group: 'Transport:', commands: ['run', 'certify', 'mock'], kind: 'bool', help: 'with the upstream over TLS: it offers HTTP/2 too (ALPN h2, HTTP/1.1 for a gateway that does not offer it)', default: false, defaultText: 'off', env: 'GWC_UPSTREAM_HTTP2' },
  // The load profile: bounded load (hard maxima here), declared limits and a latency budget.
  { name: 'load-duration-s', group: 'Load profile:', kind: 'int', min: 1, max: 300, arg: '<s>', help: 'with the load profile: how long each load phase sends (seconds)', default: 3, defaultText: '3', env: 'GWC_LOAD_DURATION_S' },
  { name: 'load-requests', group: 'Load profile:', kind: 'int', min: 1, max: 200000, arg: '<n>', help: 'with the load profile: the most requests one load phase sends', default: 2000, defaultText: '2000', env: 'GWC_LOAD_REQUESTS' },
  { name: 'load-rate', group: 'Load profile:', kind: 'int', min: 1, max: 50000, arg: '<n>', help: 'with the load profile: the declared arrival rate, requests per second (constant: latency is counted from each request\'s scheduled moment)', default: 200, defaultText: '200', env: 'GWC_LOAD_RATE' },
  { name: 'load-clients', group: 'Load profile:', kind: 'int', min: 1, max: 1000, arg: '<n>', help: 'with the load profile: simulated clients (one connection pool each)', default: 16, defaultText: '16', env: 'GWC_LOAD_CLIENTS' },
  { name: 'load-frontier', group: 'Load profile:', kind: 'bool', help: 'with the load profile: also sweep rising rates (load.perf.frontier): per workload (plain messages, streaming, a large body, a translated route where one is declared) the highest rate at which the added p99 stays under 1, 5, 10 and 50 ms, with the added p50 and p99 at each rate', default: false, defaultText: 'off', env: 'GWC_LOAD_FRONTIER' },
  { name: 'start-together', group: 'Load profile:', commands: ['run'], kind: 'int', min: 0, max: 3600, arg: '<s>', help: 'with --attach and --shard i/n: register with the mock, wait at most this many seconds until all n shards have, then start the checks at one moment (each shard after its calibration); shards of another build or other settings, or a shard twice, are refused there. 0: start at once', default: 0, defaultText: '0 (at once)', env: 'GWC_START_TOGETHER' },
  { name: 'attach', group: 'Load profile:', commands: ['run'], kind: 'url', arg: '<url>', help: 'with the load profile: attach to the running `gw-conformance mock` at this URL (its recording upstream, as this machine reaches it) instead of starting one; each attached run sends its own load, so several processes or machines load one gateway (docs/load-profile.md)', defaultText: 'none', env: 'GWC_ATTACH' },
  { name: 'declared-limit', group: 'Load profile:', commands: [...RUN_COMMANDS, 'reference'], kind: 'map', arg: '<key=n>', help: 'with the load profile: a gateway-level limit per credential that the gateway enforces, `rps=N` (with `window-s=S`, default 1) or `concurrency=N` (repeatable); without it the LIMIT checks are skipped. `reference` enforces the limit itself', default: {}, defaultText: 'none', env: 'GWC_DECLARED_LIMIT' },
  { name: 'budget', group: 'Load profile:', kind: 'map', arg: '<key=n>', help: "with the load profile: `added-p99-ms=N`, the added p99 latency the gateway may cost (load.perf.cost reports a finding over it)", default: {}, defaultText: 'none', env: 'GWC_BUDGET' },
  { name: 'vertex-project', group: 'Targeting:', kind: 'string', arg: '<id>', help: 'the Google Cloud project the vertex protocol\'s paths name (`/v1/projects/{project}/locations/{region}/publishers/anthropic/models/...`): the one the gateway under test accepts', default: 'gwc-project', defaultText: '`gwc-project`', env: 'GWC_VERTEX_PROJECT' },
  { name: 'vertex-region', group: 'Targeting:', kind: 'string', arg: '<region>', help: 'the region the vertex protocol\'s paths name (`locations/{region}`; `global` for the global endpoint)', default: 'us-east5', defaultText: '`us-east5`', env: 'GWC_VERTEX_REGION' },
  { name: 'gateway-name', group: 'Reports and verdicts:', kind: 'string', arg: '<name>', help: 'the gateway product under test, recorded in report.json (`gateway.name`) for `matrix` and other readers of many runs', defaultText: 'none', env: 'GWC_GATEWAY_NAME' },
  { name: 'gateway-version', group: 'Reports and verdicts:', kind: 'string', arg: '<version>', help: 'its version, recorded beside the name (`gateway.version`)', defaultText: 'none', env: 'GWC_GATEWAY_VERSION' },
] as const satisfies readonly (OptionSpec & { group: HelpGroup })[];

/** The same rows, each seen as an OptionSpec (for code that reads any row). */
export const ROWS: readonly OptionSpec[] = OPTIONS;

/** A row of the run-settings table, with its literal types. */
export type RunOption = (typeof OPTIONS)[number];

/** The value an option of this kind resolves to. */
type KindValue<R> = R extends { kind: 'int' }
  ? number
  : R extends { kind: 'bool' }
    ? boolean
    : R extends { kind: 'enum'; values: readonly (infer V)[] }
      ? V
      : R extends { kind: 'enum-list'; values: readonly (infer V)[] }
        ? V[]
        : R extends { kind: 'list' }
          ? string[]
          : R extends { kind: 'map' }
            ? Record<string, string>
            : R extends { kind: 'waivers' }
              ? string | unknown[]
              : string;

type RowValues = { [R in RunOption as R['name']]: R extends { default: unknown } ? KindValue<R> : KindValue<R> | undefined };
/**
 * Every run setting, by its gwc.yaml key, typed from its row: a row without a default may be
 * absent. gwc.yaml's `protocols:` may also be a map of each protocol's targeting (see protocolsSchema).
 */
export type OptionValues = Omit<RowValues, 'protocols'> & { protocols: RowValues['protocols'] | Record<string, unknown> };

export const optionByName = (name: RunOption['name']): OptionSpec => {
  const o = ROWS.find((x) => x.name === name);
  if (!o) throw new Error(`no option ${name}`);
  return o;
};

/** commander's attribute name for a flag: `upstream-listen` -> `upstreamListen`. */
export const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

const inFile = (o: OptionSpec) => o.where !== 'flag';
/** The run settings that are flags (all but the gwc.yaml-only ones). */
export const FLAG_OPTIONS: readonly OptionSpec[] = ROWS.filter((o) => o.where !== 'file');

/** The JSON Schema of gwc.yaml, made from the table. */
export function configSchema(): Record<string, unknown> {
  const prop = (o: OptionSpec): Record<string, unknown> => {
    switch (o.kind) {
      case 'url':
        return { type: 'string', pattern: '^https?://[^/]' };
      case 'string':
        if (o.name === 'token-env') return { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' };
        // The file never holds a secret: it can only say the gateway takes none.
        if (o.secret) return { description: `only \`${NO_CREDENTIAL}\`: the gateway takes no credential (the credential itself: \`token-env\`, the variable that holds it)`, enum: [NO_CREDENTIAL] };
        return { type: 'string' };
      case 'int':
        return { type: 'integer', minimum: o.min, maximum: o.max };
      case 'bool':
        return { type: 'boolean' };
      case 'enum':
        return { enum: [...o.values!] };
      case 'list':
        return { type: 'array', items: { type: 'string' } };
      case 'enum-list':
        if (o.name === 'protocols') return protocolsSchema();
        return { type: 'array', items: { enum: [...o.values!] } };
      case 'map':
        return { type: 'object', additionalProperties: { type: 'string' } };
      case 'waivers':
        // A file name, or the entries themselves: src/report/run/waivers.ts checks them, naming the line.
        return { anyOf: [{ type: 'string' }, { type: 'array' }] };
    }
  };
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'gw-conformance gwc.yaml',
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(ROWS.filter(inFile).map((o) => [o.name, { description: o.help, ...prop(o), ...(o.default === undefined ? {} : { default: o.default }) }])),
  };
}

/** schemas/gwc.schema.json as shipped (written by scripts/cli-reference.mjs; a test compares them). */
export function configSchemaText(): string {
  const { $schema, ...rest } = configSchema();
  const note = { $comment: 'Generated from src/config/options.ts by `npm run docs:cli`; do not edit.' };
  return `${JSON.stringify({ $schema, ...note, ...rest }, null, 2)}\n`;
}

/** `protocols:` in gwc.yaml: a list, or a map of each protocol's targeting (src/config/targeting.ts). */
function protocolsSchema(): Record<string, unknown> {
  const path = { type: 'string', pattern: '^/' };
  const target = {
    anyOf: [
      { type: 'boolean' },
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          'base-path': path,
          headers: { type: 'object', additionalProperties: { type: 'string' } },
          credential: { enum: [...CREDENTIAL_STYLES] },
          'upstream-base-path': path,
        },
      },
    ],
  };
  return {
    anyOf: [
      { type: 'array', items: { enum: [...PROTOCOLS] } },
      { type: 'object', additionalProperties: false, properties: Object.fromEntries(PROTOCOLS.map((p) => [p, target])) },
    ],
  };
}

