// Results outlive the exchanges they describe. A string cut from a larger one (`slice`,
// `substring`, a regular expression's match) may share the larger one's storage in V8 (a
// "sliced string"), so 200 characters of evidence cut from a 2 MiB stream body keep all of it
// alive until the run ends. Each check's result is detached once, when it is recorded: every
// string in it becomes its own copy, and evidence holds only what it shows.

/** V8 copies substrings shorter than this (SlicedString::kMinLength) instead of sharing. */
const SHARED_FROM = 13;

/** A copy of `s` with storage of its own (a JSON round trip is lossless for every string, lone surrogates included). */
export function ownCopy(s: string): string {
  return s.length < SHARED_FROM ? s : (JSON.parse(JSON.stringify(s)) as string);
}

/** `v` with every string in its arrays and plain objects (keys too) replaced by ownCopy(); other values as they are. */
export function detached<T>(v: T): T {
  if (typeof v === 'string') return ownCopy(v) as T;
  if (Array.isArray(v)) return v.map((x) => detached(x)) as T;
  if (v && typeof v === 'object') {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return v;
    const out: Record<string, unknown> = proto === null ? Object.create(null) : {};
    for (const [k, x] of Object.entries(v)) out[ownCopy(k)] = detached(x);
    return out as T;
  }
  return v;
}
