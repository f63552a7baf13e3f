// A lossless JSON reader: keeps object key order (JS objects reorder integer-like keys),
// duplicate keys, and each number's exact text. MSG-BODY-1 asks for key order and values
// to survive, and integers beyond 2^53 must not be compared as rounded doubles.

export type JNode =
  | { t: 'obj'; entries: Array<[string, JNode]> }
  | { t: 'arr'; items: JNode[] }
  | { t: 'str'; v: string }
  | { t: 'num'; raw: string }
  | { t: 'bool'; v: boolean }
  | { t: 'null' };

/**
 * The deepest nesting of gateway JSON the harness reads. JSON.parse and the lossless reader
 * build one object per level: a 2 MiB answer of `[` alone is a million levels (hundreds of MB);
 * no API answer nests beyond a few dozen.
 */
export const MAX_DEPTH = 512;

/** Whether `v` is an object of keys (not null, not an array): the one test of it; `T` is what its values are taken to be. */
export const isRecord = <T = unknown>(v: unknown): v is Record<string, T> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The offset where `text` nests deeper than `max` (strings skipped), or -1. One pass, no allocation. */
export function tooDeepAt(text: string, max = MAX_DEPTH): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return -1;
}

/** JSON.parse for text from the gateway: past MAX_DEPTH levels a JsonSyntaxError says so instead of building them. */
export function parseJson(text: string): ReturnType<typeof JSON.parse> {
  const at = tooDeepAt(text);
  if (at >= 0) throw new JsonSyntaxError(`nesting deeper than ${MAX_DEPTH} levels (the harness reads no deeper)`, at);
  return JSON.parse(text);
}

export class JsonSyntaxError extends Error {
  constructor(message: string, readonly offset: number) {
    super(`${message} at offset ${offset}`);
  }
}

const LITERALS = [
  ['true', { t: 'bool', v: true }],
  ['false', { t: 'bool', v: false }],
  ['null', { t: 'null' }],
] as const;

/** A cursor over one JSON text; each method reads one construct from the cursor on. */
class Reader {
  i = 0;
  constructor(readonly text: string) {}

  ws(): void {
    const { text } = this;
    while (this.i < text.length) {
      const c = text.charCodeAt(this.i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.i++;
      else break;
    }
  }

  fail(m: string): never {
    throw new JsonSyntaxError(m, this.i);
  }

  str(): string {
    // JSON.parse handles the escapes; we only find the end of the literal.
    const { text } = this;
    const start = this.i;
    this.i++;
    while (this.i < text.length) {
      const c = text[this.i];
      if (c === '\\') this.i += 2;
      else if (c === '"') {
        this.i++;
        return JSON.parse(text.slice(start, this.i)) as string;
      } else this.i++;
    }
    return this.fail('unterminated string');
  }

  /** After a separator: `,` goes on (true), `close` ends (false), anything else is an error. */
  more(close: '}' | ']'): boolean {
    this.ws();
    const c = this.text[this.i];
    if (c === ',' || c === close) this.i++;
    else this.fail(`expected "," or "${close}"`);
    return c === ',';
  }

  object(depth: number): JNode {
    this.i++;
    const entries: Array<[string, JNode]> = [];
    this.ws();
    if (this.text[this.i] === '}') {
      this.i++;
      return { t: 'obj', entries };
    }
    do {
      this.ws();
      if (this.text[this.i] !== '"') this.fail('expected a key');
      const k = this.str();
      this.ws();
      if (this.text[this.i] !== ':') this.fail('expected ":"');
      this.i++;
      entries.push([k, this.value(depth + 1)]);
    } while (this.more('}'));
    return { t: 'obj', entries };
  }

  array(depth: number): JNode {
    this.i++;
    const items: JNode[] = [];
    this.ws();
    if (this.text[this.i] === ']') {
      this.i++;
      return { t: 'arr', items };
    }
    do items.push(this.value(depth + 1));
    while (this.more(']'));
    return { t: 'arr', items };
  }

  /** A number (its text kept) or true, false, null. */
  scalar(): JNode {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.i, this.i + 400));
    if (m && m[0].length > 0) {
      this.i += m[0].length;
      return { t: 'num', raw: m[0] };
    }
    for (const [lit, node] of LITERALS) {
      if (this.text.startsWith(lit, this.i)) {
        this.i += lit.length;
        return { ...node } as JNode;
      }
    }
    return this.fail('unexpected character');
  }

  value(depth: number): JNode {
    if (depth > MAX_DEPTH) this.fail(`nesting deeper than ${MAX_DEPTH} levels (the harness reads no deeper)`);
    this.ws();
    const c = this.text[this.i];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return { t: 'str', v: this.str() };
    return this.scalar();
  }
}

export function parseLossless(text: string): JNode {
  const r = new Reader(text);
  const v = r.value(0);
  r.ws();
  if (r.i !== text.length) r.fail('trailing characters');
  return v;
}

/** Canonical decimal form, so `1.0`, `1e0` and `1` compare equal but 2^53+1 does not equal 2^53. */
export function canonicalNumber(raw: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(raw);
  if (!m) return raw;
  const [, sign, int, frac = '', exp = '0'] = m;
  let digits = (int + frac).replace(/^0+/, '');
  let e = Number(exp) - frac.length;
  if (digits === '') return '0';
  while (digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    e++;
  }
  return `${sign}${digits}e${e}`;
}

/** Plain JS value of a node (for reading fields; loses the number text). */
export function toPlain(n: JNode): unknown {
  switch (n.t) {
    case 'obj':
      return Object.fromEntries(n.entries.map(([k, v]) => [k, toPlain(v)]));
    case 'arr':
      return n.items.map(toPlain);
    case 'str':
      return n.v;
    case 'num':
      return Number(n.raw);
    case 'bool':
      return n.v;
    case 'null':
      return null;
  }
}

/** Compact JSON text of a node, numbers as written. */
export function stringifyNode(n: JNode): string {
  switch (n.t) {
    case 'obj':
      return `{${n.entries.map(([k, v]) => `${JSON.stringify(k)}:${stringifyNode(v)}`).join(',')}}`;
    case 'arr':
      return `[${n.items.map(stringifyNode).join(',')}]`;
    case 'str':
      return JSON.stringify(n.v);
    case 'num':
      return n.raw;
    case 'bool':
      return String(n.v);
    case 'null':
      return 'null';
  }
}

export function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Node at a JSON pointer, or undefined. */
export function at(n: JNode | undefined, pointer: string): JNode | undefined {
  if (pointer === '' || pointer === '/') return n;
  let cur = n;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!cur) return undefined;
    if (cur.t === 'obj') cur = cur.entries.find(([k]) => k === key)?.[1];
    else if (cur.t === 'arr') cur = cur.items[Number(key)];
    else return undefined;
  }
  return cur;
}

export function tryParse(text: string): { ok: true; node: JNode } | { ok: false; error: string } {
  try {
    return { ok: true, node: parseLossless(text) };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

/**
 * Whether a parsed body carries `field`: a top-level key (`output_config`), or a key of any
 * element of a top-level array (`tools[].defer_loading`).
 */
export function bodyHasField(node: JNode, field: string): boolean {
  if (node.t !== 'obj') return false;
  const m = /^([^[\]]+)\[\]\.(.+)$/.exec(field);
  if (!m) return node.entries.some(([k]) => k === field);
  const arr = node.entries.find(([k]) => k === m[1])?.[1];
  return arr?.t === 'arr' && arr.items.some((item) => item.t === 'obj' && item.entries.some(([k]) => k === m[2]));
}
