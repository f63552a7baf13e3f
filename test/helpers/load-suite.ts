// The load tests' one way to run the suite in this process: through the reference gateway (with a
// fault, and the run's declared limit enforced) to a recording upstream the caller started, in
// this process or attached to it over HTTP.
import { DEMO_UPSTREAM_TIMEOUT_MS, ReferenceGateway } from '../../reference/gateway.js';
import { faultByName } from '../../reference/faults/index.js';
import { runSuite } from '../../src/runner/run.js';
import { resolveConfig } from '../../src/config/config.js';
import type { RunReport } from '../../src/report/shared/types.js';
import type { Upstream } from '../../src/upstream/upstream.js';
import { CHECKS } from '../../suites/index.js';
import { launchGateway } from '../../src/launch/launch.js';
import { ROOT } from './cli.js';
import path from 'node:path';

export type Flags = Parameters<typeof resolveConfig>[0];

/** The suite with `flags` (seed 1, JSON) through the reference gateway, which forwards to `upstream.url`. */
export async function throughReference(upstream: Upstream, fault: string | undefined, flags: Flags): Promise<RunReport> {
  const cfg = resolveConfig({ seed: '1', reporter: ['json'], ...flags }, {}, {});
  const gw = new ReferenceGateway({ upstream: upstream.url, fault: fault ? faultByName(fault) : undefined, upstreamTimeoutMs: DEMO_UPSTREAM_TIMEOUT_MS, limit: cfg.load.declaredLimit });
  try {
    return await runSuite(CHECKS, cfg, await gw.start('127.0.0.1', 0), upstream, () => {});
  } finally {
    await gw.stop();
  }
}

/**
 * The suite with `flags` through the reference gateway started as a process of its own by the
 * launcher (as --gateway-cmd does), so that its memory is its own and the report has its resources.
 */
export async function throughLaunchedReference(upstream: Upstream, fault: string | undefined, flags: Flags): Promise<RunReport> {
  const cfg = resolveConfig({ seed: '1', reporter: ['json'], ...flags }, {}, {});
  const bin = path.join(ROOT, 'bin', 'gw-conformance.js');
  const cmd = `exec "${process.execPath}" "${bin}" reference --listen 127.0.0.1:{listen_port} --upstream {upstream_url}${fault ? ` --fault ${fault}` : ''}`;
  const gw = await launchGateway({ cmd, env: [], args: [], upstreamUrl: upstream.url, upstreamPort: Number(new URL(upstream.url).port), startTimeoutMs: 60_000, secrets: [] });
  try {
    const report = await runSuite(CHECKS, cfg, gw.target, upstream, () => {}, { launcher: gw });
    await gw.stop();
    return { ...report, launched: gw.info() };
  } finally {
    await gw.stop();
  }
}
