// Which request of the straight run CLIENT-1 compares with which of the run through the gateway:
// paired by endpoint (method and path, query excluded) in order, so that a request missing or
// added through the gateway shows as that and the rest still pair up. Two kinds of request are
// set apart first: those to an endpoint the upstream itself does not serve (it answered the
// straight run's request 404: the client asked something outside the upstream's API, and whether
// the gateway forwards it or answers it itself is no difference in what reached the upstream),
// and those a client sends at once, whose order of arrival is chance (its driver names them by
// a pattern of their path): these pair by endpoint and occurrence, whatever their order.
import type { ClientRun, UpstreamRequest } from './types.js';

/** The endpoint of a request, without its query: what two runs' requests are paired by. */
const endpoint = (r: UpstreamRequest) => `${r.method} ${r.url.split('?')[0]}`;

/**
 * Pairs two lists by key, in order (a longest common subsequence), so that an item missing or
 * added shows as that, and the rest still pair up.
 */
export function align<T>(a: T[], b: T[], key: (x: T) => string): Array<[T | undefined, T | undefined]> {
  const n = a.length;
  const m = b.length;
  const l = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) l[i][j] = key(a[i]) === key(b[j]) ? l[i + 1][j + 1] + 1 : Math.max(l[i + 1][j], l[i][j + 1]);
  const out: Array<[T | undefined, T | undefined]> = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && key(a[i]) === key(b[j])) out.push([a[i++], b[j++]]);
    else if (j >= m || (i < n && l[i + 1][j] >= l[i][j + 1])) out.push([a[i++], undefined]);
    else out.push([undefined, b[j++]]);
  }
  return out;
}

/** Pairs by endpoint and occurrence (the k-th request to an endpoint with the other side's k-th), in the straight run's order. */
function byOccurrence(a: UpstreamRequest[], b: UpstreamRequest[]): Array<[UpstreamRequest | undefined, UpstreamRequest | undefined]> {
  const left = [...b];
  const out: Array<[UpstreamRequest | undefined, UpstreamRequest | undefined]> = a.map((x) => {
    const i = left.findIndex((y) => endpoint(y) === endpoint(x));
    return [x, i >= 0 ? left.splice(i, 1)[0] : undefined];
  });
  return [...out, ...left.map((y): [undefined, UpstreamRequest] => [undefined, y])];
}

/** The pairs CLIENT-1 compares: the requests in order, then those sent at once; none to an endpoint the upstream does not serve. */
export function pairRequests(s: Pick<ClientRun, 'requests' | 'unorderedRequests'>, g: Pick<ClientRun, 'requests' | 'unorderedRequests'>): Array<[UpstreamRequest | undefined, UpstreamRequest | undefined]> {
  const unserved = new Set(s.requests.filter((r) => r.status === 404).map(endpoint));
  const atOnce = s.unorderedRequests ? new RegExp(s.unorderedRequests) : null;
  const split = (rs: UpstreamRequest[]) => {
    const kept = rs.filter((r) => !unserved.has(endpoint(r)));
    const unordered = kept.filter((r) => atOnce?.test(r.url.split('?')[0]));
    return { ordered: kept.filter((r) => !unordered.includes(r)), unordered };
  };
  const a = split(s.requests);
  const b = split(g.requests);
  return [...align(a.ordered, b.ordered, endpoint), ...byOccurrence(a.unordered, b.unordered)];
}
