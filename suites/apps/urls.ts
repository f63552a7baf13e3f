// The URLs an apps gateway hands to clients and browsers (the endpoints of its metadata document,
// the device authorization answer's verification links, the redirects of sign-in), judged against
// the public URL its configuration gives it. A link on another scheme, host or port (the
// gateway's own name for itself, an internal port, http behind a TLS proxy) is one a user's
// device may not reach, although from the gateway's host it works.

/** One URL the gateway handed out, and what it was (for the evidence). */
export interface HandedOut {
  what: string;
  url: string;
}

const originOf = (url: string): string | undefined => {
  try {
    const u = new URL(url);
    return /^https?:$/.test(u.protocol) ? u.origin : undefined;
  } catch {
    return undefined;
  }
};

/** Each handed-out URL whose scheme, host or port differs from the public URL's (or that is no absolute http(s) URL), as `what: url`. */
export function offPublic(urls: readonly HandedOut[], publicUrl: string): string[] {
  const want = originOf(publicUrl);
  return urls.filter((u) => originOf(u.url) !== want).map((u) => `${u.what}: ${u.url}`);
}

/**
 * The metadata document's URLs a client calls at the gateway: `issuer` and every `*_endpoint`
 * and `*_uri` field (documentation links, which a gateway may host elsewhere, are left out).
 */
export function metadataUrls(doc: unknown): HandedOut[] {
  if (!doc || typeof doc !== 'object') return [];
  return Object.entries(doc as Record<string, unknown>)
    .filter(([k, v]) => typeof v === 'string' && (k === 'issuer' || /_endpoint$|_uri$/.test(k)))
    .map(([k, v]) => ({ what: `metadata ${k}`, url: v as string }));
}

/** The device authorization answer's links: `verification_uri` and `verification_uri_complete`. */
export function deviceUrls(doc: unknown): HandedOut[] {
  const d = (doc ?? {}) as Record<string, unknown>;
  return (['verification_uri', 'verification_uri_complete'] as const).filter((k) => typeof d[k] === 'string').map((k) => ({ what: `device authorization ${k}`, url: d[k] as string }));
}

/**
 * A redirect the gateway answered during sign-in, as the URL to judge: a redirect to the IdP
 * carries the gateway's own address in its `redirect_uri`; any other redirect is judged itself
 * (a relative one is resolved against the request, so it stays on the address the client used).
 */
export function redirectUrl(what: string, location: string, requestUrl: string, idpIssuer: string): HandedOut {
  const to = new URL(location, requestUrl);
  if (originOf(to.href) === originOf(idpIssuer)) return { what: `${what} redirect_uri (in the redirect to the IdP)`, url: to.searchParams.get('redirect_uri') ?? '(none)' };
  return { what: `${what} Location`, url: to.href };
}
