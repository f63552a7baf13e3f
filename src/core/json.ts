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

export class JsonSyntaxError extends Error {
  constructor(message: string, readonly offset: number) {
    super(`${message} at offset ${offset}`);
  }
}

export function parseLossless(text: string): JNode {
  let i = 0;
  const ws = () => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
      else break;
    }
  };
  const fail = (m: string): never => {
    throw new JsonSyntaxError(m, i);
  };
  const str = (): string => {
    // JSON.parse handles the escapes; we only find the end of the literal.
    const start = i;
    i++;
    while (i < text.length) {
      const c = text[i];
      if (c === '\\') i += 2;
      else if (c === '"') {
        i++;
        return JSON.parse(text.slice(start, i)) as string;
      } else i++;
    }
    return fail('unterminated string');
  };
  const value = (depth: number): JNode => {
    if (depth > 2000) fail('nesting too deep');
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const entries: Array<[string, JNode]> = [];
      ws();
      if (text[i] === '}') {
        i++;
        return { t: 'obj', entries };
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a key');
        const k = str();
        ws();
        if (text[i] !== ':') fail('expected ":"');
        i++;
        entries.push([k, value(depth + 1)]);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return { t: 'obj', entries };
        } else fail('expected "," or "}"');
      }
    }
    if (c === '[') {
      i++;
      const items: JNode[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return { t: 'arr', items };
      }
      for (;;) {
        items.push(value(depth + 1));
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return { t: 'arr', items };
        } else fail('expected "," or "]"');
      }
    }
    if (c === '"') return { t: 'str', v: str() };
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (m && m[0].length > 0) {
      i += m[0].length;
      return { t: 'num', raw: m[0] };
    }
    for (const [lit, node] of [
      ['true', { t: 'bool', v: true }],
      ['false', { t: 'bool', v: false }],
      ['null', { t: 'null' }],
    ] as const) {
      if (text.startsWith(lit, i)) {
        i += lit.length;
        return node as JNode;
      }
    }
    return fail('unexpected character');
  };
  const v = value(0);
  ws();
  if (i !== text.length) fail('trailing characters');
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
