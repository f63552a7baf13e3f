// The suite against the built-in reference gateway (`demo`), optionally with one fault: a
// recording upstream on a free port (or --upstream-listen), the reference in front of it, the
// checks. The profile says which faults it may name (src/cli/profiles/).
import { parseListen } from '../core/errors.js';
import { withExpandedTargeting, type RunConfig } from '../config/config.js';
import { RecordingUpstream } from '../../mocks/upstream/server.js';
import { DEMO_UPSTREAM_TIMEOUT_MS, ReferenceGateway } from '../../reference/gateway.js';
import type { Fault } from '../../reference/faults/index.js';
import { CHECKS } from '../../suites/index.js';
import type { RunReport } from '../report/types.js';
import { runSuite, type SuiteExtras } from './run.js';
import { faultNamed, type Io } from './shared.js';

export interface DemoOptions {
  /** --fault, and the faults the profile knows. */
  fault: string | undefined;
  faults: readonly Fault[];
  /** --upstream-listen of `demo` (gwc.yaml's is for `run`). */
  listen: string | undefined;
}

export async function demo(cfg: RunConfig, o: DemoOptions, io: Io, extras: SuiteExtras): Promise<RunReport> {
  const fault = faultNamed(o.fault, o.faults);
  const upstream = new RecordingUpstream();
  // The demo's upstream takes a free port unless --upstream-listen names one (gwc.yaml's is for `run`).
  const { host, port } = parseListen(o.listen ?? '127.0.0.1:0', '--upstream-listen');
  await upstream.start(host, port);
  const gw = new ReferenceGateway({ upstream: upstream.url, fault, upstreamTimeoutMs: DEMO_UPSTREAM_TIMEOUT_MS, limit: cfg.load.declaredLimit });
  try {
    const target = await gw.start('127.0.0.1', 0);
    io.out(`demo: reference gateway at ${target}${fault ? ` with fault ${fault.name} (${fault.description})` : ' (no fault)'}`);
    return await runSuite(CHECKS, withExpandedTargeting(cfg, upstream.url, io.env), target, upstream, io.out, extras);
  } finally {
    await gw.stop();
    await upstream.stop();
  }
}
