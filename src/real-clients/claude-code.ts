// Claude Code (the `claude` binary of @anthropic-ai/claude-code-linux-x64, installed by the user
// or CI, found under GWC_CLAUDE_DIR) as a client of the messages protocol (or, in another mode,
// of Bedrock or Vertex: claude-code-cloud.ts): print mode with the streamed JSON output (each
// delta as it arrives), gateway model discovery on, the Glob tool allowed, in a fresh home
// folder at the same path in both runs. It runs only with
// nonessential traffic, the updater and telemetry off, and sees nothing of the caller's
// environment but PATH. The network namespace around it is the command's business.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Protocol } from '../core/protocols.js';
import { grouped, readJson, timedRun } from './process.js';
import { SESSION_FILE, SESSION_PROMPT } from './script.js';
import type { ClientDriver, DriverOptions, StreamTiming } from './types.js';
import { CLAUDE_CODE_PINNED } from '../core/paths.js';

export const CLAUDE_PLATFORM_PACKAGE = '@anthropic-ai/claude-code-linux-x64';
/** The version CI installs (.ci/run); another one runs too, its version is in the report. */
export { CLAUDE_CODE_PINNED };
const CACHE_FILE = '.claude/cache/gateway-models.json';

/** The binary under GWC_CLAUDE_DIR (default /opt/claude-code), as `npm install --prefix DIR` puts it. */
export function claudeBinary(env: NodeJS.ProcessEnv = process.env): string {
  return env.GWC_CLAUDE_BIN || path.join(env.GWC_CLAUDE_DIR || '/opt/claude-code', 'node_modules', CLAUDE_PLATFORM_PACKAGE, 'claude');
}

/**
 * One model turn as stdout showed it: `from` is the client's last line before the turn (its
 * start-up line, or the tool's result it is about to send back), right before it sends the
 * turn's request; timing from there leaves the client's own start-up time, which varies by
 * hundreds of ms from run to run, out of the comparison.
 */
interface Turn {
  from: number;
  arrivals: number[];
  doneMs: number;
}

/** Notes per model turn when its deltas and its end reached stdout. */
function turnClock(): { turns: Turn[]; onLine: (l: string, at: number) => void } {
  const turns: Turn[] = [];
  let lastLine = 0;
  const onLine = (l: string, at: number) => {
    if (!/"type":"stream_event"/.test(l)) {
      lastLine = at;
      return;
    }
    // A message_start opens a turn.
    if (/"message_start"/.test(l)) turns.push({ from: lastLine, arrivals: [], doneMs: at });
    const turn = turns[turns.length - 1];
    if (turn && /"content_block_delta"/.test(l)) turn.arrivals.push(at);
    if (turn) turn.doneMs = at;
  };
  return { turns, onLine };
}

/**
 * How Claude Code is pointed at a protocol: its name in --clients, the protocol, and the
 * variables that point it at the base URL with the credential and the gateway's headers.
 */
export interface ClaudeMode {
  name: string;
  protocol: Protocol;
  /** The variables of this mode (beside PATH, HOME and the nonessential-traffic switches). */
  env(o: DriverOptions): Record<string, string>;
  /** A pattern of the paths of requests this mode sends at once (ClientRun.unorderedRequests). */
  unorderedRequests?: string;
  /** The variable this mode cannot start without a credential in (ClientDriver.credentialVar). */
  credentialVar?: string;
}

/** The gateway's targeting headers, one `Name: value` a line, with any of the mode's own. */
export const customHeaders = (headers: Array<[string, string]>): Record<string, string> => (headers.length ? { ANTHROPIC_CUSTOM_HEADERS: headers.map(([k, v]) => `${k}: ${v}`).join('\n') } : {});

/** The messages protocol: ANTHROPIC_BASE_URL, a bearer token, gateway model discovery on. */
export const MESSAGES_MODE: ClaudeMode = {
  name: 'claude-code',
  protocol: 'messages',
  // Given an empty one, `claude -p` exits 1 before its first request (seen with --no-token).
  credentialVar: 'ANTHROPIC_AUTH_TOKEN',
  env: (o) => ({
    CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY: '1',
    ANTHROPIC_BASE_URL: o.base,
    ANTHROPIC_AUTH_TOKEN: o.token,
    // The gateway's targeting headers (none in the straight run).
    ...customHeaders(o.headers),
  }),
};

export function claudeCode(env: NodeJS.ProcessEnv = process.env, mode: ClaudeMode = MESSAGES_MODE): ClientDriver {
  const bin = claudeBinary(env);
  return {
    name: mode.name,
    protocol: mode.protocol,
    credentialVar: mode.credentialVar,
    missing: async () => (existsSync(bin) ? null : `Claude Code is not installed at ${bin}: npm install --prefix ${env.GWC_CLAUDE_DIR || '/opt/claude-code'} --save-exact ${CLAUDE_PLATFORM_PACKAGE}@${CLAUDE_CODE_PINNED} (or set GWC_CLAUDE_DIR)`),
    version: async () => (readJson(path.join(path.dirname(bin), 'package.json')) as { version?: string } | null)?.version ?? '?',
    async run(o: DriverOptions) {
      // The same paths in both runs: the client writes its folder into the request.
      const home = path.join(o.workdir, 'home');
      const project = path.join(home, 'project');
      rmSync(home, { recursive: true, force: true });
      mkdirSync(project, { recursive: true });
      writeFileSync(path.join(project, SESSION_FILE), 'gw-conformance client session\n');
      const childEnv = {
        PATH: env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_TELEMETRY: '1',
        ...mode.env(o),
      };
      const args = ['-p', SESSION_PROMPT, '--output-format', 'stream-json', '--verbose', '--include-partial-messages', '--allowedTools', 'Glob'];
      const { turns, onLine } = turnClock();
      const { code, stdout, stderr, timedOut } = await timedRun(bin, args, { cwd: project, env: childEnv }, o.timeoutMs, onLine);
      const streams = turns.map((t, i) => {
        const stream: StreamTiming = { firstTokenMs: t.arrivals.length ? t.arrivals[0] - t.from : null, doneMs: t.doneMs - t.from, arrivalsMs: t.arrivals.map((a) => a - t.from) };
        return { name: `turn ${i + 1}: the streamed answer, timed from the client's line before it`, error: null, result: null, stream };
      });
      const out = grouped(stdout);
      const init = out.system?.[0] as { session_id?: string } | undefined;
      // The device id the client drew for this home folder (it sends it in metadata.user_id).
      const device = (readJson(path.join(home, '.claude.json')) as { userID?: string } | null)?.userID;
      const volatile: Record<string, string> = {};
      if (init?.session_id) volatile.SESSION_ID = init.session_id;
      if (device) volatile.DEVICE_ID = device;
      return {
        client: mode.name,
        version: await this.version(),
        steps: [{ name: 'claude -p (stream-json)', error: code === 0 ? null : `exit ${code}${timedOut ? ' (killed at our time limit)' : ''}`, result: out }, ...streams],
        exit: { code, timedOut },
        stdout,
        stderr,
        files: { [`~/${CACHE_FILE}`]: readJson(path.join(home, CACHE_FILE)) },
        volatile,
        ...(mode.unorderedRequests ? { unorderedRequests: mode.unorderedRequests } : {}),
        notes: [],
      };
    },
  };
}
