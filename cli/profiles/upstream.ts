// The suite with the run's own recording upstream: start it, start the gateway when the harness
// is asked to (--gateway-cmd, --gateway-image), run the checks, stop both; or beside a running
// `gw-conformance mock`, as the profile uses one (attached, driven). run, certify and verify come
// here through their profile's module (cli/profiles/): all but the service profile, which
// checks the hosted service directly, and the client profile, which refuses them.
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { HarnessError, parseListen } from '../../src/core/errors.js';
import { withExpandedTargeting, type RunConfig } from '../../src/config/config.js';
import { optionByName } from '../../src/config/options.js';
import { RecordingUpstream } from '../../mocks/upstream/server.js';
import type { ServerTls } from '../../src/core/server.js';
import { loadTransport } from '../../src/client/transport.js';
import { CHECKS } from '../../suites/index.js';
import { checkLaunch, launchGateway, type LaunchedGateway } from '../../src/launch/launch.js';
import { exitOnSignal } from '../shared/interrupt.js';
import type { RunReport } from '../../src/report/shared/types.js';
import { isOurMock, runRemote } from '../../src/runner/remote.js';
import { RemoteUpstream } from '../../src/upstream/remote.js';
import { runSuite, sealReport, type SuiteExtras } from '../../src/runner/run.js';
import type { Io } from '../shared/context.js';

const DEFAULT_LISTEN = optionByName('upstream-listen').default as string;

/**
 * Where the recording upstream listens. The one rule: when the harness starts the gateway it
 * tells the gateway the upstream's address, so the default address gives way to a free port
 * (two runs at once do not collide); an address the user chose is kept.
 */
export function upstreamAddress(cfg: RunConfig): { host: string; port: number } {
  return parseListen(startsGateway(cfg) && cfg.upstreamListen === DEFAULT_LISTEN ? '127.0.0.1:0' : cfg.upstreamListen, '--upstream-listen');
}

export interface RecordingOptions {
  /** `run` only: when the address is held by a running `gw-conformance mock`, use it as the profile does (MockUse.held). */
  viaRunningMock?: boolean;
}

/** A run beside a running `gw-conformance mock` at `base`. */
export type MockRun = (cfg: RunConfig, io: Io, base: string, extras: SuiteExtras) => Promise<RunReport>;

/** What a profile's runs do with a running `gw-conformance mock` (cli/profiles/). */
export interface MockUse {
  /** --attach: run here on the mock's recording upstream (attached), or refuse. */
  attach: MockRun;
  /** The mock holds --upstream-listen (`run`): attach to it, or let it drive the run (driven). */
  held: MockRun;
}

/** Whether the harness starts the gateway (--gateway-cmd, --gateway-image). */
export const startsGateway = (cfg: RunConfig): boolean => Boolean(cfg.launch.cmd || cfg.launch.image);

/** A run needs the gateway: a target, or a gateway to start. */
export function requireTarget(cfg: RunConfig): void {
  if (!cfg.target && !startsGateway(cfg)) throw new HarnessError('BAD_FLAG', '--target is required (or `target:` in gwc.yaml, or --gateway-cmd / --gateway-image to start the gateway); to try the harness without a gateway, run `gw-conformance demo`');
}

/** The suite with the run's own recording upstream (run, certify, verify), or a running mock's as the profile uses it. */
export async function withRecordingUpstream(cfg: RunConfig, io: Io, mock: MockUse, extras: SuiteExtras = {}, opts: RecordingOptions = {}): Promise<RunReport> {
  const launching = startsGateway(cfg);
  // Bad launch flags are found before anything starts (src/launch/launch.ts).
  checkLaunch(cfg.launch);
  requireTarget(cfg);
  if (cfg.attach) return mock.attach(cfg, io, cfg.attach, extras);
  const { host, port } = upstreamAddress(cfg);
  // The transport's files are read and checked before anything starts (bad ones: one line, exit 2).
  const transport = cfg.target && !launching ? loadTransport(cfg.transport, cfg.target) : undefined;
  const tls = await recordingTls(cfg, host);
  const upstream = new RecordingUpstream(tls);
  try {
    await upstream.start(host, port);
  } catch (e) {
    const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    if (opts.viaRunningMock && e instanceof HarnessError && e.code === 'PORT_IN_USE' && !launching && (await isOurMock(base))) return mock.held(cfg, io, base, extras);
    throw e;
  }
  const run = withExpandedTargeting(cfg, upstream.url, io.env);
  const secrets = [cfg.token, ...(run.expanded?.secrets ?? [])];
  let launched: LaunchedGateway | undefined;
  let report: RunReport;
  try {
    if (launching) {
      launched = await launchGateway({ ...cfg.launch, upstreamUrl: upstream.url, upstreamPort: Number(new URL(upstream.url).port), upstreamCa: tls?.caFile, startTimeoutMs: cfg.readyTimeoutS * 1000, secrets, processEnv: io.env, onSignal: exitOnSignal });
      io.out(`started the gateway (${cfg.launch.cmd ? '--gateway-cmd' : `--gateway-image ${cfg.launch.image}`}) at ${launchedTarget(launched.target, cfg)}, forwarding to ${upstream.url}`);
    }
    if (tls) io.out(`the recording upstream serves https${cfg.upstreamTls.http2 ? ' and HTTP/2' : ''}; its CA (for the gateway to trust) is ${tls.caFile}`);
    report = await runSuite(CHECKS, run, launched ? launchedTarget(launched.target, cfg) : cfg.target!, upstream, io.out, { ...extras, launcher: launched, ...(transport ? { transport } : {}) });
  } finally {
    await launched?.stop();
    await upstream.stop();
    if (tls) await rm(dirname(tls.caFile), { recursive: true, force: true });
  }
  // What the started gateway wrote goes into the report, masked like the rest.
  return launched ? sealReport({ ...report, launched: launched.info() }, secrets, run.expanded?.names ?? []) : report;
}

/** --upstream-tls: a throw-away CA and a certificate for the upstream's address (node-forge is loaded only then). */
export async function recordingTls(cfg: Pick<RunConfig, 'upstreamTls' | 'launch'>, host: string): Promise<(ServerTls & { caFile: string }) | undefined> {
  if (cfg.upstreamTls.http2 && !cfg.upstreamTls.on) throw new HarnessError('BAD_FLAG', '--upstream-http2 needs --upstream-tls (the upstream offers HTTP/2 in the TLS handshake)');
  if (cfg.launch.cmd?.includes('{upstream_ca}') && !cfg.upstreamTls.on) throw new HarnessError('BAD_FLAG', '--gateway-cmd uses {upstream_ca}: give --upstream-tls (without it the upstream serves plain http and has no CA)');
  if (!cfg.upstreamTls.on) return undefined;
  const { upstreamTls } = await import('../../mocks/upstream/tls-ca.js');
  const t = await upstreamTls(host);
  return { key: t.keyPem, cert: t.certPem, http2: cfg.upstreamTls.http2, caFile: t.caFile };
}

/** A started gateway is reached over https when the run is given TLS settings for it (--ca-file, --insecure, --client-cert, --http2 h2). */
function launchedTarget(target: string, cfg: RunConfig): string {
  const t = cfg.transport;
  return t.caFile || t.insecure || t.clientCert || t.http2 === 'h2' ? target.replace(/^http:/, 'https:') : target;
}

/**
 * A load run on the recording upstream of a running `gw-conformance mock` (--attach, or the mock
 * holding --upstream-listen): the checks run here and send their own load; the mock records.
 */
export const attached: MockRun = async (cfg, io, base, extras) => {
  if (cfg.launch.cmd || cfg.launch.image) throw new HarnessError('BAD_FLAG', '--attach with --gateway-cmd or --gateway-image: the gateway forwards to the mock you attach to; start it yourself');
  if (!cfg.target) throw new HarnessError('BAD_FLAG', '--target is required with --attach');
  if (cfg.upstreamTls.on) throw new HarnessError('BAD_FLAG', '--upstream-tls with an attached run: the mock you attach to serves its upstream as it was started (and attaching needs one that serves plain http)');
  // A URL (http:// or https://) the option table checked; the mock's control endpoint is plain http.
  const url = new URL(base);
  if (url.protocol !== 'http:') throw new HarnessError('BAD_FLAG', `--attach: the mock's control endpoint is plain http (got ${url.protocol}//)`);
  const transport = loadTransport(cfg.transport, cfg.target);
  const upstream = await RemoteUpstream.attach(url.origin);
  io.out(`attached to the running \`gw-conformance mock\` at ${upstream.url}: this process sends its own load, the mock records (its clock read to within ${upstream.clockUncertaintyMs.toFixed(1)} ms)`);
  try {
    return await runSuite(CHECKS, withExpandedTargeting(cfg, upstream.url, io.env), cfg.target, upstream, io.out, { ...extras, transport });
  } finally {
    await upstream.detach();
  }
};

/** A `gw-conformance mock` already holding the address runs the suite for us (src/runner/remote.ts). */
export const driven: MockRun = async (cfg, io, base) => {
  // The mock-driven run does not know the CI run options: refuse rather than ignore them
  // (load shards attach instead: docs/load-profile.md).
  if (cfg.waivers || cfg.shard || cfg.repeat > 1 || cfg.repeatFailures > 1)
    throw new HarnessError('BAD_FLAG', '--waivers, --shard (except with --profile load), --repeat and --repeat-failures are not supported when a running `gw-conformance mock` drives the run; stop the mock and let `run` start its own upstream');
  io.out(`using the recording upstream of the running \`gw-conformance mock\` at ${base}`);
  return runRemote(base, withExpandedTargeting(cfg, base, io.env), cfg.target!, io.out);
};
