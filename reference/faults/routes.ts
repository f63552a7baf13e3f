// Which protocol and route a request the reference gateway forwards belongs to, as the protocol
// records say (src/protocols/): the faults target a protocol's requests by it, not by paths of
// their own. And the answer a fault gives itself instead of forwarding (its intercept hook).
import type http from 'node:http';
import { routeOfRequest, type Protocol, type RouteKind } from '../../src/protocols/index.js';
import type { RequestParts } from './types.js';

/** Whether `r` is one of protocol `p`'s requests on one of `routes`. */
export function isOn(r: RequestParts, p: Protocol, ...routes: RouteKind[]): boolean {
  const at = routeOfRequest(r.method, r.path, r.headers);
  return at !== null && at.protocol === p && routes.includes(at.route);
}

/** Answers the request with `status` and `body` of content type `type`, its length declared; true (an intercept that answered). */
export function answer(res: http.ServerResponse, status: number, type: string, body: string | Buffer): true {
  res.writeHead(status, { 'content-type': type, 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
  return true;
}
