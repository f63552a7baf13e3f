// The second upstream the harness observes (XUP-1). The recording upstream stands for it under
// one path prefix: a gateway with a fallback (or any second upstream) is given
// `{upstream_url}/gwc-second` as that upstream's base URL. A request arriving under the prefix is
// recorded as the second upstream's, with the path the first upstream would have seen, and a
// case may script what the second upstream answers (src/upstream/scenario.ts `second`).
export const SECOND_UPSTREAM_PREFIX = '/gwc-second';

/**
 * The model the harness asks a fallback of: a gateway declares its fallback chain for this model
 * (first upstream, then the second on a 5xx). The reference gateway's is built in; no other check
 * asks for this model, so no other check meets a fallback.
 */
export const FALLBACK_MODEL = 'claude-sonnet-4-5-gwc-fallback';

/** The request path without the second upstream's prefix, or null when it did not arrive under it. */
export function underSecondUpstream(url: string): string | null {
  const p = SECOND_UPSTREAM_PREFIX;
  return url === p || url.startsWith(`${p}/`) || url.startsWith(`${p}?`) ? url.slice(p.length) || '/' : null;
}
