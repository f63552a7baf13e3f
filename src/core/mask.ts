// Credentials never reach a report: header values of credential headers are masked, and any
// occurrence of a secret the harness was given is replaced wherever it appears.
const CREDENTIAL_HEADERS = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'cookie', 'set-cookie', 'proxy-authorization']);

export function maskValue(v: string): string {
  const bearer = /^(Bearer|Basic)\s+/i.exec(v);
  return bearer ? `${bearer[1]} ***` : '***';
}

export function maskHeaders(h: Array<[string, string]>): Array<[string, string]> {
  return h.map(([k, v]) => [k, CREDENTIAL_HEADERS.has(k.toLowerCase()) ? maskValue(v) : v]);
}

/** A URL with the value of its `key` query parameter (the native protocol's credential) masked. */
export function maskUrl(url: string): string {
  return url.replace(/([?&]key=)[^&#\s]*/g, '$1***');
}

/** Replaces every occurrence of each secret (and its URL-encoded form) in a serialised report. */
export function scrubSecrets(text: string, secrets: string[]): string {
  let out = text;
  for (const s of secrets) {
    if (!s || s.length < 4) continue;
    for (const form of new Set([s, encodeURIComponent(s), JSON.stringify(s).slice(1, -1)])) out = out.split(form).join('***');
  }
  return out.replace(/([?&]key=)[^&"\s]+/g, '$1***');
}

/**
 * Masks the values of headers the user added (--header, `headers:` in gwc.yaml) wherever a
 * report shows a header: `[name, value]` pairs and `{ name: value }` objects, at any depth.
 */
export function maskHeaderNamesDeep<T>(value: T, names: string[]): T {
  if (!names.length) return value;
  const set = new Set(names.map((n) => n.toLowerCase()));
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      if (v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string' && set.has(v[0].toLowerCase())) return [v[0], maskValue(v[1])];
      return v.map(walk);
    }
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typeof x === 'string' && set.has(k.toLowerCase()) ? maskValue(x) : walk(x)]));
    return v;
  };
  return walk(value) as T;
}
