// Shared steps of the messages checks alone: where a field of the sent body went in the
// received one. What other areas share lives in suites/shared/.
import { at, stringifyNode, tryParse, type JNode } from '../../src/core/json.js';
import { diffJson, type JsonDiff } from '../../src/core/json-diff.js';
import { fixturesAndProperty } from '../shared/property.js';
import { parseSeen, type Exchange } from '../shared/exchange.js';
import type { CheckContext, Verdict } from '../../src/check/check.js';
import { generatedMessagesRequest } from './gen.js';
import { messageFixtures } from './fixtures.js';

/** A body property over the messages fixtures and generated messages bodies. */
export function messagesBodyProperty(ctx: CheckContext, judge: (x: Exchange) => Verdict | 'refused', what: string): Promise<Verdict> {
  return fixturesAndProperty(ctx, messageFixtures(), judge, what, { bodies: generatedMessagesRequest });
}

/**
 * Compares the subtree at `pointer` of the sent body with what the upstream received.
 * Object key order is left to MSG-BODY-1 unless `keyOrder` is set.
 */
export function compareAt(x: Exchange, pointer: string, keyOrder = false): { ok: boolean; diffs: JsonDiff[] } {
  const sent = tryParse(x.sent);
  const seen = parseSeen(x);
  if (!sent.ok) throw new Error('harness bug: sent body is not JSON');
  const e = at(sent.node, pointer);
  const a = seen ? at(seen, pointer) : undefined;
  if (!e && !a) return { ok: true, diffs: [] };
  if (!e || !a) return { ok: false, diffs: [{ path: pointer, kind: e ? 'removed' : 'added', expected: e && stringifyNode(e), actual: a && stringifyNode(a) }] };
  const diffs = diffJson(e, a, pointer, [], { keyOrder });
  return { ok: diffs.length === 0, diffs };
}

function sameIgnoringKey(a: JNode, b: JNode, key: string): boolean {
  if (a.t !== 'obj' || b.t !== 'obj') return false;
  const strip = (n: JNode): JNode => ({ t: 'obj', entries: (n as Extract<JNode, { t: 'obj' }>).entries.filter(([k]) => k !== key) });
  return diffJson(strip(a), strip(b), '', [], { keyOrder: false, limit: 1 }).length === 0;
}

function findObject(n: JNode, match: (o: JNode) => boolean, path = ''): { node: JNode; path: string } | null {
  if (n.t === 'obj' && match(n)) return { node: n, path };
  const kids: Array<[string, JNode]> = n.t === 'obj' ? n.entries : n.t === 'arr' ? n.items.map((v, i) => [String(i), v]) : [];
  for (const [k, v] of kids) {
    const f = findObject(v, match, `${path}/${k}`);
    if (f) return f;
  }
  return null;
}

/**
 * Checks the field at `pointer` (e.g. /system/1/cache_control) by finding the object that
 * held it in the received body, at the same place or, if blocks were shifted, wherever an
 * object with the same other fields stands. Reports "removed" only when the field is gone.
 */
export function compareField(x: Exchange, pointer: string): { ok: boolean; diffs: JsonDiff[]; movedTo?: string } {
  const sent = tryParse(x.sent);
  const seen = parseSeen(x);
  if (!sent.ok) throw new Error('harness bug: sent body is not JSON');
  const cut = pointer.lastIndexOf('/');
  const parentPtr = pointer.slice(0, cut);
  const key = pointer.slice(cut + 1);
  const parent = at(sent.node, parentPtr);
  const value = at(sent.node, pointer);
  if (!parent || !value) throw new Error(`harness bug: nothing sent at ${pointer}`);
  if (!seen) return { ok: false, diffs: [{ path: pointer, kind: 'removed', expected: stringifyNode(value) }] };
  const same = at(seen, parentPtr);
  const holder = same && sameIgnoringKey(parent, same, key) ? { node: same, path: parentPtr } : findObject(seen, (o) => sameIgnoringKey(parent, o, key));
  const got = holder ? at(holder.node, `/${key}`) : at(seen, pointer);
  const where = holder ? `${holder.path}/${key}` : pointer;
  if (!got) return { ok: false, diffs: [{ path: pointer, kind: 'removed', expected: stringifyNode(value) }] };
  const diffs = diffJson(value, got, where, [], { keyOrder: false });
  return { ok: diffs.length === 0, diffs, movedTo: where !== pointer ? where : undefined };
}
