// Which protocol and route a request the reference gateway forwards belongs to, as the protocol
// records say (src/protocols/): the faults target a protocol's requests by it, not by paths of
// their own.
import { routeOfRequest, type Protocol, type RouteKind } from '../../src/protocols/index.js';
import type { RequestParts } from './types.js';

/** Whether `r` is one of protocol `p`'s requests on one of `routes`. */
export function isOn(r: RequestParts, p: Protocol, ...routes: RouteKind[]): boolean {
  const at = routeOfRequest(r.method, r.path, r.headers);
  return at !== null && at.protocol === p && routes.includes(at.route);
}
