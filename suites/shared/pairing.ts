// Pairing the pieces of a stream the upstream sent with the events the client received, on any
// protocol: a piece and an event pair when they carry the same payload (the same text, or the
// same JSON value re-serialised), found in order.
import { diffJson } from '../../src/core/json-diff.js';
import { tryParse } from '../../src/core/json.js';

/** One sent piece (its index among those sent) and the received event (its index) that carries it. */
export interface Pair {
  sent: number;
  got: number;
}

/** The same payload: identical text, or the same JSON value (a gateway may re-serialise an event). */
export function samePayload(sent: string, got: string): boolean {
  if (sent === got) return true;
  const a = tryParse(sent);
  const b = tryParse(got);
  return a.ok && b.ok && diffJson(a.node, b.node, '', [], { keyOrder: false, limit: 1 }).length === 0;
}

/** Each sent payload with the first received one after the last pair that carries it: in order, so a lost or added event does not shift the later pairings. */
export function pairInOrder(sent: string[], got: string[]): Pair[] {
  const pairs: Pair[] = [];
  let j = 0;
  for (let i = 0; i < sent.length; i++) {
    const k = got.findIndex((g, at) => at >= j && samePayload(sent[i], g));
    if (k < 0) continue;
    pairs.push({ sent: i, got: k });
    j = k + 1;
  }
  return pairs;
}

/** Position by position when the counts agree, else in order by payload. */
export function pairByPosition(sent: string[], got: string[]): Pair[] {
  return sent.length === got.length ? sent.map((_, i) => ({ sent: i, got: i })) : pairInOrder(sent, got);
}
