// The WebSocket routes, gathered from the protocol records' `sockets` (one place for their facts:
// each route is defined in its protocol's folder, src/protocols/<name>/socket.ts): which route
// and protocol a path is, the routes of the declared protocols, a route by name.
import { SOCKET_ROUTES, type Protocol, type SocketRouteName } from '../core/protocols.js';
import { PROTOCOLS } from '../core/protocols.js';
import type { SocketRoute } from './record.js';
import { RECORDS } from './registry.js';

export type { SocketRoute };

/** Every socket route with the protocol whose record carries it, in SOCKET_ROUTES' order. */
export const SOCKETS: ReadonlyArray<{ route: SocketRoute; protocol: Protocol }> = PROTOCOLS.flatMap((protocol) => (RECORDS[protocol].sockets ?? []).map((route) => ({ route, protocol }))).sort(
  (a, b) => SOCKET_ROUTES.indexOf(a.route.name) - SOCKET_ROUTES.indexOf(b.route.name),
);

/** The socket route of a name. */
export function socketRoute(name: SocketRouteName): { route: SocketRoute; protocol: Protocol } {
  const found = SOCKETS.find((s) => s.route.name === name);
  if (!found) throw new Error(`harness bug: no record carries the socket route ${name}`);
  return found;
}

/** The socket route a path (prefix removed, query allowed) is, or null. */
export function socketRouteOf(path: string): { route: SocketRoute; protocol: Protocol } | null {
  return SOCKETS.find((s) => s.route.matches(path)) ?? null;
}

/** The socket routes of the protocols given (those a gateway declares it serves). */
export function socketRoutesOf(protocols: readonly Protocol[]): SocketRouteName[] {
  return SOCKETS.filter((s) => protocols.includes(s.protocol)).map((s) => s.route.name);
}
