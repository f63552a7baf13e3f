// Runs the suite in-process against the reference gateway (optionally with a fault).
import { DEMO_UPSTREAM_TIMEOUT_MS, ReferenceGateway } from '../../reference/gateway.js';
import { faultByName } from '../../reference/faults/index.js';
import { runSuite } from '../../src/runner/run.js';
import { upstreamForGateway } from '../../mocks/upstream/for-gateway.js';
import type { PhaseGate } from '../../src/runner/gate.js';
import { resolveConfig } from '../../src/config/config.js';
import type { RunReport } from '../../src/report/shared/types.js';
import { CHECKS } from '../../suites/index.js';
import { PROTOCOLS } from '../../src/core/protocols.js';
import type { Tracer } from '../../reference/trace.js';

/** What a traced run hands on (the detection matrix's reach, test/helpers/reach.ts): every exchange the gateway saw, and each check's case tokens and the paths it sent to. */
export interface Tracing {
  trace: Tracer;
  cases: (checkId: string, tokens: string[], sent: string[]) => void;
}

/** `gate`: shared by runs going on at once in this process, so their timing checks meet no other run's work. */
export async function demoRun(fault?: string, flags: Parameters<typeof resolveConfig>[0] = {}, gate?: PhaseGate, tracing?: Tracing): Promise<RunReport> {
  const f = fault ? faultByName(fault) : undefined;
  const { upstream, gateway, stop } = await upstreamForGateway(f);
  const gw = new ReferenceGateway({ ...gateway, fault: f, upstreamTimeoutMs: DEMO_UPSTREAM_TIMEOUT_MS, trace: tracing?.trace });
  try {
    const target = await gw.start('127.0.0.1', 0);
    // The reference gateway serves every protocol, MCP among them (not among a run's defaults): all are declared.
    const cfg = resolveConfig({ seed: '1', reporter: ['json'], protocols: [...PROTOCOLS], ...flags }, {}, {});
    return await runSuite(CHECKS, cfg, target, upstream, () => {}, { gate, cases: tracing?.cases });
  } finally {
    await gw.stop();
    await stop();
  }
}
