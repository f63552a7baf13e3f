// The suite against the built-in reference gateway (`demo`), optionally with one fault: a
// recording upstream on a free port (or --upstream-listen), the reference in front of it, the
// checks. The profile says which faults it may name (its module, ./<profile>/profile.ts); which recording upstream a
// fault's gateway needs is mocks/upstream/for-gateway.ts's to say.
import { parseListen } from '../../src/core/errors.js';
import { withExpandedTargeting, type RunConfig } from '../../src/config/config.js';
import { upstreamForGateway } from '../../mocks/upstream/for-gateway.js';
import { DEMO_UPSTREAM_TIMEOUT_MS, ReferenceGateway } from '../../reference/gateway.js';
import type { Fault } from '../../reference/faults/index.js';
import { CHECKS } from '../../suites/index.js';
import type { RunReport } from '../../src/report/shared/types.js';
import { runSuite, type SuiteExtras } from '../../src/runner/run.js';
import { faultNamed, type Io } from '../shared/context.js';

export interface DemoOptions {
  /** --fault, and the faults the profile knows. */
  fault: string | undefined;
  faults: readonly Fault[];
  /** --upstream-listen of `demo` (gwc.yaml's is for `run`). */
  listen: string | undefined;
}

/** The demo run: the upstream the fault needs, the reference gateway with the fault before it, the suite against that. */
export async function demo(cfg: RunConfig, o: DemoOptions, io: Io, extras: SuiteExtras): Promise<RunReport> {
  const fault = faultNamed(o.fault, o.faults);
  // The demo's upstream takes a free port unless --upstream-listen names one (gwc.yaml's is for `run`).
  const { host, port } = parseListen(o.listen ?? '127.0.0.1:0', '--upstream-listen');
  const up = await upstreamForGateway(fault, host, port);
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
