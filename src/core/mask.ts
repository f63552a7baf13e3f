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
