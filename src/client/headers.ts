// Header lists as [name, value] pairs, in order, with case and duplicates kept.
export type HeaderPairs = Array<[string, string]>;

/** From node:http's flat rawHeaders array (name, value, name, value, ...). */
export function pairsFromRaw(raw: string[]): HeaderPairs {
  // Sized once: grown by push, a list of 9 pairs would keep room for 17 (the recording upstream keeps every request's).
  const out: HeaderPairs = new Array(raw.length >> 1);
  for (let i = 0; i < raw.length; i += 2) out[i >> 1] = [raw[i], raw[i + 1]];
  return out;
}

/** From undici's header record (a repeated header is an array). */
export function pairsFromRecord(headers: Record<string, string | string[] | undefined>): HeaderPairs {
  const out: HeaderPairs = [];
  for (const [k, v] of Object.entries(headers)) for (const one of Array.isArray(v) ? v : [v]) if (one !== undefined) out.push([k, one]);
  return out;
}
