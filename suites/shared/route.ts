// The route a request took through the gateway: the protocol the client spoke and the one the
// request reached the recording upstream in. Checks that compare bytes, key order or forwarded
// headers cannot judge across a translation (messages in, chat upstream): they declare
// `untranslatable` and the runner skips them there; the checks of translated routes
// (suites/translate/) judge such a route by meaning, with these helpers.
import type { Verdict } from '../../src/check/check.js';
import type { Protocol } from '../../src/core/protocols.js';
import type { RecordedRequest } from '../../src/upstream/record.js';

/** The two protocols of a translated request; null when it reached the upstream in the client's own (or on no protocol's path). */
export function translation(client: Protocol, seen: Pick<RecordedRequest, 'routedAs'> | null | undefined): { from: Protocol; to: Protocol } | null {
  return seen?.routedAs && seen.routedAs !== client ? { from: client, to: seen.routedAs } : null;
}

/** The skip of a check of translated routes whose request was not translated (it ran because --only named it). */
export function notTranslated(client: Protocol, seen: Pick<RecordedRequest, 'protocol' | 'routedAs'> | null | undefined): Verdict {
  return { ok: true, skip: true, message: `route not translated: the ${client} request reached the upstream as ${seen?.protocol ?? 'a path of no protocol'}; the pass-through checks judge this route` };
}

/** Text compared by meaning: white space runs as one space, trimmed. */
export const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * A path that arrived changed, in words: what was sent, what arrived, and what differs (the path,
 * the query dropped, added or changed). A dropped `?beta=true` reads as the finding it is.
 */
export function pathChange(method: string, sent: string, got: string): string {
  const split = (u: string) => {
    const q = u.indexOf('?');
    return q < 0 ? { path: u, query: '' } : { path: u.slice(0, q), query: u.slice(q) };
  };
  const a = split(sent);
  const b = split(got);
  const what = [
    ...(a.path !== b.path ? [`the path changed from ${a.path} to ${b.path}`] : []),
    ...(a.query === b.query ? [] : !b.query ? [`the query ${a.query} was dropped`] : !a.query ? [`a query ${b.query} was added`] : [`the query changed from ${a.query} to ${b.query}`]),
  ];
  return `sent ${method} ${sent}, the upstream received ${method} ${got}: ${what.join(', and ') || 'they differ'}`;
}
