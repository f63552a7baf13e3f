// What the readiness gate found before the checks ran (src/runner/ready.ts waits for a forwarded
// probe of each declared protocol, with the probe loop of src/client/forwarded.ts), as the report
// holds it.
import type { Forwarded, ProbeAnswer } from '../../client/forwarded.js';
import type { Protocol } from '../../core/features.js';

/** What the gateway answered to one canary. */
export type CanaryAnswer = ProbeAnswer;

export interface ProtocolReadiness extends Forwarded {
  protocol: Protocol;
}

export interface Readiness {
  timeoutMs: number;
  waitedMs: number;
  ready: boolean;
  protocols: ProtocolReadiness[];
}
