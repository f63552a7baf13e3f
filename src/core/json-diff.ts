// Comparison of what was sent with what arrived: semantic (lossless JSON tree, key order
// included) and byte-exact. Every difference carries a JSON pointer or a byte offset so a
// failure explains itself without a debugger.
import { canonicalNumber, escapePointer, type JNode, stringifyNode, tryParse } from './json.js';
import { maskCut } from './mask.js';

export type DiffKind = 'changed' | 'added' | 'removed' | 'type' | 'key-order' | 'length';

export interface JsonDiff {
  path: string;
  kind: DiffKind;
  expected?: string;
  actual?: string;
}

const MAX_SHOWN = 400;
function show(n: JNode | undefined): string | undefined {
  if (!n) return undefined;
  const s = stringifyNode(n);
  return maskCut(s, MAX_SHOWN);
}

export interface DiffOptions {
  /** Whether object key order counts (it does for MSG-BODY-1; focused checks leave it to that one). */
  keyOrder?: boolean;
  limit?: number;
}

/** All differences between two trees, up to `limit`. Key order counts unless turned off. */
export function diffJson(expected: JNode, actual: JNode, path = '', out: JsonDiff[] = [], opts: DiffOptions = {}): JsonDiff[] {
  const limit = opts.limit ?? 20;
  if (out.length >= limit) return out;
  if (expected.t !== actual.t) {
    out.push({ path, kind: 'type', expected: show(expected), actual: show(actual) });
    return out;
  }
  switch (expected.t) {
    case 'obj': {
      const a = actual as Extract<JNode, { t: 'obj' }>;
      const akeys = a.entries.map(([k]) => k);
      const ekeys = expected.entries.map(([k]) => k);
      for (const [k, v] of expected.entries) {
        const other = a.entries.find(([ak]) => ak === k);
        const p = `${path}/${escapePointer(k)}`;
        if (!other) out.push({ path: p, kind: 'removed', expected: show(v) });
        else diffJson(v, other[1], p, out, opts);
        if (out.length >= limit) return out;
      }
      for (const [k, v] of a.entries) {
        if (!ekeys.includes(k)) out.push({ path: `${path}/${escapePointer(k)}`, kind: 'added', actual: show(v) });
      }
      const common = ekeys.filter((k) => akeys.includes(k));
      const commonActual = akeys.filter((k) => ekeys.includes(k));
      if (opts.keyOrder !== false && common.join('\u0000') !== commonActual.join('\u0000')) {
        out.push({ path: path || '/', kind: 'key-order', expected: common.join(','), actual: commonActual.join(',') });
      }
      return out;
    }
    case 'arr': {
      const a = actual as Extract<JNode, { t: 'arr' }>;
      // A changed length is the finding (a dropped or merged item); item diffs after it only follow from the shift.
      if (expected.items.length !== a.items.length) {
        out.push({ path: path || '/', kind: 'length', expected: String(expected.items.length), actual: String(a.items.length) });
      }
      const n = Math.min(expected.items.length, a.items.length);
      for (let i = 0; i < n && out.length < limit; i++) diffJson(expected.items[i], a.items[i], `${path}/${i}`, out, opts);
      return out;
    }
    case 'num': {
      const a = actual as Extract<JNode, { t: 'num' }>;
      if (canonicalNumber(expected.raw) !== canonicalNumber(a.raw)) out.push({ path, kind: 'changed', expected: expected.raw, actual: a.raw });
      return out;
    }
    case 'str':
    case 'bool': {
      const a = actual as typeof expected;
      if (a.v !== expected.v) out.push({ path, kind: 'changed', expected: show(expected), actual: show(actual) });
      return out;
    }
    case 'null':
      return out;
  }
}

export function describeDiff(d: JsonDiff): string {
  const where = d.path || '/';
  switch (d.kind) {
    case 'removed':
      return `${where}: missing (sent ${d.expected})`;
    case 'added':
      return `${where}: added field ${d.actual} (not sent)`;
    case 'key-order':
      return `${where}: key order changed: sent [${d.expected}], got [${d.actual}]`;
    case 'length':
      return `${where}: array length changed: sent ${d.expected} items, got ${d.actual}`;
    case 'type':
      return `${where}: type changed: sent ${d.expected}, got ${d.actual}`;
    case 'changed':
      return `${where}: value changed: sent ${d.expected}, got ${d.actual}`;
  }
}

export interface ByteDiff {
  offset: number;
  expectedLength: number;
  actualLength: number;
  expectedContext: string;
  actualContext: string;
}

/** First differing byte with some context either side, or null when identical. */
export function diffBytes(expected: Buffer, actual: Buffer, context = 24): ByteDiff | null {
  if (expected.equals(actual)) return null;
  let i = 0;
  const n = Math.min(expected.length, actual.length);
  while (i < n && expected[i] === actual[i]) i++;
  // The bytes around the difference, cut by the masker (a credential the gateway echoed there is masked, a piece of one at either edge too).
  const from = Math.max(0, i - context);
  const ctx = (b: Buffer) => JSON.stringify(maskCut(b.subarray(from, i + context).toString('latin1'), i + context - from, b.length, undefined, from));
  return {
    offset: i,
    expectedLength: expected.length,
    actualLength: actual.length,
    expectedContext: ctx(expected),
    actualContext: ctx(actual),
  };
}

export function describeByteDiff(d: ByteDiff): string {
  return `bytes differ from offset ${d.offset} (sent ${d.expectedLength} bytes, got ${d.actualLength}): sent ${d.expectedContext}, got ${d.actualContext}`;
}

/** Semantic comparison of two JSON texts; a parse failure of either side is itself a difference. */
export function compareJsonText(expected: string, actual: string): { equal: boolean; diffs: JsonDiff[]; parseError?: string } {
  const e = tryParse(expected);
  if (!e.ok) throw new Error(`harness bug: sent body is not JSON: ${e.error}`);
  const a = tryParse(actual);
  if (!a.ok) return { equal: false, diffs: [], parseError: a.error };
  const diffs = diffJson(e.node, a.node);
  return { equal: diffs.length === 0, diffs };
}
