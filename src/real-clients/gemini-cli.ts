// Gemini CLI (@google/gemini-cli, its bundled `gemini.js`, installed by the user or CI under
// GWC_GEMINI_CLI_DIR) as a client of the native protocol: headless mode (`-p`) with the streamed
// JSON output (each answer delta as it arrives), an API key and a base URL of ours
// (GOOGLE_GEMINI_BASE_URL, which the CLI accepts as plain http on loopback only), the model
// named so no routing call is made, in a fresh home folder at the same path in both runs. Its
// settings there turn usage statistics, telemetry and the update check off, and it sees nothing
// of the caller's environment but PATH. The network namespace around it is the command's business.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { lines as parsedLines, readJson, timedRun } from './process.js';
import { SESSION_FILE, SESSION_PROMPT } from './script.js';
import type { ClientDriver, DriverOptions, StreamTiming } from './types.js';
import { GEMINI_CLI_PINNED } from '../core/paths.js';

export const GEMINI_CLI_PACKAGE = '@google/gemini-cli';
export { GEMINI_CLI_PINNED };
/** The model the session names (`-m`): with none, the CLI first asks a classifier model to pick one. */
const MODEL = 'gemini-2.5-flash';

/** Settings of the fresh home folder: no usage statistics, no telemetry, no update check, the API key as the way in. */
export const GEMINI_CLI_SETTINGS = {
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  // 0.61.0 refuses the "gateway" auth type it picks itself when GOOGLE_GEMINI_BASE_URL is set ("Invalid auth method selected."): the key's type is named.
  security: { auth: { selectedType: 'gemini-api-key' } },
};

/** The CLI's entry script under GWC_GEMINI_CLI_DIR (default /opt/gemini-cli), as `npm install --prefix DIR` puts it. */
export function geminiCliScript(env: NodeJS.ProcessEnv = process.env): string {
  return env.GWC_GEMINI_CLI_BIN || path.join(env.GWC_GEMINI_CLI_DIR || '/opt/gemini-cli', 'node_modules', GEMINI_CLI_PACKAGE, 'bundle', 'gemini.js');
}

/** One streamed answer as stdout showed it: from the client's last line before it, each delta, its last delta. */
interface Turn {
  from: number;
  arrivals: number[];
  doneMs: number;
}

const isDelta = (l: string) => /"type":"message"/.test(l) && /"role":"assistant"/.test(l) && /"delta":true/.test(l);

/** Notes per answer when its deltas reached stdout. */
function turnClock(): { turns: Turn[]; onLine: (l: string, at: number) => void } {
  const turns: Turn[] = [];
  let lastLine = 0;
  let inTurn = false;
  const onLine = (l: string, at: number) => {
    if (!isDelta(l)) {
      inTurn = false;
      lastLine = at;
      return;
    }
    if (!inTurn) turns.push({ from: lastLine, arrivals: [], doneMs: at });
    inTurn = true;
    const turn = turns[turns.length - 1];
    turn.arrivals.push(at);
    turn.doneMs = at;
  };
  return { turns, onLine };
}

export function geminiCli(env: NodeJS.ProcessEnv = process.env): ClientDriver {
  const script = geminiCliScript(env);
  const version = async () => (readJson(path.join(path.dirname(script), '..', 'package.json')) as { version?: string } | null)?.version ?? '?';
  return {
    name: 'gemini-cli',
    protocol: 'native',
    // Given an empty one, the CLI exits 41 before its first request (seen with --no-token).
    credentialVar: 'GEMINI_API_KEY',
    missing: async () => (existsSync(script) ? null : `Gemini CLI is not installed at ${script}: npm install --prefix ${env.GWC_GEMINI_CLI_DIR || '/opt/gemini-cli'} --save-exact ${GEMINI_CLI_PACKAGE}@${GEMINI_CLI_PINNED} (or set GWC_GEMINI_CLI_DIR)`),
    version,
    async run(o: DriverOptions) {
      // The same paths in both runs: the client writes its folders into the request.
      const home = path.join(o.workdir, 'home');
      const project = path.join(home, 'project');
      rmSync(home, { recursive: true, force: true });
      mkdirSync(path.join(home, '.gemini'), { recursive: true });
      mkdirSync(project, { recursive: true });
      mkdirSync(path.join(home, 'tmp'), { recursive: true });
      writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify(GEMINI_CLI_SETTINGS, null, 2));
      writeFileSync(path.join(project, SESSION_FILE), 'gw-conformance client session\n');
      const childEnv = {
        PATH: env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        // Its error reports (gemini-client-error-*.json) go to the temporary folder: the run's own.
        TMPDIR: path.join(home, 'tmp'),
        GEMINI_API_KEY: o.token,
        GOOGLE_GEMINI_BASE_URL: o.base,
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
        GEMINI_TELEMETRY_ENABLED: 'false',
        // The gateway's targeting headers, `Name: value` comma-separated (none in the straight run).
        ...(o.headers.length ? { GEMINI_CLI_CUSTOM_HEADERS: o.headers.map(([k, v]) => `${k}: ${v}`).join(', ') } : {}),
      };
      const args = [script, '-p', SESSION_PROMPT, '-m', MODEL, '--output-format', 'stream-json'];
      const { turns, onLine } = turnClock();
      const { code, stdout, stderr, timedOut } = await timedRun(process.execPath, args, { cwd: project, env: childEnv }, o.timeoutMs, onLine);
      const streams = turns.map((t, i) => {
        const stream: StreamTiming = { firstTokenMs: t.arrivals[0] - t.from, doneMs: t.doneMs - t.from, arrivalsMs: t.arrivals.map((a) => a - t.from) };
        return { name: `answer ${i + 1}: the streamed text, timed from the client's line before it`, error: null, result: null, stream };
      });
      const lines = parsedLines(stdout);
      const init = lines.find((l) => (l as { type?: unknown })?.type === 'init') as { session_id?: string } | undefined;
      const volatile: Record<string, string> = {};
      if (init?.session_id) volatile.SESSION_ID = init.session_id;
      // The CLI names each function call the upstream sent without an id `{name}_{Date.now()}_{n}`, sends it back with the call, and prints it (as `{tool}__{id}`).
      lines.filter((l) => (l as { type?: unknown })?.type === 'tool_use').forEach((l, i) => {
        const id = String((l as { tool_id?: unknown }).tool_id ?? '');
        if (id) volatile[`CALL_ID_${i + 1}`] = id.includes('__') ? id.slice(id.indexOf('__') + 2) : id;
      });
      return {
        client: 'gemini-cli',
        version: await version(),
        steps: [{ name: 'gemini -p (stream-json)', error: code === 0 ? null : `exit ${code}${timedOut ? ' (killed at our time limit)' : ''}`, result: lines }, ...streams],
        exit: { code, timedOut },
        stdout,
        stderr,
        files: {},
        volatile,
        notes: [],
      };
    },
  };
}
