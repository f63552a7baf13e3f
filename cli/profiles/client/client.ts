// The client profile (--profile client): real clients (Claude Code, Gemini CLI, the official
// SDKs) run the same scripted session twice, straight at the recording upstream and through the
// gateway under test, and the profile's checks (suites/client/) compare the two runs.
//
// Claude Code and Gemini CLI are run only in a loopback-only network namespace where the harness
// can make one (root on Linux, `unshare` and `ip`): the whole command then runs again inside
// `unshare -n`, with the recording upstream, the gateway and every client started in there.
// Where it cannot, it says why in one line and runs the clients on the host, pointed at loopback
// only, with their nonessential traffic and telemetry off.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { HarnessError, parseListen } from '../../../src/core/errors.js';
import { rootPath } from '../../../src/core/paths.js';
import type { RunConfig } from '../../../src/config/config.js';
import { expandTargeting } from '../../../src/config/targeting.js';
import type { RunReport } from '../../../src/report/shared/types.js';
import { anthropicSdk } from '../../../src/real-clients/anthropic-sdk.js';
import { claudeCode } from '../../../src/real-clients/claude-code.js';
import { BEDROCK_MODE, VERTEX_MODE } from '../../../src/real-clients/claude-code-cloud.js';
import { CODEX_COMPACT_LIMIT, codex } from '../../../src/real-clients/codex.js';
import { genaiSdk } from '../../../src/real-clients/genai-sdk.js';
import { geminiCli } from '../../../src/real-clients/gemini-cli.js';
import { openaiSdk } from '../../../src/real-clients/openai-sdk.js';
import { openaiResponses } from '../../../src/real-clients/openai-responses.js';
import { openaiRealtime } from '../../../src/real-clients/openai-realtime.js';
import { genaiLive } from '../../../src/real-clients/genai-live.js';
import { anthropicVertexSdk } from '../../../src/real-clients/anthropic-vertex-sdk.js';
import { runSessions, type ClientFixture, type SessionUpstream } from '../../../src/real-clients/session.js';
import type { ClientDriver } from '../../../src/real-clients/types.js';
import { runSuite } from '../../../src/runner/run.js';
import { faultNamed } from '../../shared/context.js';
import { RecordingUpstream } from '../../../mocks/upstream/server.js';
import { SessionCapture } from '../../../mocks/upstream/session.js';
import { DEMO_UPSTREAM_TIMEOUT_MS, ReferenceGateway } from '../../../reference/gateway.js';
import { FAULTS } from '../../../reference/faults/index.js';
import { CHECKS } from '../../../suites/index.js';
import { launchGateway, checkLaunch, type LaunchedGateway } from '../../../src/launch/launch.js';
import { exitOnSignal } from '../../shared/interrupt.js';

/** Set in the environment of the command run again inside the namespace. */
const IN_NAMESPACE = 'GWC_CLIENT_NETNS';
/** Each client run's own limit. */
const CLIENT_TIMEOUT_MS = 60_000;

/** The recording upstream in session mode: a fresh record per client run. */
async function sessionUpstream(listen: string, credential: string): Promise<SessionUpstream & { stop(): Promise<void> }> {
  const upstream = new RecordingUpstream();
  const { host, port } = parseListen(listen, '--upstream-listen');
  await upstream.start(host, port);
  // A request that arrives while no run is on (the preflight after the runs) belongs to none.
  let capture = new SessionCapture({ credential });
  upstream.capture = capture;
  return {
    url: upstream.url,
    begin: () => void (upstream.capture = capture = new SessionCapture({ credential })),
    end: async () => {
      const requests = [...(await capture.settled())];
      upstream.capture = capture = new SessionCapture({ credential });
      return requests;
    },
    stop: () => upstream.stop(),
  };
}

/** The built-in reference gateway, with a fault or none. */
async function referenceGateway(upstreamUrl: string, faultName: string | undefined): Promise<{ url: string; stop(): Promise<void> }> {
  const gw = new ReferenceGateway({ upstream: upstreamUrl, fault: faultNamed(faultName, FAULTS), upstreamTimeoutMs: DEMO_UPSTREAM_TIMEOUT_MS });
  return { url: await gw.start('127.0.0.1', 0), stop: () => gw.stop() };
}

function drivers(names: string[], env: NodeJS.ProcessEnv): ClientDriver[] {
  const all: Record<string, ClientDriver> = { 'claude-code': claudeCode(env), 'anthropic-sdk': anthropicSdk, openai: openaiSdk, genai: genaiSdk, 'gemini-cli': geminiCli(env), codex: codex(env), 'codex-compact': codex(env, { tokenLimit: CODEX_COMPACT_LIMIT }), 'claude-code-vertex': claudeCode(env, VERTEX_MODE), 'claude-code-bedrock': claudeCode(env, BEDROCK_MODE), 'openai-responses': openaiResponses, 'anthropic-vertex': anthropicVertexSdk, 'openai-realtime': openaiRealtime, 'genai-live': genaiLive };
  return names.map((n) => all[n]);
}

/** Under --no-token, the clients that cannot start without a credential are refused before anything starts: a run of them would judge nothing. */
export function refuseWithoutCredential(cfg: RunConfig, env: NodeJS.ProcessEnv): void {
  const need = cfg.token ? [] : drivers(cfg.clients, env).filter((d) => d.credentialVar);
  if (!need.length) return;
  const names = need.length === 1 ? need[0].name : `${need.slice(0, -1).map((d) => d.name).join(', ')} and ${need.at(-1)!.name}`;
  throw new HarnessError('BAD_FLAG', `--no-token: ${names} ${need.length === 1 ? 'does' : 'do'} not start without a credential (given none, ${need.length === 1 ? 'it stops' : 'each stops'} before its first request), so the client profile would judge nothing: give the gateway's credential with --token, or leave ${need.length === 1 ? 'it' : 'them'} out of --clients`);
}

/** Why a client program cannot run in a loopback-only namespace here, or null when it can. */
function noNamespace(cfg: RunConfig): string | null {
  if (process.platform !== 'linux') return `not Linux (${process.platform})`;
  if (process.getuid?.() !== 0) return 'not root (unshare -n needs it)';
  if (cfg.target) return `--target ${cfg.target} is outside any namespace the harness could make (use --gateway-cmd, which starts the gateway inside it)`;
  if (cfg.launch.image) return '--gateway-image runs the gateway in a container outside the namespace';
  for (const tool of ['unshare', 'ip']) if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `\`${tool}\` is not installed`;
  // Root in a container may still lack the capability: try it once.
  const probe = spawnSync('unshare', ['-n', 'sh', '-c', 'ip link set lo up'], { encoding: 'utf8' });
  if (probe.status !== 0) return `\`unshare -n\` failed here (${(probe.stderr || probe.error?.message || `exit ${probe.status}`).trim()})`;
  return null;
}

/** The clients that are programs of their own (Claude Code in any mode, Codex CLI, Gemini CLI): they run in the namespace. */
const PROGRAMS = (cfg: RunConfig) => cfg.clients.filter((c) => c.startsWith('claude-code') || c.startsWith('codex') || c === 'gemini-cli');

/**
 * Runs the whole command again inside a loopback-only namespace when a client program is among
 * the clients and the harness can make one; returns its exit code, or null to go on here.
 */
export async function inNamespace(cfg: RunConfig, argv: string[], io: { out: (s: string) => void; env: NodeJS.ProcessEnv }): Promise<number | null> {
  if (!PROGRAMS(cfg).length || io.env[IN_NAMESPACE]) return null;
  const why = noNamespace(cfg);
  if (why) {
    io.out(`client profile: ${PROGRAMS(cfg).join(', ')} run on the host network, not in a loopback-only namespace: ${why}; each is pointed at loopback only, with its traffic to other hosts off`);
    return null;
  }
  const script = 'ip link set lo up && exec "$@"';
  const child = spawn('unshare', ['-n', 'sh', '-c', script, 'sh', process.execPath, rootPath('bin', 'gw-conformance.js'), ...argv], { stdio: 'inherit', env: { ...io.env, [IN_NAMESPACE]: '1' } });
  return new Promise((resolve, reject) => {
    child.once('error', (e) => reject(new HarnessError('BAD_FLAG', `cannot start unshare for the client profile: ${e.message}`)));
    child.once('close', (code) => resolve(code ?? 2));
  });
}

/** The network the clients run on, as the report says it. */
function network(env: NodeJS.ProcessEnv): string {
  const ifaces = Object.keys(os.networkInterfaces());
  if (env[IN_NAMESPACE]) return `loopback-only network namespace (unshare -n; interfaces: ${ifaces.join(', ')})`;
  return `the host network (interfaces: ${ifaces.join(', ')}); every client is pointed at loopback only`;
}

/**
 * The client profile: starts the recording upstream in session mode and the gateway (the
 * built-in reference with `reference`, else --gateway-cmd or --target), runs every client
 * straight and through the gateway, then the checks.
 */
export async function runClientProfile(cfg: RunConfig, io: { out: (s: string) => void; env: NodeJS.ProcessEnv }, reference?: { fault?: string }): Promise<RunReport> {
  // The run's wall time counts the client sessions, not only the checks comparing them.
  const began = { at: new Date(), t0: performance.now() };
  const chosen = drivers(cfg.clients, io.env);
  refuseWithoutCredential(cfg, io.env);
  for (const d of chosen) {
    const missing = await d.missing();
    if (missing) throw new HarnessError('BAD_FLAG', `--clients ${d.name}: ${missing}`);
  }
  if (!reference) checkLaunch(cfg.launch);
  if (!reference && !cfg.target && !cfg.launch.cmd) throw new HarnessError('BAD_FLAG', '--profile client needs the gateway: --gateway-cmd (or --target); to try it against the reference gateway: `gw-conformance demo --profile client`');
  if (cfg.launch.image) throw new HarnessError('BAD_FLAG', '--gateway-image is not supported with --profile client yet: use --gateway-cmd');
  const upstream = await sessionUpstream(reference || cfg.launch.cmd ? '127.0.0.1:0' : cfg.upstreamListen, cfg.token);
  const workdir = mkdtempSync(path.join(os.tmpdir(), 'gwc-client-'));
  let launched: LaunchedGateway | undefined;
  let ref: { url: string; stop(): Promise<void> } | undefined;
  try {
    let gateway = cfg.target;
    if (reference) gateway = (ref = await referenceGateway(upstream.url, reference.fault)).url;
    else if (cfg.launch.cmd) gateway = (launched = await launchGateway({ ...cfg.launch, upstreamUrl: upstream.url, upstreamPort: Number(new URL(upstream.url).port), startTimeoutMs: cfg.readyTimeoutS * 1000, secrets: [cfg.token], processEnv: io.env, onSignal: exitOnSignal })).target;
    const net = network(io.env);
    io.out(`client profile: ${chosen.map((d) => d.name).join(', ')}, straight at ${upstream.url} and through the gateway at ${gateway}, on ${net}`);
    // The targeting (base paths, headers) applies to the run through the gateway; its secrets are masked in the report.
    const expanded = expandTargeting(cfg.targeting, upstream.url, io.env);
    const pairs = await runSessions(chosen, { upstream, gateway: gateway!, token: cfg.token, workdir, timeoutMs: CLIENT_TIMEOUT_MS, print: io.out, targeting: expanded.resolved });
    const fixture: ClientFixture = { pairs, network: net };
    // The checks only compare what the runs left: no readiness canary through the gateway.
    return await runSuite(CHECKS, { ...cfg, protocols: [], expanded }, gateway!, null, io.out, { fixture, launcher: launched, began, upstreamWords: 'the client sessions\' own' });
  } finally {
    await launched?.stop();
    await ref?.stop();
    await upstream.stop();
    rmSync(workdir, { recursive: true, force: true });
  }
}
