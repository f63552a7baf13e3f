// Codex CLI (the native `codex` binary of @openai/codex, installed by the user or CI under
// GWC_CODEX_DIR) as a client of the Responses API: `codex exec --json` with a model provider of
// its own in a fresh CODEX_HOME (base URL, wire_api "responses", the key in a variable it names,
// the gateway's targeting headers), its plugin, app and analytics features off so that it
// reaches nothing but the base URL (docs/real-clients-captured.md), in a fresh home folder at the
// same path in both runs. It sees nothing of the caller's environment but PATH.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CODEX_PINNED } from '../core/paths.js';
import { grouped, readJson, timedRun } from './process.js';
import { SESSION_FILE, SESSION_PROMPT } from './script.js';
import type { ClientDriver, DriverOptions, StreamTiming } from './types.js';

export const CODEX_PACKAGE = '@openai/codex';
const PLATFORM = path.join('node_modules', '@openai', 'codex-linux-x64', 'vendor', 'x86_64-unknown-linux-musl', 'bin', 'codex');
const KEY_VAR = 'GWC_CODEX_KEY';
const MODEL = 'gpt-5.5';

/** The binary under GWC_CODEX_DIR (default /opt/codex), as `npm install --prefix DIR @openai/codex` puts it. */
export function codexBinary(env: NodeJS.ProcessEnv = process.env): string {
  return env.GWC_CODEX_BIN || path.join(env.GWC_CODEX_DIR || '/opt/codex', PLATFORM);
}

const toml = (s: string) => JSON.stringify(s);

/** Codex's WebSocket transport to the Responses API (GET /v1/responses, `Upgrade: websocket`), off unless asked. */
export interface CodexWebsockets {
  /** `websocket_connect_timeout_ms` of the provider; the client's own default when absent. */
  connectTimeoutMs?: number;
}

/**
 * Codex's remote compaction, asked for: an auto-compaction limit below the tokens the session's
 * first answer reports (the upstream's usage), so the turn compacts before it follows up on its
 * tool call; and the provider named "Azure", one of the two kinds Codex 0.171.0 compacts remotely
 * for (its `supports_remote_compaction`: the OpenAI provider, which needs its own login, or an
 * Azure Responses endpoint). Remotely means its v2 form: a streamed POST /v1/responses whose
 * input ends in a `compaction_trigger` item, answered with a `compaction` item it sends back.
 */
export interface CodexCompaction {
  /** `model_auto_compact_token_limit`. */
  tokenLimit: number;
}

/** The config.toml of one run: our provider, and every feature that reaches other hosts off. */
export function codexConfig(o: Pick<DriverOptions, 'base' | 'headers'>, websockets?: CodexWebsockets, compaction?: CodexCompaction): string {
  const headers = o.headers.map(([k, v]) => `${toml(k)} = ${toml(v)}`).join(', ');
  return [
    `model = ${toml(MODEL)}`,
    'model_provider = "gwc"',
    'check_for_update_on_startup = false',
    ...(compaction ? [`model_auto_compact_token_limit = ${compaction.tokenLimit}`] : []),
    '',
    '[model_providers.gwc]',
    `name = ${compaction ? '"Azure"' : '"gw-conformance"'}`,
    `base_url = ${toml(`${o.base}/v1`)}`,
    `env_key = ${toml(KEY_VAR)}`,
    'wire_api = "responses"',
    ...(websockets ? ['supports_websockets = true'] : []),
    ...(websockets?.connectTimeoutMs !== undefined ? [`websocket_connect_timeout_ms = ${websockets.connectTimeoutMs}`] : []),
    ...(headers ? [`http_headers = { ${headers} }`] : []),
    '',
    // With plugins on it runs `git ls-remote https://github.com/openai/plugins.git` at start-up.
    '[features]',
    'plugins = false',
    'remote_plugin = false',
    'plugin_sharing = false',
    'apps = false',
    '',
    '[analytics]',
    'enabled = false',
    '',
  ].join('\n');
}

/** The ids the client drew for this home (installation) and this session, from the files it wrote. */
function drawnIds(codexHome: string): Record<string, string> {
  const out: Record<string, string> = {};
  const install = path.join(codexHome, 'installation_id');
  if (existsSync(install)) out.INSTALLATION_ID = readFileSync(install, 'utf8').trim();
  const sessions = path.join(codexHome, 'sessions');
  const rollout = existsSync(sessions) ? (readdirSync(sessions, { recursive: true }) as string[]).find((f) => /rollout-.*\.jsonl$/.test(f)) : undefined;
  if (!rollout) return out;
  const text = readFileSync(path.join(sessions, rollout), 'utf8');
  // Every id the session drew (session, turn, window, context window...), named in order of first appearance.
  const ids = [...new Set(text.match(/[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}/g) ?? [])];
  ids.forEach((id, i) => (out[`ID_${i + 1}`] = id));
  return out;
}

/** The compaction scenario's limit: under the session's first answer's tokens (SESSION_USAGE, 2,424 in all), over nothing else Codex counts before it. */
export const CODEX_COMPACT_LIMIT = 1000;

/** `codex`: the scripted session; `codex-compact`: the same, compacting remotely mid-turn (CodexCompaction). */
export function codex(env: NodeJS.ProcessEnv = process.env, compaction?: CodexCompaction): ClientDriver {
  const bin = codexBinary(env);
  const dir = env.GWC_CODEX_DIR || '/opt/codex';
  const name = compaction ? 'codex-compact' : 'codex';
  return {
    name,
    protocol: 'responses',
    // Given an empty one, `codex exec` exits 1 before its first request (seen with --no-token).
    credentialVar: KEY_VAR,
    missing: async () => (existsSync(bin) ? null : `Codex CLI is not installed at ${bin}: npm install --prefix ${dir} --save-exact ${CODEX_PACKAGE}@${CODEX_PINNED} (or set GWC_CODEX_DIR)`),
    version: async () => (readJson(path.join(dir, 'node_modules', '@openai', 'codex', 'package.json')) as { version?: string } | null)?.version ?? '?',
    async run(o: DriverOptions) {
      // The same paths in both runs: the client writes its folder into the request.
      const home = path.join(o.workdir, 'home');
      const codexHome = path.join(home, '.codex');
      const project = path.join(home, 'project');
      rmSync(home, { recursive: true, force: true });
      mkdirSync(project, { recursive: true });
      mkdirSync(codexHome, { recursive: true });
      writeFileSync(path.join(project, SESSION_FILE), 'gw-conformance client session\n');
      writeFileSync(path.join(codexHome, 'config.toml'), codexConfig(o, undefined, compaction));
      const childEnv = { PATH: env.PATH ?? '/usr/bin:/bin', HOME: home, CODEX_HOME: codexHome, [KEY_VAR]: o.token };
      // The turn as stdout shows it: from its start line to its end line, each item as it completed.
      let started: number | null = null;
      const arrivals: number[] = [];
      let doneMs = 0;
      const onLine = (l: string, at: number) => {
        if (/"type":"turn\.started"/.test(l)) started = at;
        else if (started !== null && /"type":"item\.completed"/.test(l)) arrivals.push(at - started);
        else if (started !== null && /"type":"turn\.(completed|failed)"/.test(l)) doneMs = at - started;
      };
      const args = ['exec', '--json', '--skip-git-repo-check', SESSION_PROMPT];
      const { code, stdout, stderr, timedOut } = await timedRun(bin, args, { cwd: project, env: childEnv }, o.timeoutMs, onLine);
      const out = grouped(stdout);
      const stream: StreamTiming = { firstTokenMs: arrivals[0] ?? null, doneMs, arrivalsMs: arrivals };
      return {
        client: name,
        version: await this.version(),
        steps: [
          { name: 'codex exec --json', error: code === 0 ? null : `exit ${code}${timedOut ? ' (killed at our time limit)' : ''}`, result: out },
          ...(started !== null ? [{ name: 'the streamed turn, timed from its turn.started line', error: null, result: null, stream }] : []),
        ],
        exit: { code, timedOut },
        stdout,
        stderr,
        files: {},
        volatile: drawnIds(codexHome),
        // Its client_metadata is a hash map: serialised in an order drawn anew per process.
        unorderedKeys: ['client_metadata'],
        // The turn's start time in ms, in its turn metadata (a header and the body), the ids
        // of the input messages (UUIDv5, drawn per session; not in its session file), and its
        // shell tool's output header: a chunk id drawn per call and the command's wall time.
        volatilePatterns: {
          TURN_STARTED_MS: '(?<=turn_started_at_unix_ms\\\\?":)\\d+',
          MESSAGE_ID: 'msg_[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}',
          CHUNK_ID: '(?<=Chunk ID: )[0-9a-f]+',
          WALL_TIME: '(?<=Wall time: )[0-9.]+(?= seconds)',
        },
        notes: [],
      };
    },
  };
}
