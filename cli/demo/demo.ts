// The suite against the built-in reference gateway (`demo`), optionally with one fault: a
// recording upstream on a free port (or --upstream-listen), the reference in front of it, the
// checks. The profile says which faults it may name (cli/profiles/). demoUpstream is the one
// place that says which recording upstream a fault's gateway needs (also for the self-tests'
// demo runs and scripts/detection.mjs).
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseListen } from '../../src/core/errors.js';
import { withExpandedTargeting, type RunConfig } from '../../src/config/config.js';
import { RecordingUpstream } from '../../mocks/upstream/server.js';
import { DEMO_UPSTREAM_TIMEOUT_MS, ReferenceGateway } from '../../reference/gateway.js';
import type { Fault } from '../../reference/faults/index.js';
import { CHECKS } from '../../suites/index.js';
import type { RunReport } from '../../src/report/types.js';
import { runSuite, type SuiteExtras } from '../../src/runner/run.js';
import { faultNamed, type Io } from '../shared/context.js';

export interface DemoOptions {
  /** --fault, and the faults the profile knows. */
  fault: string | undefined;
  faults: readonly Fault[];
  /** --upstream-listen of `demo` (gwc.yaml's is for `run`). */
  listen: string | undefined;
}

/** A started recording upstream for the reference gateway, and what the gateway is told of it. */
export interface DemoUpstream {
  upstream: RecordingUpstream;
  /** The gateway's options for reaching it (its URL; its CA over TLS). */
  gateway: { upstream: string; upstreamCa?: string };
  /** How it serves, for the run's first line. */
  serves: string;
  stop(): Promise<void>;
}

/**
 * The recording upstream the reference gateway with `fault` forwards to: plain http, or https
 * with HTTP/2 (a throw-away CA the gateway trusts; node-forge loaded only then) when the fault's
 * gateway speaks HTTP/2 upstream (`upstreamHttp2`, reference/h2.ts).
 */
export async function demoUpstream(fault: Fault | undefined, host = '127.0.0.1', port = 0): Promise<DemoUpstream> {
  const tls = fault?.upstreamHttp2 ? await (await import('../../mocks/upstream/tls-ca.js')).upstreamTls(host) : undefined;
  const removeCa = async () => void (tls && (await rm(dirname(tls.caFile), { recursive: true, force: true })));
  const upstream = new RecordingUpstream(tls && { key: tls.keyPem, cert: tls.certPem, http2: true });
  try {
    await upstream.start(host, port);
  } catch (e) {
    await removeCa();
    throw e;
  }
  return { upstream, gateway: { upstream: upstream.url, upstreamCa: tls?.caPem }, serves: tls ? 'https and HTTP/2' : 'http', stop: async () => (await upstream.stop(), await removeCa()) };
}

export async function demo(cfg: RunConfig, o: DemoOptions, io: Io, extras: SuiteExtras): Promise<RunReport> {
  const fault = faultNamed(o.fault, o.faults);
  // The demo's upstream takes a free port unless --upstream-listen names one (gwc.yaml's is for `run`).
  const { host, port } = parseListen(o.listen ?? '127.0.0.1:0', '--upstream-listen');
  const up = await demoUpstream(fault, host, port);
  const gw = new ReferenceGateway({ ...up.gateway, fault, upstreamTimeoutMs: DEMO_UPSTREAM_TIMEOUT_MS, limit: cfg.load.declaredLimit });
  try {
    const target = await gw.start('127.0.0.1', 0);
    io.out(`demo: reference gateway at ${target}${fault ? ` with fault ${fault.name} (${fault.description})` : ' (no fault)'}${up.upstream.url.startsWith('https:') ? `, forwarding over ${up.serves}` : ''}`);
    return await runSuite(CHECKS, withExpandedTargeting(cfg, up.upstream.url, io.env), target, up.upstream, io.out, extras);
  } finally {
    await gw.stop();
    await up.stop();
  }
}
