// RETRY-POST-1: how many times a POST reached the upstream after an answer (502, 504) or a
// silence that says nothing about whether the upstream ran it, and whether every further send
// carried the first one's Idempotency-Key (the one way a retry is allowed). The errors checks of
// a status and of a read time-out share it.
import { headerValues, type RecordedRequest } from '../../src/upstream/record.js';

/**
 * A second send that comes after the gateway answered the client is counted when it arrives within
 * this bound of the answer. A retry in place comes before the answer (the gateway retries, then
 * answers); the bound only catches one sent behind the client's back, and is the same as
 * errors.retry.client-errors' for late retries.
 */
export const LATE_RESEND_MS = 300;

/** What the sends of one case say: null when the POST reached the upstream once, or every send carried the first's Idempotency-Key; else what is wrong. */
export function resendProblem(what: string, hits: readonly RecordedRequest[]): { problem: string | null; how: string } {
  if (hits.length <= 1) return { problem: null, how: `${what}: sent upstream once` };
  const keys = hits.map((h) => headerValues(h, 'idempotency-key').map((v) => v.trim()).filter(Boolean));
  const first = keys[0][0];
  if (first && keys.every((k) => k.length === 1 && k[0] === first)) return { problem: null, how: `${what}: sent upstream ${hits.length} times, every send with the same Idempotency-Key (allowed: the upstream can tell a retry from a new request)` };
  const keyed = keys.filter((k) => k.length).length;
  const why = keyed === 0 ? 'none of them with an Idempotency-Key' : `Idempotency-Keys that are not the same on every send (${keys.map((k) => k.join(',') || 'none').join(' / ')})`;
  return { problem: `${what}, the POST was sent upstream ${hits.length} times, ${why}: the upstream may run and bill the generation ${hits.length} times`, how: `${hits.length} sends` };
}
