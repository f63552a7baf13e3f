// The reference gateway's answer to a browser's CORS preflight (CORS-1): an OPTIONS request with
// Origin and Access-Control-Request-Method is answered 204, allowing that origin, the methods
// the protocols use and every header the browser asked for, so web clients can call it.
import type http from 'node:http';
import type { RequestParts } from './faults/index.js';

const header = (r: RequestParts, name: string) => r.headers.find(([k]) => k.toLowerCase() === name)?.[1];

/** Answers `r` when it is a preflight; returns whether it did. */
export function preflight(r: RequestParts, res: http.ServerResponse): boolean {
  const origin = header(r, 'origin');
  const method = header(r, 'access-control-request-method');
  if (r.method !== 'OPTIONS' || !origin || !method) return false;
  res.writeHead(204, {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': header(r, 'access-control-request-headers') ?? '',
    'access-control-max-age': '600',
    vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
  });
  res.end();
  return true;
}
