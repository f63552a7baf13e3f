// What the readiness gate found before the checks ran (src/runner/ready.ts waits for a forwarded
// canary of each declared protocol), as the report holds it.
import type { Protocol } from '../core/features.js';

/** What the gateway answered to one canary. */
export interface CanaryAnswer {
  /** Milliseconds since the gate started. */
  atMs: number;
  forwarded: boolean;
  status: number | null;
  contentType: string | null;
  /** The first bytes of the answer, as text (inert: reporters escape it). */
  firstBytes: string | null;
  /** Why there was no answer (refused, time-out). */
  error: string | null;
}

export interface ProtocolReadiness {
  protocol: Protocol;
  ready: boolean;
  attempts: number;
  /** Until the first forwarded canary (or the time-out). */
  waitedMs: number;
  /** The first and the last few answers (`answersTotal` says how many there were). */
  answers: CanaryAnswer[];
  answersTotal: number;
}

export interface Readiness {
  timeoutMs: number;
  waitedMs: number;
  ready: boolean;
  protocols: ProtocolReadiness[];
}
